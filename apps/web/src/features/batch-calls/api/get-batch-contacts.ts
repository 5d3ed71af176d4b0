import { type BatchCall, BatchContactPage } from "@parley/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { batchCallKeys } from "../../../api/batch-calls.ts";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";
import { type ContactsView, contactsVersion, pageFromCampaign } from "../components/contacts-view.ts";

/** GET /batch-calls/{id}/contacts: one page of a campaign's contacts, of one state or all. */
export const fetchBatchContacts = async (id: string, view: ContactsView) =>
  BatchContactPage.parse(
    await api.request(`/batch-calls/${id}/contacts`, { query: { page: view.page, status: view.status } }),
  );

/**
 * The page of contacts a campaign's page shows. The first page of all comes with the campaign's
 * read; any other is asked for, again whenever the campaign's figures move (its key holds
 * contactsVersion), the page before staying shown meanwhile. Under the campaign's detail key, so
 * the campaign's writes refresh it and its deletion drops it.
 */
export function useBatchContacts(batch: BatchCall, view: ContactsView) {
  const workspaceId = useWorkspaceId();
  const fromCampaign = pageFromCampaign(batch, view);
  const query = useQuery({
    queryKey: [...batchCallKeys.detail(workspaceId, batch.id), "contacts", view, contactsVersion(batch)],
    queryFn: () => fetchBatchContacts(batch.id, view),
    enabled: fromCampaign === null,
    placeholderData: keepPreviousData,
  });
  if (fromCampaign) return { data: fromCampaign, isPending: false, error: null };
  return { data: query.data, isPending: query.isPending, error: query.error };
}
