import { isRecord, parseJsonObject, stringField } from "../../telephony/form.ts";
import type { IncomingCall, StatusUpdate, TelephonyCallStatus, WebhookRequest } from "../../telephony/types.ts";

/**
 * Vonage's answer and event webhooks: JSON bodies when the application asks for POST (as Parley
 * configures it), query parameters on GET. Numbers come without `+`. Only what the signature's
 * payload_hash covers is read: a POST's body (never its query), a GET's query.
 */

function fields(request: WebhookRequest): Record<string, unknown> {
  if (request.method === "GET") return Object.fromEntries(new URL(request.url).searchParams);
  return request.rawBody.trim() ? parseJsonObject(request.rawBody) : {};
}

function e164(address: string): string {
  return /^\d{6,15}$/.test(address) ? `+${address}` : address;
}

export function parseIncomingCall(request: WebhookRequest): IncomingCall {
  const body = fields(request);
  // Calls Parley places carry `direction=outbound` on their answer URL (see rest.ts). On a POST the
  // query is outside the signature: it only says where to look, the server finds the call by uuid.
  const direction = stringField(body, "direction") || (new URL(request.url).searchParams.get("direction") ?? "");
  return {
    providerCallId: stringField(body, "uuid"),
    from: e164(stringField(body, "from")),
    to: e164(stringField(body, "to")),
    direction: direction === "outbound" ? "outbound" : "inbound",
  };
}

const STATUSES: Record<string, TelephonyCallStatus> = {
  started: "queued",
  ringing: "ringing",
  answered: "in-progress",
  completed: "completed",
  busy: "busy",
  cancelled: "canceled",
  failed: "failed",
  rejected: "failed",
  timeout: "no-answer",
  unanswered: "no-answer",
};

export function parseStatus(request: WebhookRequest): StatusUpdate | null {
  const body = fields(request);
  const providerCallId = stringField(body, "uuid");
  const status = stringField(body, "status");
  if (!providerCallId) return null;
  // Machine detection reports `human` or `machine` as a status of its own.
  if (status === "human" || status === "machine") return { providerCallId, status: "in-progress", answeredBy: status };
  const normalised = STATUSES[status];
  if (!normalised) return null;
  const duration = Number(stringField(body, "duration"));
  return {
    providerCallId,
    status: normalised,
    durationSeconds:
      isRecord(body) && stringField(body, "duration") && Number.isFinite(duration) ? duration : undefined,
  };
}
