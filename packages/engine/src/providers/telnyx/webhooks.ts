import { incomingCallOf, statusUpdateOf } from "../../telephony/call-progress.ts";
import { isRecord, objectField, parseJsonObject, stringField } from "../../telephony/form.ts";
import type { IncomingCall, StatusUpdate, TelephonyCallStatus, WebhookRequest } from "../../telephony/types.ts";
import { webhookFields } from "../../telephony/webhook-fields.ts";

/**
 * Telnyx call webhooks in either dialect: TeXML's Twilio-style fields (CallSid, From, To,
 * CallStatus, CallDuration, AnsweredBy), or Call Control's JSON events
 * (`{"data":{"event_type":"call.hangup","payload":{"call_control_id":…}}}`).
 */

interface CallControlEvent {
  type: string;
  payload: Record<string, unknown>;
}

function callControlEvent(rawBody: string): CallControlEvent | null {
  const data = objectField(parseJsonObject(rawBody), "data");
  const type = stringField(data, "event_type");
  return type && isRecord(data.payload) ? { type, payload: data.payload } : null;
}

export function parseIncomingCall(request: WebhookRequest): IncomingCall {
  const event = callControlEvent(request.rawBody);
  if (event) {
    return {
      providerCallId: stringField(event.payload, "call_control_id"),
      from: stringField(event.payload, "from"),
      to: stringField(event.payload, "to"),
      direction: stringField(event.payload, "direction") === "outgoing" ? "outbound" : "inbound",
    };
  }
  return incomingCallOf(webhookFields(request.rawBody));
}

function answeredBy(value: string | undefined): StatusUpdate["answeredBy"] {
  if (!value) return undefined;
  if (value === "human" || value === "human_residence" || value === "human_business") return "human";
  if (value.startsWith("machine") || value === "fax") return "machine";
  return "unknown";
}

/** `call.hangup`'s hangup_cause, as the status the call ended with. */
function hangupStatus(cause: string): TelephonyCallStatus {
  if (cause === "user_busy") return "busy";
  if (cause === "timeout" || cause === "no_answer") return "no-answer";
  if (cause === "originator_cancel") return "canceled";
  if (cause === "call_rejected" || cause === "unallocated_number") return "failed";
  return "completed";
}

function callControlStatus(event: CallControlEvent): StatusUpdate | null {
  const providerCallId = stringField(event.payload, "call_control_id");
  switch (event.type) {
    case "call.initiated":
      return { providerCallId, status: "queued" };
    case "call.answered":
      return { providerCallId, status: "in-progress" };
    case "call.hangup":
      return { providerCallId, status: hangupStatus(stringField(event.payload, "hangup_cause")) };
    case "call.machine.detection.ended":
      return { providerCallId, status: "in-progress", answeredBy: answeredBy(stringField(event.payload, "result")) };
    default:
      return null;
  }
}

export function parseStatus(request: WebhookRequest): StatusUpdate | null {
  const event = callControlEvent(request.rawBody);
  if (event) return callControlStatus(event);
  return statusUpdateOf(webhookFields(request.rawBody), answeredBy);
}
