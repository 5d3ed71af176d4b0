import type { CallLog, CallLogPage, WorkspaceRoomsResponse } from "@parley/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";

/** GET /call-logs query parameters (contract CallLogsQuery, already coerced). */
export type CallLogsFilter = Record<string, string | number | undefined>;

/** Every query this feature owns starts with "call-logs". */
export const callLogKeys = {
  all: ["call-logs"] as const,
  list: (filters: CallLogsFilter) => ["call-logs", "list", filters] as const,
  detail: (id: string) => ["call-logs", "detail", id] as const,
  rooms: () => ["call-logs", "rooms"] as const,
};

export const callLogsQuery = (filters: CallLogsFilter) =>
  queryOptions({
    queryKey: callLogKeys.list(filters),
    queryFn: () => api.request<CallLogPage>("/call-logs", { query: { ...filters } }),
    placeholderData: keepPreviousData,
  });

export const callLogQuery = (id: string) =>
  queryOptions({ queryKey: callLogKeys.detail(id), queryFn: () => api.request<CallLog>(`/call-logs/${id}`) });

export const deleteCallLog = (id: string) => api.request(`/call-logs/${id}`, { method: "DELETE" });

/** The recording as an object URL for an <audio> element (the request needs the bearer token). */
export async function fetchRecordingUrl(id: string): Promise<string> {
  const response = await api.send(`/call-logs/${id}/recording`);
  return URL.createObjectURL(await response.blob());
}

/** Live rooms, polled while the page is open (spec §7: no-cache). */
export const workspaceRoomsQuery = () =>
  queryOptions({
    queryKey: callLogKeys.rooms(),
    queryFn: () => api.request<WorkspaceRoomsResponse>("/agents/room/workspace_rooms"),
    refetchInterval: 3000,
  });

export const removeParticipant = (room: string, identity: string) =>
  api.request(`/agents/room/${encodeURIComponent(room)}/remove_participant`, {
    method: "POST",
    query: { participant_identity: identity },
  });
