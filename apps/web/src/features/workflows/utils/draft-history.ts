/**
 * Undo and redo over whole drafts. Edits that belong together — the keystrokes of one field, the
 * steps of one drag — share a group and make a single undo step: only the first edit of a group
 * records the state before it.
 */
export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** The group of the last recorded edit; another edit of the same group joins that step. */
  group: string | null;
}

export type HistoryAction<T> =
  | { type: "edit"; next: T; group?: string }
  /** An edit computed from the state it applies to, so edits dispatched before a render all count. */
  | { type: "apply"; change: (present: T) => T; group?: string }
  | { type: "undo" }
  | { type: "redo" }
  | { type: "reset"; present: T }
  /** The same draft as the server now holds it (after a save): no step of its own, undo still reaches back. */
  | { type: "rebase"; present: T };

/** How many steps back undo reaches; older ones are dropped so a long session stays small. */
export const HISTORY_LIMIT = 100;

export const startHistory = <T>(present: T): History<T> => ({ past: [], present, future: [], group: null });

export function historyReducer<T>(state: History<T>, action: HistoryAction<T>): History<T> {
  switch (action.type) {
    case "apply":
      return historyReducer(state, { type: "edit", next: action.change(state.present), group: action.group });
    case "edit": {
      if (action.next === state.present) return state;
      const joins = action.group !== undefined && action.group === state.group;
      return {
        past: joins ? state.past : [...state.past, state.present].slice(-HISTORY_LIMIT),
        present: action.next,
        future: [],
        group: action.group ?? null,
      };
    }
    case "undo": {
      const previous = state.past.at(-1);
      if (previous === undefined) return state;
      return {
        past: state.past.slice(0, -1),
        present: previous,
        future: [state.present, ...state.future],
        group: null,
      };
    }
    case "redo": {
      const [next, ...rest] = state.future;
      if (next === undefined) return state;
      return { past: [...state.past, state.present], present: next, future: rest, group: null };
    }
    case "reset":
      return startHistory(action.present);
    case "rebase":
      return { ...state, present: action.present, group: null };
  }
}
