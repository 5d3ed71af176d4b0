import { useListUrlState } from "../../../lib/use-list-url-state.ts";
import { type BatchFilters, isStatusFilter, isTypeFilter } from "../components/batch-calls-filters.tsx";
import { isSortKey, type Sort } from "../components/batch-calls-table.tsx";

/** Spec §9: updatedAt, newest first. */
export const DEFAULT_SORT: Sort = { by: "updatedAt", order: "desc" };

/**
 * The campaign list's filters, page and sort in the URL (`?status=archived&page=2&sort=name&order=asc`),
 * so a view can be shared and survives a reload, as on the call logs page. A hand-edited value the
 * API would refuse is read as no value. Changes replace the history entry: typing a search does not
 * fill the back button.
 */
export function useCampaignListState() {
  const { params, page, update, setPage } = useListUrlState({ replace: true });
  const status = params.get("status") ?? "";
  const type = params.get("type") ?? "";
  const by = params.get("sort") ?? "";
  const filters: BatchFilters = {
    search: params.get("search") ?? "",
    status: isStatusFilter(status) ? status : "",
    type: isTypeFilter(type) ? type : "",
  };
  const sort: Sort = isSortKey(by) ? { by, order: params.get("order") === "asc" ? "asc" : "desc" } : DEFAULT_SORT;

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
    setPage,
  };
}
