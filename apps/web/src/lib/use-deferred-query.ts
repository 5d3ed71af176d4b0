import { useDeferredValue } from "react";

/**
 * A query whose data is drawn in an interruptible render a moment after it arrives. A query's
 * answer otherwise renders at once (TanStack Query hands it over through useSyncExternalStore,
 * which React never time-slices): a page's table or canvas, styled for the first time, in one long
 * task while the page is already on screen and the user may be typing or clicking. Until that
 * render is done the query reads as pending, so the page keeps its loading state.
 */
export function useDeferredQuery<Q extends { data: unknown; isPending: boolean }>(query: Q): Q {
  const data = useDeferredValue(query.data);
  const drawing = query.data !== undefined && data === undefined;
  return { ...query, data, isPending: query.isPending || drawing } as Q;
}
