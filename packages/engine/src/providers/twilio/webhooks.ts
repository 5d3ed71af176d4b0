import { parseForm } from "../../telephony/form.ts";
import type { IncomingCall, StatusUpdate, TelephonyCallStatus, WebhookRequest } from "../../telephony/types.ts";

/** Twilio's form-encoded voice and status callbacks (https://www.twilio.com/docs/voice/twiml#request-parameters). */

export function parseIncomingCall(request: WebhookRequest): IncomingCall {
  const form = parseForm(request.rawBody);
  return {
    providerCallId: form.CallSid ?? "",
    from: form.From ?? "",
    to: form.To ?? "",
    // `outbound-api` is a call Parley placed; `outbound-dial` a leg of a <Dial>.
    direction: form.Direction?.startsWith("outbound") ? "outbound" : "inbound",
  };
}

/** Twilio's call status words (callbacks and the Calls resource), normalised. */
export const STATUSES: Record<string, TelephonyCallStatus> = {
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

/** `AnsweredBy`: `human`, `machine_start`, `machine_end_beep|silence|other`, `fax`, `unknown`. */
function answeredBy(value: string | undefined): StatusUpdate["answeredBy"] {
  if (!value) return undefined;
  if (value === "human") return "human";
  if (value.startsWith("machine") || value === "fax") return "machine";
  return "unknown";
}

export function parseStatus(request: WebhookRequest): StatusUpdate | null {
  const form = parseForm(request.rawBody);
  const status = STATUSES[form.CallStatus ?? ""];
  if (!form.CallSid || !status) return null;
  const duration = Number(form.CallDuration);
  return {
    providerCallId: form.CallSid,
    status,
    durationSeconds: form.CallDuration && Number.isFinite(duration) ? duration : undefined,
    answeredBy: answeredBy(form.AnsweredBy),
  };
}
