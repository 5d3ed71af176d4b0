import type { CallAnalysis, CallStatus } from "@parley/contract";
import { and, eq, gt, notInArray, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * The one definition of a call's counts, minutes and cost that Home, /billing, the call-log list and
 * analytics read (docs/analytics.md). It names no module's table: the predicates take the columns,
 * so the call logs, the meter's rows and the rollup apply the same rule to their own.
 *
 * - An *attempt* is a call that ended (its log is no longer queued or in progress).
 * - An attempt is *answered* — a call that counts and bills — once its caller connected: it ended
 *   with a duration. An attempt that never connected (refused, nobody joined, busy, no answer) is
 *   closed with 0 s (call-logs/service.ts) and is *unanswered*.
 * - Its *minutes* are its connected seconds / 60, not rounded; it counts on the day it started.
 * - Its *cost* is the call's priced usage (the log's `cost`, which includes post-call analysis once
 *   that is final; the meter's rows hold the same lines once metered).
 */

export const OPEN_STATUSES = ["queued", "in_progress"] as const satisfies readonly CallStatus[];

/** End reasons that mean something broke (a provider past its backups, the server), not a caller's choice. */
export const ERROR_END_REASONS: readonly string[] = [
  "error",
  "assistant_error",
  "transcriber_error",
  "voice_error",
  "tool_error",
  "tool_timeout",
  "server_crash",
];

export interface CallOutcome {
  status: CallStatus;
  durationSeconds: number;
}

export const isEnded = (call: Pick<CallOutcome, "status">) =>
  !(OPEN_STATUSES as readonly string[]).includes(call.status);

/** Whether an ended call counts (and bills): its caller connected. */
export const isAnswered = (call: CallOutcome) => isEnded(call) && call.durationSeconds > 0;

export const minutesOf = (seconds: number) => seconds / 60;

export const isErrorEnd = (endReason: string | null) => endReason !== null && ERROR_END_REASONS.includes(endReason);

/** A call's post-call verdict as a yes/no; null while there is none (not analysed yet, or no success criteria). */
export function passedOf(analysis: CallAnalysis | null | undefined): boolean | null {
  if (!analysis || analysis.status === "pending" || !analysis.success) return null;
  // The verdict's own yes/no, as the call-log list's success filter reads it.
  return analysis.success.passed;
}

/** SQL: the row is an ended call (an attempt). */
export const endedCall = (columns: { status: AnyPgColumn }): SQL =>
  notInArray(columns.status, [...OPEN_STATUSES]) as SQL;

/** SQL: the row is an answered call (counts and bills). */
export const answeredCall = (columns: { status: AnyPgColumn; durationSeconds: AnyPgColumn }): SQL =>
  and(endedCall(columns), gt(columns.durationSeconds, 0)) as SQL;

/**
 * SQL: a meter row (usage_records) of an answered call. A metered call has exactly one transcriber
 * row, so counting calls over those rows counts each call once.
 */
export const answeredMeterRow = (columns: { component: AnyPgColumn; callMinutes: AnyPgColumn }): SQL =>
  and(eq(columns.component, METER_CALL_COMPONENT), gt(columns.callMinutes, 0)) as SQL;

/** The one meter row each metered call has. */
export const METER_CALL_COMPONENT = "stt";
