import { api } from "../../lib/http-client.ts";
import type { CallStartDeps } from "./start-call.ts";

/** The server calls behind a live call (spec §7). */
export const callApi: Omit<CallStartDeps, "openMicrophone"> = {
  startCall: (assistantId) => api.request(`/agents/${assistantId}/call`, { method: "POST" }),
  roomToken: (roomName, identity, name) =>
    api.request("/agents/room/generate_room_token", {
      query: { room_name: roomName, user_identity: identity, name },
    }),
};

/** Absolute ws(s) URL of the realtime endpoint with the room token. */
export function realtimeUrl(path: string, token: string, location: Location = window.location): string {
  const url = new URL(path, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  url.searchParams.set("token", token);
  return url.toString();
}
