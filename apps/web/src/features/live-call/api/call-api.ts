import { RoomTokenResponse, StartCallResponse } from "@parley/contract";
import { api } from "../../../lib/http-client.ts";
import type { CallStartDeps } from "../utils/start-call.ts";

/**
 * Spec §5 names what a start or token answer lacks ("No room information…", "Access token not
 * found…"), so the answers are read leniently: missing fields, or an answer that is no object, are
 * left for prepareCall to report with those messages.
 */
const StartedCall = StartCallResponse.partial();
const RoomToken = RoomTokenResponse.partial();

/** The server calls behind a live call (spec §7). */
export const callApi: Omit<CallStartDeps, "openMicrophone"> = {
  startCall: async (assistantId) =>
    StartedCall.safeParse(await api.request(`/agents/${assistantId}/call`, { method: "POST" })).data,
  roomToken: async (roomName, identity, name) =>
    RoomToken.safeParse(
      await api.request("/agents/room/generate_room_token", {
        query: { room_name: roomName, user_identity: identity, name },
      }),
    ).data,
};

/** Where a squad's test call starts (issue 31): the squad, and the member (its first when left out). */
export interface SquadStart {
  id: string;
  member?: string;
}

/** The start of a squad's browser test call; the rest (token, socket) is an assistant call's. */
export const squadStart =
  (squad: SquadStart): CallStartDeps["startCall"] =>
  async () =>
    StartedCall.safeParse(
      await api.request(`/squads/${squad.id}/call`, {
        method: "POST",
        body: squad.member ? { member: squad.member } : {},
      }),
    ).data;

/** Absolute ws(s) URL of the realtime endpoint with the room token. */
export function realtimeUrl(path: string, token: string, location: Location = window.location): string {
  const url = new URL(path, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("token", token);
  return url.toString();
}
