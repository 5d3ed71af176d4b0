/** A change to a list's URL: a value sets the parameter, an empty or missing one removes it. */
export type ParamsPatch = Record<string, string | undefined>;

/** The parameters with the patch applied; the others are kept as they are. */
export function patchParams(current: URLSearchParams, patch: ParamsPatch): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(patch)) {
    if (value) next.set(key, value);
    else next.delete(key);
  }
  return next;
}

/** The 1-based page a URL names; a missing, hand-edited or nonsense value reads as the first page. */
export const pageParam = (params: URLSearchParams): number =>
  Math.max(1, Math.floor(Number(params.get("page") ?? 1)) || 1);

/**
 * The parameters among `keys` whose value `valid` accepts: a stale or hand-edited value the API
 * would refuse is left out, so the page never shows a validation error for its own URL.
 */
export function validParams<K extends string>(
  params: URLSearchParams,
  keys: readonly K[],
  valid: (key: K, value: string) => boolean,
): Partial<Record<K, string>> {
  const found: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value !== null && valid(key, value)) found[key] = value;
  }
  return found;
}
