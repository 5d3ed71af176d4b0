import type { ServerEvents } from "../../lib/server-events.ts";

/** A squad's member handed the call to another (issue 31): webhooks send it as `call.handoff`. */
export interface CallHandoffEvent {
  workspaceId: string;
  callId: string;
  /** The assistant that took the call over. */
  agentId: string;
  from: string;
  to: string;
  reason: string;
  atMs: number;
}

// The event joins the server's map from here until lib/server-events.ts lists it itself.
declare module "../../lib/server-events.ts" {
  interface ServerEventMap {
    "call.handoff": CallHandoffEvent;
  }
}

/** Announces a hand-off once the next assistant has taken over. */
export function announceHandoff(events: ServerEvents, event: CallHandoffEvent): void {
  events.emit("call.handoff", event);
}
