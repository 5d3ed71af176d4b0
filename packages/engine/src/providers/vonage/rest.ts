import { accountUrl } from "../../telephony/account.ts";
import { requireCredential } from "../../telephony/credentials.ts";
import { encodeForm, isRecord, objectField, stringField } from "../../telephony/form.ts";
import { telephonyJson } from "../../telephony/rest.ts";
import {
  type PlaceCallRequest,
  type TelephonyAccount,
  TelephonyError,
  type VendorNumber,
  type WebhookUrls,
} from "../../telephony/types.ts";
import { basicAuth } from "../shared/basic-auth.ts";
import { applicationToken } from "./jwt.ts";
import { vonageNumber } from "./markup.ts";

/**
 * Vonage's APIs: numbers on rest.nexmo.com (key and secret as parameters), applications on
 * api.nexmo.com/v2 (basic auth), calls on api.nexmo.com/v1 (the application's JWT).
 */

const REST = "https://rest.nexmo.com";
const API = "https://api.nexmo.com";
const PAGE_SIZE = 100;
const MAX_PAGES = 50;

const key = (account: TelephonyAccount) => requireCredential("vonage", account, "api_key");
const secret = (account: TelephonyAccount) => requireCredential("vonage", account, "api_secret");
const applicationId = (account: TelephonyAccount) => requireCredential("vonage", account, "application_id");

function keyQuery(account: TelephonyAccount, extra: Record<string, string> = {}): string {
  return new URLSearchParams({ api_key: key(account), api_secret: secret(account), ...extra }).toString();
}

/** GET /account/numbers, 100 a page (index from 1) until `count`. */
export async function listNumbers(account: TelephonyAccount): Promise<VendorNumber[]> {
  const numbers: VendorNumber[] = [];
  for (let index = 1; index <= MAX_PAGES; index++) {
    const query = keyQuery(account, { size: String(PAGE_SIZE), index: String(index) });
    const body = await telephonyJson({
      provider: "vonage",
      url: accountUrl(account, `${REST}/account/numbers?${query}`),
      net: account.net,
    });
    const rows = isRecord(body) && Array.isArray(body.numbers) ? body.numbers.filter(isRecord) : [];
    for (const row of rows) {
      const msisdn = stringField(row, "msisdn");
      if (!msisdn) continue;
      const country = stringField(row, "country");
      numbers.push({
        number: `+${msisdn}`,
        providerNumberId: msisdn,
        friendlyName: `+${msisdn}`,
        country: /^[A-Z]{2}$/.test(country) ? country : null,
      });
    }
    const count = Number(isRecord(body) ? body.count : Number.NaN);
    if (rows.length < PAGE_SIZE || !Number.isFinite(count) || index * PAGE_SIZE >= count) break;
  }
  return numbers;
}

/** Points the application's voice webhooks at Parley (signed callbacks on), keeping its other settings. */
async function configureApplication(account: TelephonyAccount, urls: WebhookUrls) {
  const url = accountUrl(account, `${API}/v2/applications/${encodeURIComponent(applicationId(account))}`);
  const headers = { authorization: basicAuth(key(account), secret(account)) };
  const app = await telephonyJson({ provider: "vonage", url, headers, net: account.net });
  const current = isRecord(app) ? app : {};
  const capabilities = objectField(current, "capabilities");
  const voice = objectField(capabilities, "voice");
  await telephonyJson({
    provider: "vonage",
    url,
    method: "PUT",
    headers,
    json: {
      name: stringField(current, "name") || "Parley",
      capabilities: {
        ...capabilities,
        voice: {
          ...voice,
          webhooks: {
            ...objectField(voice, "webhooks"),
            answer_url: { address: urls.voiceUrl, http_method: "POST" },
            event_url: { address: urls.statusUrl, http_method: "POST" },
          },
          signed_callbacks: true,
        },
      },
    },
    net: account.net,
  });
}

/** Sets the application's webhooks, then links the number to the application (POST /number/update). */
export async function configureNumber(account: TelephonyAccount, number: VendorNumber, urls: WebhookUrls) {
  await configureApplication(account, urls);
  await telephonyJson({
    provider: "vonage",
    url: accountUrl(account, `${REST}/number/update?${keyQuery(account)}`),
    form: encodeForm({
      country: number.country ?? undefined,
      msisdn: number.providerNumberId,
      app_id: applicationId(account),
    }),
    net: account.net,
  });
}

function callsHeaders(account: TelephonyAccount) {
  const id = applicationId(account);
  const key = requireCredential("vonage", account, "private_key");
  try {
    return { authorization: `Bearer ${applicationToken(id, key)}` };
  } catch {
    // node:crypto's own message would say little to whoever pasted the key.
    throw new TelephonyError(
      "vonage",
      "credentials",
      "vonage: the application private key is not a valid PEM private key",
    );
  }
}

/**
 * The answer URL of a call Parley places. Vonage's answer request does not say which way the call
 * goes, so the URL says it (`direction=outbound`), for parseIncomingCall to read back.
 */
export function outboundAnswerUrl(voiceUrl: string): string {
  const url = new URL(voiceUrl);
  url.searchParams.set("direction", "outbound");
  return url.toString();
}

/** POST /v1/calls: Vonage fetches answer_url (an NCCO) once the callee answers. Returns the call's uuid. */
export async function placeCall(account: TelephonyAccount, request: PlaceCallRequest): Promise<string> {
  const body = await telephonyJson({
    provider: "vonage",
    url: accountUrl(account, `${API}/v1/calls`),
    headers: callsHeaders(account),
    json: {
      to: [{ type: "phone", number: vonageNumber(request.to) }],
      from: { type: "phone", number: vonageNumber(request.from) },
      answer_url: [outboundAnswerUrl(request.urls.voiceUrl)],
      answer_method: "POST",
      event_url: [request.urls.statusUrl],
      event_method: "POST",
      ...(request.machineDetection ? { machine_detection: "continue" } : {}),
    },
    net: account.net,
  });
  return isRecord(body) ? stringField(body, "uuid") : "";
}

/** PUT /v1/calls/{uuid}[/sub]: transfer, hangup, DTMF. */
export async function modifyCall(account: TelephonyAccount, uuid: string, json: unknown, sub = "") {
  await telephonyJson({
    provider: "vonage",
    url: accountUrl(account, `${API}/v1/calls/${encodeURIComponent(uuid)}${sub}`),
    method: "PUT",
    headers: callsHeaders(account),
    json,
    net: account.net,
  });
}
