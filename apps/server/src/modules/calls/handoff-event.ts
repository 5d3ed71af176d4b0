import type { ServerEventMap, ServerEvents } from "../../lib/server-events.ts";

/** A squad's member handed the call to another (issue 31): webhooks send it as `call.handoff`. */
export type CallHandoffEvent = ServerEventMap["call.handoff"];

/** Announces a hand-off once the next assistant has taken over. */
export function announceHandoff(events: ServerEvents, event: CallHandoffEvent): void {
  events.emit("call.handoff", event);
}
