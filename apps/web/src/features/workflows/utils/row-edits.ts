/** The list with the entry at `index` changed by `patch` (a copy; lists in the draft are never edited in place). */
export const patchAt = <T>(list: readonly T[], index: number, patch: Partial<T>): T[] =>
  list.map((item, i) => (i === index ? { ...item, ...patch } : item));

/** The list without the entry at `index`. */
export const removeAt = <T>(list: readonly T[], index: number): T[] => list.filter((_, i) => i !== index);
