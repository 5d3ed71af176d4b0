import { accountUrl } from "../../telephony/account.ts";
import { requireCredential } from "../../telephony/credentials.ts";
import { isRecord, objectField, stringField } from "../../telephony/form.ts";
import { telephonyJson } from "../../telephony/rest.ts";
import type { PlaceCallRequest, TelephonyAccount, VendorNumber, WebhookUrls } from "../../telephony/types.ts";
import { basicAuth } from "../shared/basic-auth.ts";
import { plivoAddress } from "./markup.ts";

/** Plivo's REST API v1 (https://www.plivo.com/docs/voice/api/). */

const ORIGIN = "https://api.plivo.com";
/** Plivo's largest page. */
const PAGE_SIZE = 20;
const MAX_PAGES = 100;
/** The application Parley points numbers at (found by name, so imports reuse it). */
export const APPLICATION_NAME = "Parley";

interface Call {
  path: string;
  method?: "GET" | "POST" | "DELETE";
  json?: unknown;
}

function send(account: TelephonyAccount, call: Call): Promise<unknown> {
  const id = requireCredential("plivo", account, "auth_id");
  const token = requireCredential("plivo", account, "auth_token");
  return telephonyJson({
    provider: "plivo",
    url: accountUrl(account, `${ORIGIN}/v1/Account/${encodeURIComponent(id)}${call.path}`),
    method: call.method,
    headers: { authorization: basicAuth(id, token) },
    json: call.json,
    net: account.net,
  });
}

const objects = (body: unknown) => (isRecord(body) && Array.isArray(body.objects) ? body.objects.filter(isRecord) : []);

/** GET Number/ with limit and offset until `meta.total_count`. */
export async function listNumbers(account: TelephonyAccount): Promise<VendorNumber[]> {
  const numbers: VendorNumber[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = await send(account, { path: `/Number/?limit=${PAGE_SIZE}&offset=${page * PAGE_SIZE}` });
    const rows = objects(body);
    for (const row of rows) {
      const digits = stringField(row, "number");
      if (!digits) continue;
      const country = stringField(row, "country_iso2") || stringField(row, "country_iso");
      numbers.push({
        number: digits.startsWith("+") ? digits : `+${digits}`,
        providerNumberId: digits.replace(/^\+/, ""),
        friendlyName: stringField(row, "alias") || `+${digits.replace(/^\+/, "")}`,
        country: /^[A-Z]{2}$/.test(country) ? country : null,
      });
    }
    const total = Number(isRecord(body) ? objectField(body, "meta").total_count : Number.NaN);
    if (rows.length < PAGE_SIZE || !Number.isFinite(total) || (page + 1) * PAGE_SIZE >= total) break;
  }
  return numbers;
}

/** The id of the account's Parley application with its answer and hangup URLs set, created if missing. */
async function parleyApplication(account: TelephonyAccount, urls: WebhookUrls): Promise<string> {
  const settings = {
    answer_url: urls.voiceUrl,
    answer_method: "POST",
    hangup_url: urls.statusUrl,
    hangup_method: "POST",
  };
  const found = objects(await send(account, { path: `/Application/?limit=${PAGE_SIZE}&offset=0` })).find(
    (app) => stringField(app, "app_name") === APPLICATION_NAME,
  );
  const existing = found ? stringField(found, "app_id") : "";
  if (existing) {
    await send(account, { path: `/Application/${encodeURIComponent(existing)}/`, json: settings });
    return existing;
  }
  const created = await send(account, { path: "/Application/", json: { app_name: APPLICATION_NAME, ...settings } });
  return isRecord(created) ? stringField(created, "app_id") : "";
}

/** Links the number to the Parley application (answer URL = voice webhook, hangup URL = status). */
export async function configureNumber(account: TelephonyAccount, number: VendorNumber, urls: WebhookUrls) {
  const appId = await parleyApplication(account, urls);
  await send(account, { path: `/Number/${encodeURIComponent(number.providerNumberId)}/`, json: { app_id: appId } });
}

/**
 * POST Call/: Plivo fetches answer_url once the callee answers. Returns the request_uuid (the
 * call's webhooks carry it as RequestUUID next to the CallUUID they name the call by).
 */
export async function placeCall(account: TelephonyAccount, request: PlaceCallRequest): Promise<string> {
  const body = await send(account, {
    path: "/Call/",
    json: {
      from: plivoAddress(request.from),
      to: plivoAddress(request.to),
      answer_url: request.urls.voiceUrl,
      answer_method: "POST",
      ring_url: request.urls.statusUrl,
      ring_method: "POST",
      hangup_url: request.urls.statusUrl,
      hangup_method: "POST",
      ...(request.machineDetection
        ? { machine_detection: "true", machine_detection_url: request.urls.statusUrl, machine_detection_method: "POST" }
        : {}),
    },
  });
  if (!isRecord(body)) return "";
  const uuid = body.request_uuid;
  return typeof uuid === "string" ? uuid : Array.isArray(uuid) && typeof uuid[0] === "string" ? uuid[0] : "";
}

/** Live call: transfer (POST Call/{uuid}/), DTMF (POST Call/{uuid}/DTMF/), hangup (DELETE Call/{uuid}/). */
export function callRequest(account: TelephonyAccount, callUuid: string, call: Omit<Call, "path"> & { sub?: string }) {
  return send(account, {
    path: `/Call/${encodeURIComponent(callUuid)}/${call.sub ?? ""}`,
    method: call.method,
    json: call.json,
  });
}
