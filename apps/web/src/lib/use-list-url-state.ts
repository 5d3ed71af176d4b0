import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { type ParamsPatch, pageParam, patchParams } from "./url-params.ts";

/**
 * A list page's state in its URL (filters, page, sort, an open item), so a view can be shared and
 * survives a reload. `replace` keeps typing in a filter out of the back button's history.
 */
export function useListUrlState({ replace = false }: { replace?: boolean } = {}) {
  const [params, setParams] = useSearchParams();
  const update = useCallback(
    (patch: ParamsPatch) => setParams((current) => patchParams(current, patch), { replace }),
    [setParams, replace],
  );
  return {
    params,
    page: pageParam(params),
    update,
    /** The first page is the URL without `page`. */
    setPage: (next: number) => update({ page: next > 1 ? String(next) : undefined }),
  };
}
