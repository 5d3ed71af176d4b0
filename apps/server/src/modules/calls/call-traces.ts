import type { CallEvent } from "@parley/engine";

/** Who a live call is, for its trace's attributes. */
export interface TracedCall {
  callId: string;
  workspaceId: string;
  agentId: string;
  channel: string;
}

/** One live call's trace: its events become spans (turns, provider waits, tools, faults). */
export interface CallTrace {
  event(event: CallEvent): void;
  /** The call ended: `reason` as its log reports it, `status` completed or failed. */
  end(outcome: { reason: string; status: string; durationMs: number }): void;
}

/** Starts a trace per live call; the tracing module supplies one when traces are exported. */
export interface CallTraces {
  startCall(call: TracedCall): CallTrace;
}

const NO_TRACE: CallTrace = { event: () => undefined, end: () => undefined };

/** Tracing off (no OTLP endpoint set): calls cost nothing to trace. */
export const noCallTraces: CallTraces = { startCall: () => NO_TRACE };
