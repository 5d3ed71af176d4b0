import { accountUrl } from "../../telephony/account.ts";
import { requireCredential } from "../../telephony/credentials.ts";
import { encodeForm, isRecord, stringField } from "../../telephony/form.ts";
import { telephonyJson } from "../../telephony/rest.ts";
import type {
  PlaceCallRequest,
  PlacedCallQuery,
  TelephonyAccount,
  VendorNumber,
  WebhookUrls,
} from "../../telephony/types.ts";
import { basicAuth } from "../shared/basic-auth.ts";

/** Twilio's REST API, 2010-04-01 (https://www.twilio.com/docs/usage/api). */

const ORIGIN = "https://api.twilio.com";
/** Pages followed when listing numbers: 50 pages of 1000 is more than any workspace imports. */
const MAX_PAGES = 50;

interface Api {
  sid: string;
  headers: Record<string, string>;
  url(path: string): string;
}

function api(account: TelephonyAccount): Api {
  const sid = requireCredential("twilio", account, "account_sid");
  const token = requireCredential("twilio", account, "auth_token");
  return {
    sid,
    headers: { authorization: basicAuth(sid, token) },
    url: (path) => accountUrl(account, `${ORIGIN}/2010-04-01/Accounts/${encodeURIComponent(sid)}${path}`),
  };
}

function toVendorNumber(row: Record<string, unknown>): VendorNumber {
  const number = stringField(row, "phone_number");
  return {
    number,
    providerNumberId: stringField(row, "sid"),
    friendlyName: stringField(row, "friendly_name") || number,
    country: stringField(row, "iso_country") || null,
  };
}

/** GET IncomingPhoneNumbers.json, following `next_page_uri` (a path on the same origin). */
export async function listNumbers(account: TelephonyAccount): Promise<VendorNumber[]> {
  const { headers, url } = api(account);
  const numbers: VendorNumber[] = [];
  let next: string | null = url("/IncomingPhoneNumbers.json?PageSize=1000");
  for (let page = 0; next && page < MAX_PAGES; page++) {
    const body = await telephonyJson({ provider: "twilio", url: next, headers, net: account.net });
    if (!isRecord(body)) break;
    const rows = Array.isArray(body.incoming_phone_numbers) ? body.incoming_phone_numbers : [];
    for (const row of rows) if (isRecord(row) && stringField(row, "phone_number")) numbers.push(toVendorNumber(row));
    const nextUri = stringField(body, "next_page_uri");
    next = nextUri ? accountUrl(account, `${ORIGIN}${nextUri}`) : null;
  }
  return numbers;
}

/** Points the number's voice webhook (POST) and status callback at Parley. */
export async function configureNumber(account: TelephonyAccount, number: VendorNumber, urls: WebhookUrls) {
  const { headers, url } = api(account);
  await telephonyJson({
    provider: "twilio",
    url: url(`/IncomingPhoneNumbers/${encodeURIComponent(number.providerNumberId)}.json`),
    headers,
    form: encodeForm({
      VoiceUrl: urls.voiceUrl,
      VoiceMethod: "POST",
      StatusCallback: urls.statusUrl,
      StatusCallbackMethod: "POST",
    }),
    net: account.net,
  });
}

/**
 * POST Calls.json with every progress event sent to `statusUrl`; `fields` say what the call runs.
 * Returns the CallSid.
 */
async function createCall(
  account: TelephonyAccount,
  call: { from: string; to: string; statusUrl: string },
  fields: Record<string, string | undefined>,
): Promise<string> {
  const { headers, url } = api(account);
  const body = await telephonyJson({
    provider: "twilio",
    url: url("/Calls.json"),
    headers,
    form: encodeForm({
      From: call.from,
      To: call.to,
      ...fields,
      StatusCallback: call.statusUrl,
      StatusCallbackMethod: "POST",
      StatusCallbackEvent: ["initiated", "ringing", "answered", "completed"],
    }),
    net: account.net,
  });
  return isRecord(body) ? stringField(body, "sid") : "";
}

/** POST Calls.json; Twilio fetches `Url` once the callee answers. Returns the CallSid. */
export function placeCall(account: TelephonyAccount, request: PlaceCallRequest): Promise<string> {
  return createCall(
    account,
    { from: request.from, to: request.to, statusUrl: request.urls.statusUrl },
    { Url: request.urls.voiceUrl, Method: "POST", MachineDetection: request.machineDetection ? "Enable" : undefined },
  );
}

/** Rows asked for when looking a call up: far more than one caller places to one number in a minute. */
const LOOKUP_PAGE_SIZE = 50;
/** The vendor's clock and ours may disagree by this much; `date_created` has whole seconds. */
const CLOCK_SKEW_MS = 5_000;

/**
 * GET Calls.json filtered by To and From: the newest call between the two numbers that Twilio
 * created since `query.since` (by its `date_created`), or null.
 */
export async function findCall(account: TelephonyAccount, query: PlacedCallQuery): Promise<string | null> {
  const { headers, url } = api(account);
  const search = new URLSearchParams({ To: query.to, From: query.from, PageSize: String(LOOKUP_PAGE_SIZE) });
  const body = await telephonyJson({
    provider: "twilio",
    url: url(`/Calls.json?${search}`),
    headers,
    net: account.net,
  });
  const rows = isRecord(body) && Array.isArray(body.calls) ? body.calls.filter(isRecord) : [];
  const earliest = query.since.getTime() - CLOCK_SKEW_MS;
  const created = (row: Record<string, unknown>) => Date.parse(stringField(row, "date_created"));
  const matches = rows
    .filter((row) => stringField(row, "to") === query.to && stringField(row, "from") === query.from)
    .filter((row) => created(row) >= earliest)
    .sort((a, b) => created(b) - created(a));
  return matches[0] ? stringField(matches[0], "sid") || null : null;
}

/** POST Calls/{sid}.json: new TwiML for a live call, or `Status=completed` to end it. */
export async function updateCall(account: TelephonyAccount, callSid: string, fields: Record<string, string>) {
  const { headers, url } = api(account);
  await telephonyJson({
    provider: "twilio",
    url: url(`/Calls/${encodeURIComponent(callSid)}.json`),
    headers,
    form: encodeForm(fields),
    net: account.net,
  });
}

/** Dials `to` with inline TwiML (no voice URL fetch); returns the CallSid. */
export function placeCallWithTwiml(
  account: TelephonyAccount,
  call: { from: string; to: string; twiml: string; statusUrl: string; timeoutSeconds: number },
): Promise<string> {
  return createCall(account, call, { Twiml: call.twiml, Timeout: String(call.timeoutSeconds) });
}

/** GET Calls/{sid}.json: the call's `status` as Twilio words it (queued, ringing, in-progress, busy…). */
export async function fetchCallStatus(account: TelephonyAccount, callSid: string): Promise<string> {
  const { headers, url } = api(account);
  const body = await telephonyJson({
    provider: "twilio",
    url: url(`/Calls/${encodeURIComponent(callSid)}.json`),
    headers,
    net: account.net,
  });
  return isRecord(body) ? stringField(body, "status") : "";
}
