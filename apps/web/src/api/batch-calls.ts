import {
  BATCH_CALLS_PAGE_SIZE,
  BatchCall,
  BatchCallPage,
  type BatchCallStatus,
  type BatchCallsQuery,
  type BatchContactInput,
  type CreateBatchCallBody,
  CsvImportResponse,
  DoNotCallChangeResponse,
  DoNotCallPage,
  NumbersChangeResponse,
  type UpdateBatchCallBody,
} from "@parley/contract";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { ApiError, api } from "../lib/http-client.ts";

/** GET /batch-calls: any of the query's fields (the server fills the rest: page 1, 10 a page, updatedAt desc). */
export type BatchCallsFilter = Partial<z.output<typeof BatchCallsQuery>>;

/** The create body as sent: fields with a default may be left out (the server fills them). */
export type NewBatchCall = z.input<typeof CreateBatchCallBody>;

/** Statuses in which a campaign changes by itself: its page asks again every few seconds. */
export const LIVE_BATCH_STATUSES: readonly BatchCallStatus[] = ["scheduled", "pending", "running"];
export const BATCH_POLL_MS = 2500;

/** Batch call campaigns and the workspace's do-not-call list (spec §7 "Batch calls"). */
export const batchCallKeys = {
  all: (workspaceId: string) => [workspaceId, "batch-calls"] as const,
  lists: (workspaceId: string) => [workspaceId, "batch-calls", "list"] as const,
  list: (workspaceId: string, query: BatchCallsFilter) => [workspaceId, "batch-calls", "list", query] as const,
  detail: (workspaceId: string, id: string) => [workspaceId, "batch-calls", "detail", id] as const,
  doNotCall: (workspaceId: string) => [workspaceId, "do-not-call"] as const,
  doNotCallPage: (workspaceId: string, page: number, search: string) =>
    [workspaceId, "do-not-call", page, search] as const,
};

/** The query as the API reads it: a search of blanks is no search. */
const listQuery = (query: BatchCallsFilter) => ({
  is_archived: query.is_archived === true,
  page: query.page ?? 1,
  items_per_page: query.items_per_page ?? BATCH_CALLS_PAGE_SIZE,
  search: query.search?.trim() || undefined,
  status: query.status,
  type: query.type,
  sort_by: query.sort_by,
  sort_order: query.sort_order,
});

export const fetchBatchCalls = async (query: BatchCallsFilter) =>
  BatchCallPage.parse(await api.request("/batch-calls", { query: listQuery(query) }));
export const fetchBatchCall = async (id: string) => BatchCall.parse(await api.request(`/batch-calls/${id}`));
export const createBatchCall = async (body: NewBatchCall) =>
  BatchCall.parse(await api.request("/batch-calls", { method: "POST", body }));
export const updateBatchCall = async (id: string, body: UpdateBatchCallBody) =>
  BatchCall.parse(await api.request(`/batch-calls/${id}`, { method: "PUT", body }));
export const deleteBatchCall = (id: string) => api.request(`/batch-calls/${id}`, { method: "DELETE" });
export const initiateBatchCall = async (id: string) =>
  BatchCall.parse(await api.request("/initiate_batch_call", { method: "POST", query: { batch_call_id: id } }));
export const stopBatchCall = async (id: string) =>
  BatchCall.parse(await api.request(`/batch-calls/${id}/stop`, { method: "POST" }));
export const archiveBatchCall = async (id: string, archived = true) =>
  BatchCall.parse(await api.request(`/batch-calls/${id}/archive`, { method: "PUT", body: { is_archived: archived } }));
export const addBatchNumbers = async (id: string, phoneNumbers: BatchContactInput[], defaultCountry?: string | null) =>
  NumbersChangeResponse.parse(
    await api.request(`/batch-calls/${id}/add-numbers`, {
      method: "POST",
      body: { phone_numbers: phoneNumbers, default_country: defaultCountry ?? undefined },
    }),
  );
export const removeBatchNumbers = async (id: string, phoneNumbers: string[]) =>
  NumbersChangeResponse.parse(
    await api.request(`/batch-calls/${id}/remove-number`, { method: "DELETE", body: { phone_numbers: phoneNumbers } }),
  );

export interface CsvUpload {
  file: File;
  defaultCountry?: string | null;
  /** Only read the file and report what would be imported. */
  dryRun?: boolean;
}

/** The multipart form of a CSV upload: the file, and the text fields the server reads beside it. */
export function csvForm(file: File, fields: Record<string, string | null | undefined>): FormData {
  const form = new FormData();
  // Text fields first: the server reads the parts in order and may stop at the file.
  for (const [name, value] of Object.entries(fields)) if (value) form.append(name, value);
  form.append("file", file, file.name);
  return form;
}

