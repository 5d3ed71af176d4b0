/**
 * Builds a provider's turn list where consecutive turns of one role merge into one: the native
 * message APIs reject two user (or two assistant) turns in a row, and want all the tool results
 * of a turn in one message.
 */
export class MergedTurns<Turn extends { role: string }, Item> {
  readonly turns: Turn[] = [];

  constructor(
    private readonly itemsOf: (turn: Turn) => Item[],
    private readonly turn: (role: Turn["role"], items: Item[]) => Turn,
  ) {}

  /** Adds `items` as a turn of `role`, to the last turn when it has that role; nothing for none. */
  append(role: Turn["role"], items: Item[]): void {
    if (items.length === 0) return;
    const last = this.turns.at(-1);
    if (last?.role === role) this.itemsOf(last).push(...items);
    else this.turns.push(this.turn(role, items));
  }
}
