import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { type BatchFilters, isStatusFilter, isTypeFilter } from "../components/batch-calls-filters.tsx";
import type { Sort, SortKey } from "../components/batch-calls-table.tsx";

const SORT_KEYS: readonly SortKey[] = ["name", "status", "scheduled_time", "updatedAt"];
const isSortKey = (value: string): value is SortKey => SORT_KEYS.some((k) => k === value);

/** Spec §9: updatedAt, newest first. */
export const DEFAULT_SORT: Sort = { by: "updatedAt", order: "desc" };

/**
 * The list's filters, page and sort live in the URL (`?status=archived&page=2&sort=name&order=asc`),
 * so a view can be shared and survives a reload, as on the call logs page. A hand-edited value the
 * API would refuse is read as no value. Changes replace the history entry: typing a search does not
 * fill the back button.
 */
export function useListUrlState() {
  const [params, setParams] = useSearchParams();
  const status = params.get("status") ?? "";
  const type = params.get("type") ?? "";
  const by = params.get("sort") ?? "";
  const filters: BatchFilters = {
    search: params.get("search") ?? "",
    status: isStatusFilter(status) ? status : "",
    type: isTypeFilter(type) ? type : "",
  };
  const sort: Sort = isSortKey(by) ? { by, order: params.get("order") === "asc" ? "asc" : "desc" } : DEFAULT_SORT;
  const page = Math.max(1, Math.floor(Number(params.get("page") ?? 1)) || 1);

  const update = useCallback(
    (patch: Record<string, string | undefined>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [k, v] of Object.entries(patch)) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  return {
    filters,
    sort,
    page,
    /** New filters start again at page 1. */
    setFilters: (next: BatchFilters) =>
      update({ search: next.search, status: next.status, type: next.type, page: undefined }),
    setSort: (next: Sort) =>
      update(
        next.by === DEFAULT_SORT.by && next.order === DEFAULT_SORT.order
          ? { sort: undefined, order: undefined }
          : { sort: next.by, order: next.order },
      ),
    setPage: (next: number) => update({ page: next > 1 ? String(next) : undefined }),
  };
}
