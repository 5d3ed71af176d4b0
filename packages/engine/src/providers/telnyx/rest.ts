import { accountUrl } from "../../telephony/account.ts";
import { requireCredential } from "../../telephony/credentials.ts";
import { isRecord, objectField, stringField } from "../../telephony/form.ts";
import { telephonyJson } from "../../telephony/rest.ts";
import type { PlaceCallRequest, TelephonyAccount, VendorNumber, WebhookUrls } from "../../telephony/types.ts";

/** Telnyx API v2 (https://developers.telnyx.com/api): numbers, the TeXML application, calls. */

const ORIGIN = "https://api.telnyx.com";
const PAGE_SIZE = 250;
const MAX_PAGES = 40;

interface Call {
  url: string;
  method?: "GET" | "POST" | "PATCH";
  json?: unknown;
}

function send(account: TelephonyAccount, call: Call): Promise<unknown> {
  const key = requireCredential("telnyx", account, "api_key");
  return telephonyJson({
    provider: "telnyx",
    url: accountUrl(account, `${ORIGIN}${call.url}`),
    method: call.method,
    headers: { authorization: `Bearer ${key}` },
    json: call.json,
    net: account.net,
  });
}

const applicationId = (account: TelephonyAccount) => requireCredential("telnyx", account, "application_id");

/** GET /v2/phone_numbers, page by page until `meta.total_pages`. */
export async function listNumbers(account: TelephonyAccount): Promise<VendorNumber[]> {
  const numbers: VendorNumber[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = `page%5Bnumber%5D=${page}&page%5Bsize%5D=${PAGE_SIZE}`;
    const body = await send(account, { url: `/v2/phone_numbers?${query}` });
    if (!isRecord(body)) break;
    const rows = Array.isArray(body.data) ? body.data : [];
    for (const row of rows) {
      if (!isRecord(row)) continue;
      const number = stringField(row, "phone_number");
      if (!number) continue;
      numbers.push({
        number,
        providerNumberId: stringField(row, "id") || number,
        friendlyName: stringField(row, "connection_name") || number,
        country: stringField(row, "country_iso_alpha2") || null,
      });
    }
    const totalPages = Number(objectField(body, "meta").total_pages);
    if (rows.length === 0 || !Number.isFinite(totalPages) || page >= totalPages) break;
  }
  return numbers;
}

/**
 * Points the account's TeXML application at Parley (voice URL and status callback, both POST) and
 * assigns the number to it. The application's name is read first because the update requires it.
 */
export async function configureNumber(account: TelephonyAccount, number: VendorNumber, urls: WebhookUrls) {
  const appId = applicationId(account);
  const app = await send(account, { url: `/v2/texml_applications/${encodeURIComponent(appId)}` });
  const friendlyName = isRecord(app) ? stringField(objectField(app, "data"), "friendly_name") : "";
  await send(account, {
    url: `/v2/texml_applications/${encodeURIComponent(appId)}`,
    method: "PATCH",
    json: {
      friendly_name: friendlyName || "Parley",
      voice_url: urls.voiceUrl,
      voice_method: "post",
      status_callback: urls.statusUrl,
      status_callback_method: "post",
    },
  });
  await send(account, {
    url: `/v2/phone_numbers/${encodeURIComponent(number.providerNumberId)}`,
    method: "PATCH",
    json: { connection_id: appId },
  });
}

/** POST /v2/texml/calls/{application_id}: Telnyx fetches `Url` (TeXML) once the callee answers. */
export async function placeCall(account: TelephonyAccount, request: PlaceCallRequest): Promise<string> {
  const body = await send(account, {
    url: `/v2/texml/calls/${encodeURIComponent(applicationId(account))}`,
    json: {
      From: request.from,
      To: request.to,
      Url: request.urls.voiceUrl,
      UrlMethod: "POST",
      StatusCallback: request.urls.statusUrl,
      StatusCallbackMethod: "POST",
      StatusCallbackEvent: "initiated ringing answered completed",
      ...(request.machineDetection ? { MachineDetection: "Enable" } : {}),
    },
  });
  if (!isRecord(body)) return "";
  const data = objectField(body, "data");
  return stringField(body, "call_sid") || stringField(data, "call_sid") || stringField(data, "call_control_id");
}

/** POST /v2/calls/{call_control_id}/actions/{action}: Call Control on a live (TeXML) call. */
export async function callAction(account: TelephonyAccount, callId: string, action: string, json: unknown) {
  await send(account, { url: `/v2/calls/${encodeURIComponent(callId)}/actions/${action}`, json });
}
