import type { CallEvent } from "@parley/engine";

/** Who a live call is, for its trace's attributes (the calls module's TracedCall). */
export interface CallIdentity {
  callId: string;
  workspaceId: string;
  agentId: string;
  channel: string;
}

/** One call's trace as the calls module drives it (its CallTrace port, implemented here). */
export interface CallSpans {
  event(event: CallEvent): void;
  end(outcome: { reason: string; status: string; durationMs: number }): void;
}

/** One attempt of a background job. */
export interface JobAttempt {
  queue: string;
  id: string;
  attempt: number;
  maxAttempts: number;
  payload: Record<string, unknown>;
}

/** How an attempt ended: finished, asked to run again later, failed and will retry, failed for good. */
export type JobOutcome = { outcome: "done" | "again" } | { outcome: "retry" | "failed"; error: string };

export interface JobSpan {
  end(outcome: JobOutcome): void;
}

/** The app's tracing: spans per call and per job, exported over OTLP when an endpoint is set. */
export interface Tracing {
  /** True when spans leave the process (an OTLP endpoint is set). */
  readonly exporting: boolean;
  /** A trace per live call (the calls module's CallTraces). */
  readonly calls: { startCall(call: CallIdentity): CallSpans };
  readonly jobs: { startJob(job: JobAttempt): JobSpan };
  /** Sends the spans still buffered. */
  flush(): Promise<void>;
  /** Sends the spans still buffered and stops exporting (the app is closing). */
  shutdown(): Promise<void>;
}
