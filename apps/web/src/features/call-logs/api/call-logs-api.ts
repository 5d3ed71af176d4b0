import { CallLog, CallLogPage, WorkspaceRoomsResponse } from "@parley/contract";
import { keepPreviousData, useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { useRefresh, useWorkspaceQuery } from "../../../lib/workspace-query.ts";

/** GET /call-logs query parameters (contract CallLogsQuery, already coerced). */
export type CallLogsFilter = Record<string, string | number | undefined>;

/** The workspace's call logs and live rooms. */
export const callLogKeys = {
  lists: (workspaceId: string) => [workspaceId, "call-logs", "list"] as const,
  list: (workspaceId: string, filters: CallLogsFilter) => [workspaceId, "call-logs", "list", filters] as const,
  detail: (workspaceId: string, id: string) => [workspaceId, "call-logs", "detail", id] as const,
  rooms: (workspaceId: string) => [workspaceId, "call-logs", "rooms"] as const,
};

export const useCallLogs = (filters: CallLogsFilter) =>
  useWorkspaceQuery(
    (workspaceId) => callLogKeys.list(workspaceId, filters),
    async () => CallLogPage.parse(await api.request("/call-logs", { query: { ...filters } })),
    { placeholderData: keepPreviousData },
  );

/** One call log; nothing is asked while no call is open (`id` null). */
export const useCallLog = (id: string | null) =>
  useWorkspaceQuery(
    (workspaceId) => callLogKeys.detail(workspaceId, id ?? ""),
    async () => CallLog.parse(await api.request(`/call-logs/${id}`)),
    {
      enabled: Boolean(id),
      // A just-ended call's analysis runs in the background: read it again until it is final.
      refetchInterval: (query) => (query.state.data?.analysis?.status === "pending" ? 3000 : false),
    },
  );

export function useDeleteCallLog() {
  const refresh = useRefresh(callLogKeys.lists);
  return useMutation({
    mutationFn: (id: string) => api.request(`/call-logs/${id}`, { method: "DELETE" }),
    onSuccess: refresh,
  });
}

/** The recording as an object URL for an <audio> element (the request needs the bearer token). */
export async function fetchRecordingUrl(id: string): Promise<string> {
  const response = await api.send(`/call-logs/${id}/recording`);
  return URL.createObjectURL(await response.blob());
}

/** Live rooms, polled while the page is open (spec §7: no-cache). */
export const useWorkspaceRooms = () =>
  useWorkspaceQuery(
    callLogKeys.rooms,
    async () => WorkspaceRoomsResponse.parse(await api.request("/agents/room/workspace_rooms")),
    { refetchInterval: 3000 },
  );

/** Whether or not the removal worked, the rooms are read again: the participant may have left anyway. */
export function useRemoveParticipant() {
  const refresh = useRefresh(callLogKeys.rooms);
  return useMutation({
    mutationFn: ({ room, identity }: { room: string; identity: string }) =>
      api.request(`/agents/room/${encodeURIComponent(room)}/remove_participant`, {
        method: "POST",
        query: { participant_identity: identity },
      }),
    onSettled: refresh,
  });
}
