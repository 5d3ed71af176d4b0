import { incomingCallOf, statusUpdateOf } from "../../telephony/call-progress.ts";
import { parseForm } from "../../telephony/form.ts";
import type { IncomingCall, StatusUpdate, WebhookRequest } from "../../telephony/types.ts";

/** Twilio's form-encoded voice and status callbacks (https://www.twilio.com/docs/voice/twiml#request-parameters). */

export function parseIncomingCall(request: WebhookRequest): IncomingCall {
  return incomingCallOf(parseForm(request.rawBody));
}

/** `AnsweredBy`: `human`, `machine_start`, `machine_end_beep|silence|other`, `fax`, `unknown`. */
function answeredBy(value: string | undefined): StatusUpdate["answeredBy"] {
  if (!value) return undefined;
  if (value === "human") return "human";
  if (value.startsWith("machine") || value === "fax") return "machine";
  return "unknown";
}

export function parseStatus(request: WebhookRequest): StatusUpdate | null {
  return statusUpdateOf(parseForm(request.rawBody), answeredBy);
}
