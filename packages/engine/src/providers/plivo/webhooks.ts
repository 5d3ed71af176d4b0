import { parseForm } from "../../telephony/form.ts";
import type { IncomingCall, StatusUpdate, TelephonyCallStatus, WebhookRequest } from "../../telephony/types.ts";

/**
 * Plivo's form-encoded callbacks (answer, ring, hangup, machine detection): CallUUID, From, To,
 * Direction, CallStatus, Duration, Machine, and on calls placed through the API the id the call
 * request returned (before the call had its CallUUID). Plivo documents that id for the answer URL
 * as ALegRequestUUID (https://www.plivo.com/docs/voice/xml/request/); its ring and hangup
 * callbacks also carry it as RequestUUID. Either names the call.
 */

/** Plivo sends numbers without `+`; Parley keeps E.164. */
function e164(address: string | undefined): string {
  if (!address) return "";
  return /^\d{6,15}$/.test(address) ? `+${address}` : address;
}

/** The request id of a call Parley placed (outbound only: an inbound call was never requested). */
function placedCallId(form: Record<string, string>): string | undefined {
  if (form.Direction !== "outbound") return undefined;
  return form.RequestUUID || form.ALegRequestUUID || undefined;
}

export function parseIncomingCall(request: WebhookRequest): IncomingCall {
  const form = parseForm(request.rawBody);
  return {
    providerCallId: form.CallUUID ?? "",
    from: e164(form.From),
    to: e164(form.To),
    direction: form.Direction === "outbound" ? "outbound" : "inbound",
    placedCallId: placedCallId(form),
  };
}

const STATUSES: Record<string, TelephonyCallStatus> = {
  queued: "queued",
  ringing: "ringing",
  "in-progress": "in-progress",
  completed: "completed",
  busy: "busy",
  "no-answer": "no-answer",
  timeout: "no-answer",
  failed: "failed",
  cancel: "canceled",
  canceled: "canceled",
};

export function parseStatus(request: WebhookRequest): StatusUpdate | null {
  const form = parseForm(request.rawBody);
  const providerCallId = form.CallUUID ?? "";
  const placed = placedCallId(form);
  // The machine detection callback carries `Machine` (with or without a status of its own).
  const answeredBy = form.Machine === undefined ? undefined : form.Machine === "true" ? "machine" : "human";
  if (answeredBy && !STATUSES[form.CallStatus ?? ""]) {
    return providerCallId ? { providerCallId, status: "in-progress", answeredBy, placedCallId: placed } : null;
  }
  const status = STATUSES[form.CallStatus ?? ""];
  if (!providerCallId || !status) return null;
  const duration = Number(form.Duration);
  return {
    providerCallId,
    status,
    durationSeconds: form.Duration && Number.isFinite(duration) ? duration : undefined,
    answeredBy,
    placedCallId: placed,
  };
}
