import { BATCH_CONTACTS_PAGE_SIZE, type BatchCall, type BatchContactPage, BatchContactStatus } from "@parley/contract";
import { pageParam } from "../../../lib/url-params.ts";

/** Which contacts the campaign page shows: a page of them, of one state or all. */
export interface ContactsView {
  page: number;
  status: BatchContactStatus | undefined;
}

/** The view the page's URL names (?page=&status=); a state the API would refuse reads as all. */
export function contactsViewOf(params: URLSearchParams): ContactsView {
  const status = BatchContactStatus.safeParse(params.get("status"));
  return { page: pageParam(params), status: status.success ? status.data : undefined };
}

/**
 * The first page of all contacts as the campaign's own read carries it (its first
 * BATCH_CONTACTS_PAGE_SIZE contacts, progress.total in all): shown without a request of its own,
 * and kept fresh by the campaign's poll. Other views ask GET /batch-calls/{id}/contacts.
 */
export function pageFromCampaign(batch: BatchCall, view: ContactsView): BatchContactPage | null {
  if (view.page !== 1 || view.status !== undefined) return null;
  const total = batch.progress.total;
  return {
    data: batch.phone_numbers,
    total_count: total,
    page: 1,
    items_per_page: BATCH_CONTACTS_PAGE_SIZE,
    pages: Math.ceil(total / BATCH_CONTACTS_PAGE_SIZE),
  };
}

/**
 * What changes whenever the campaign's contacts may have: its edit time and its figures. A page of
 * contacts is asked again when it moves, so the poll of the small campaign read drives it and no
 * page of contacts is polled for nothing.
 */
export function contactsVersion(batch: BatchCall): string {
  const p = batch.progress;
  return [
    batch.updatedAt,
    batch.status,
    p.total,
    p.dialled,
    p.answered,
    p.failed,
    p.in_progress,
    p.pending,
    p.do_not_call,
    p.cancelled,
  ].join(":");
}