export const importBatchCsv = async (id: string, upload: CsvUpload) =>
  CsvImportResponse.parse(
    await api.request(`/batch-calls/${id}/import-csv`, {
      method: "POST",
      body: csvForm(upload.file, {
        default_country: upload.defaultCountry,
        dry_run: upload.dryRun ? "true" : undefined,
      }),
    }),
  );

export const fetchDoNotCall = async (page: number, search: string) =>
  DoNotCallPage.parse(await api.request("/do-not-call", { query: { page, search: search.trim() || undefined } }));
export const addDoNotCall = async (phoneNumbers: string[], reason: string) =>
  DoNotCallChangeResponse.parse(
    await api.request("/do-not-call", { method: "POST", body: { phone_numbers: phoneNumbers, reason } }),
  );
export const removeDoNotCall = async (phoneNumbers: string[]) =>
  DoNotCallChangeResponse.parse(
    await api.request("/do-not-call", { method: "DELETE", body: { phone_numbers: phoneNumbers } }),
  );
export const importDoNotCallCsv = async (file: File, reason: string) =>
  DoNotCallChangeResponse.parse(
    await api.request("/do-not-call/import-csv", { method: "POST", body: csvForm(file, { reason }) }),
  );

/** One page of campaigns; the previous page stays shown while the next loads. */
export function useBatchCalls(query: BatchCallsFilter) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: batchCallKeys.list(workspaceId, query),
    queryFn: () => fetchBatchCalls(query),
    placeholderData: keepPreviousData,
    // A page with a live campaign shows its progress as it moves.
    refetchInterval: (q) =>
      q.state.data?.data.some((b) => LIVE_BATCH_STATUSES.includes(b.status)) ? BATCH_POLL_MS : false,
  });
}

/** One campaign with its contacts, asked again every 2.5 s while it may change by itself. */
export function useBatchCall(id: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: batchCallKeys.detail(workspaceId, id),
    queryFn: () => fetchBatchCall(id),
    refetchInterval: (q) => (q.state.data && LIVE_BATCH_STATUSES.includes(q.state.data.status) ? BATCH_POLL_MS : false),
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

/** A write changes the lists and the campaign's own page: both are read again. */
function useRefresh() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return (batch?: BatchCall) => {
    if (batch) queryClient.setQueryData(batchCallKeys.detail(workspaceId, batch.id), batch);
    return queryClient.invalidateQueries({ queryKey: batchCallKeys.all(workspaceId) });
  };
}

export function useCreateBatchCall() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: createBatchCall, onSuccess: (batch) => refresh(batch) });
}

export function useUpdateBatchCall() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { id: string; body: UpdateBatchCallBody }) => updateBatchCall(input.id, input.body),
    onSuccess: (batch) => refresh(batch),
  });
}

export function useDeleteBatchCall() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBatchCall,
    onSuccess: (_answer, id) => {
      // The detail page being left must not read the deleted campaign again.
      queryClient.removeQueries({ queryKey: batchCallKeys.detail(workspaceId, id) });
      return queryClient.invalidateQueries({ queryKey: batchCallKeys.lists(workspaceId) });
    },
  });
}

export function useInitiateBatchCall() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: initiateBatchCall, onSuccess: (batch) => refresh(batch) });
}

export function useStopBatchCall() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: stopBatchCall, onSuccess: (batch) => refresh(batch) });
}

export function useArchiveBatchCall() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { id: string; archived: boolean }) => archiveBatchCall(input.id, input.archived),
    onSuccess: (batch) => refresh(batch),
  });
}

export function useAddBatchNumbers() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { id: string; numbers: BatchContactInput[]; defaultCountry?: string | null }) =>
      addBatchNumbers(input.id, input.numbers, input.defaultCountry),
    onSuccess: () => refresh(),
  });
}

export function useImportBatchCsv() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (input: { id: string } & CsvUpload) => importBatchCsv(input.id, input),
    // A preview stores nothing.
    onSuccess: (result) => (result.dry_run ? undefined : refresh()),
  });
}

export function useDoNotCall(page: number, search: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: batchCallKeys.doNotCallPage(workspaceId, page, search.trim()),
    queryFn: () => fetchDoNotCall(page, search),
    placeholderData: keepPreviousData,
  });
}

/** Do-not-call writes refresh the list; campaigns mark their listed contacts when they next dial. */
function useDoNotCallWrite<I>(write: (input: I) => Promise<DoNotCallChangeResponse>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: batchCallKeys.doNotCall(workspaceId) }),
  });
}

export const useAddDoNotCall = () =>
  useDoNotCallWrite((input: { numbers: string[]; reason: string }) => addDoNotCall(input.numbers, input.reason));
export const useRemoveDoNotCall = () => useDoNotCallWrite(removeDoNotCall);
export const useImportDoNotCallCsv = () =>
  useDoNotCallWrite((input: { file: File; reason: string }) => importDoNotCallCsv(input.file, input.reason));
