import type { IncomingCall, StatusUpdate, TelephonyCallStatus } from "./types.ts";

/**
 * The call fields of the form-encoded markup dialects' voice requests and status callbacks
 * (CallSid, From, To, Direction, CallStatus, CallDuration, AnsweredBy): one vendor's dialect and the
 * other that copies it field for field read them the same way.
 */

/** The dialects' call status words (callbacks and the Calls resource), normalised. */
export const CALL_PROGRESS_STATUSES: Record<string, TelephonyCallStatus> = {
  queued: "queued",
  initiated: "queued",
  ringing: "ringing",
  "in-progress": "in-progress",
  answered: "in-progress",
  completed: "completed",
  busy: "busy",
  "no-answer": "no-answer",
  failed: "failed",
  canceled: "canceled",
};

/** The call a voice request announces. */
export function incomingCallOf(fields: Record<string, string | undefined>): IncomingCall {
  return {
    providerCallId: fields.CallSid ?? "",
    from: fields.From ?? "",
    to: fields.To ?? "",
    // `outbound-api` is a call Parley placed; `outbound-dial` a leg of a <Dial>.
    direction: fields.Direction?.startsWith("outbound") ? "outbound" : "inbound",
  };
}

/** A status callback as an update; null for a status word Parley does not track. */
export function statusUpdateOf(
  fields: Record<string, string | undefined>,
  answeredBy: (value: string | undefined) => StatusUpdate["answeredBy"],
): StatusUpdate | null {
  const status = CALL_PROGRESS_STATUSES[fields.CallStatus ?? ""];
  if (!fields.CallSid || !status) return null;
  const duration = Number(fields.CallDuration);
  return {
    providerCallId: fields.CallSid,
    status,
    durationSeconds: fields.CallDuration && Number.isFinite(duration) ? duration : undefined,
    answeredBy: answeredBy(fields.AnsweredBy),
  };
}
