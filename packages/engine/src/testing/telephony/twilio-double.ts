import {
  basicAuth,
  type DoubleRequest,
  type DoubleResponse,
  formOf,
  randomHex,
  sendWebhook,
  startDoubleServer,
  type WebhookExchange,
} from "./double-server.ts";
import { MarkupParseError, parseXml, type XmlElement } from "./markup-xml.ts";
import { MulawCodec, objectField, parseJsonMessage } from "./mulaw-json-wire.ts";
import { type LegResult, PhoneLeg, type StreamCommand, type StreamWire } from "./phone-leg.ts";
import { type DtmfOutRecord, type OutboundOutcome, SimulatedCall, type TransferRecord } from "./simulated-call.ts";
import { twilioSignature } from "./twilio-signature.ts";

/**
 * A local Twilio: the parts of the REST API (2010-04-01) Parley calls, the voice and status webhooks
 * Twilio sends (form-encoded, signed with X-Twilio-Signature), TwiML execution for the verbs a
 * media-stream call uses (<Connect><Stream>, <Dial>, <Play digits>, <Pause>, <Redirect>, <Hangup>)
 * and the Media Streams WebSocket protocol (connected, start, media, dtmf, mark, stop; media, mark
 * and clear back). Written from Twilio's public docs, independently of Parley's adapter.
 */

export interface TwilioAccountConfig {
  sid: string;
  token: string;
  /** E.164 numbers the account owns. */
  numbers: string[];
}

/** How the far end of an outbound call behaves. */
export interface OutboundBehaviour {
  outcome: OutboundOutcome;
  /** What the callee (or the answering machine's greeting) says once the stream opens, 16 kHz PCM. */
  speech?: Int16Array;
  dtmf?: string[];
  /** Ringing time before the outcome (ms). */
  ringMs?: number;
}

export interface TwilioDoubleOptions {
  accounts: TwilioAccountConfig[];
  /** Default PageSize of the numbers list (Twilio's is 50). */
  pageSize?: number;
  outbound?: OutboundBehaviour;
  /** How long a transferred (<Dial>ed) leg talks before the far end hangs up (ms). */
  dialTalkMs?: number;
}

export interface TwilioNumber {
  sid: string;
  accountSid: string;
  phoneNumber: string;
  friendlyName: string;
  voiceUrl: string;
  voiceMethod: string;
  statusCallback: string;
  statusCallbackMethod: string;
  /** Every update Parley made to the number, as the form it posted. */
  updates: { at: number; params: Record<string, string> }[];
}

export interface InboundOptions {
  /** Caller speech, 16 kHz PCM. */
  speech?: Int16Array;
  /** Keys the caller presses after the speech. */
  dtmf?: string[];
  /** Signs the webhooks with this token instead of the account's (to test a 403). */
  signWith?: string;
}

/** Status callbacks the call was asked to send (StatusCallbackEvent), Twilio's default being completed only. */
type StatusEvent = "initiated" | "ringing" | "answered" | "completed";

export class TwilioCall extends SimulatedCall {
  status = "queued";
  statusCallback = "";
  statusCallbackMethod = "POST";
  statusEvents = new Set<StatusEvent>(["completed"]);
  machineDetection = false;
  answeredBy: string | null = null;
  /** The TwiML documents Twilio executed for this call, in order. */
  readonly twiml: string[] = [];
  sequence = 0;
  /** The last URL TwiML came from: relative action and Redirect URLs resolve against it. */
  lastUrl = "";
  constructor(
    readonly accountSid: string,
    readonly twilioDirection: "inbound" | "outbound-api",
    id: string,
    from: string,
    to: string,
    now: () => number,
    readonly signWith: string,
  ) {
    super(id, twilioDirection === "inbound" ? "inbound" : "outbound", from, to, now(), now);
  }
}

export interface TwilioCallHandle {
  call: TwilioCall;
  /** The voice webhook exchange (status 403 when Parley refused the signature). */
  voice: WebhookExchange;
  /** Resolves with the stream once the TwiML opened it. */
  stream(timeoutMs?: number): Promise<PhoneLeg>;
  /** The caller hangs up. */
  hangup(): Promise<void>;
  /** Resolves when the call is over and its final status callback has been sent. */
  done: Promise<void>;
}

export interface TwilioDouble {
  /** http://127.0.0.1:<port>: Parley's adapter baseUrl (in place of https://api.twilio.com). */
  origin: string;
  requests: DoubleRequest[];
  /** Webhooks the double sent to Parley (voice, status, action), with the answers. */
  webhooks: WebhookExchange[];
  calls: Map<string, TwilioCall>;
  /** Numbers by their PN sid. */
  numbers: Map<string, TwilioNumber>;
  transfers: TransferRecord[];
  dtmfOut: DtmfOutRecord[];
  /** Sets how the next outbound calls are answered. */
  setOutbound(behaviour: OutboundBehaviour): void;
  ringInbound(number: string, from: string, options?: InboundOptions): Promise<TwilioCallHandle>;
  /** Resolves when a call matching `where` exists (e.g. the one Parley just placed). */
  waitForCall(where: (call: TwilioCall) => boolean, timeoutMs?: number): Promise<TwilioCall>;
  close(): Promise<void>;
}

const API = "/2010-04-01";

function twilioError(status: number, code: number, message: string): DoubleResponse {
  return { status, json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

/** Twilio's 401 for a wrong Account SID or auth token (error 20003). */
const AUTHENTICATE = twilioError(401, 20003, "Authenticate");

/** Twilio's friendly name of a number: (415) 555-0100 for the NANP, the E.164 otherwise. */
function friendlyName(number: string): string {
  const nanp = number.match(/^\+1(\d{3})(\d{3})(\d{4})$/);
  return nanp ? `(${nanp[1]}) ${nanp[2]}-${nanp[3]}` : number;
}

/** A URL from TwiML, relative to the document it came from. */
function resolveUrl(target: string, base: string): string {
  return base ? new URL(target, base).toString() : target;
}

function rfc2822(date: Date): string {
  return date.toUTCString().replace("GMT", "+0000");
}

export async function startTwilioDouble(options: TwilioDoubleOptions): Promise<TwilioDouble> {
  const pageSizeDefault = options.pageSize ?? 50;
  let outbound: OutboundBehaviour = options.outbound ?? { outcome: "answer" };
  const dialTalkMs = options.dialTalkMs ?? 300;
  const accounts = new Map(options.accounts.map((a) => [a.sid, a]));
  const numbers = new Map<string, TwilioNumber>();
  const calls = new Map<string, TwilioCall>();
  const webhooks: WebhookExchange[] = [];
  const transfers: TransferRecord[] = [];
  const dtmfOut: DtmfOutRecord[] = [];
  const created = new Date();
  const callWaiters = new Set<() => void>();
  for (const account of options.accounts) {
    for (const number of account.numbers) {
      const sid = `PN${randomHex(16)}`;
      numbers.set(sid, {
        sid,
        accountSid: account.sid,
        phoneNumber: number,
        friendlyName: friendlyName(number),
        voiceUrl: "",
        voiceMethod: "POST",
        statusCallback: "",
        statusCallbackMethod: "POST",
        updates: [],
      });
    }
  }

  // ── REST ─────────────────────────────────────────────────────────────────────

  /** Basic auth with the Account SID and auth token; the SID must be the one in the path. */
  function authenticate(request: DoubleRequest, accountSid: string): TwilioAccountConfig | null {
    const auth = basicAuth(request);
    const account = auth ? accounts.get(auth.user) : undefined;
    if (!auth || !account || account.token !== auth.password || account.sid !== accountSid) return null;
    return account;
  }

  function numberJson(n: TwilioNumber): Record<string, unknown> {
    return {
      sid: n.sid,
      account_sid: n.accountSid,
      friendly_name: n.friendlyName,
      phone_number: n.phoneNumber,
      voice_url: n.voiceUrl || null,
      voice_method: n.voiceMethod,
      voice_fallback_url: null,
      voice_fallback_method: "POST",
      voice_caller_id_lookup: false,
      voice_application_sid: null,
      status_callback: n.statusCallback || null,
      status_callback_method: n.statusCallbackMethod,
      sms_url: null,
      sms_method: "POST",
      trunk_sid: null,
      capabilities: { voice: true, sms: true, mms: true, fax: false },
      api_version: "2010-04-01",
      date_created: rfc2822(created),
      date_updated: rfc2822(new Date()),
      origin: "twilio",
      status: "in-use",
      beta: false,
      address_requirements: "none",
      emergency_status: "Inactive",
      uri: `${API}/Accounts/${n.accountSid}/IncomingPhoneNumbers/${n.sid}.json`,
    };
  }

  function callJson(call: TwilioCall): Record<string, unknown> {
    return {
      sid: call.id,
      account_sid: call.accountSid,
      to: call.to,
      to_formatted: friendlyName(call.to),
      from: call.from,
      from_formatted: friendlyName(call.from),
      status: call.status,
      direction: call.twilioDirection,
      answered_by: call.answeredBy,
      api_version: "2010-04-01",
      parent_call_sid: null,
      phone_number_sid: null,
      start_time: call.answeredAt === null ? null : rfc2822(new Date()),
      end_time: call.endedAt === null ? null : rfc2822(new Date()),
      duration: call.ended ? String(call.durationSeconds()) : null,
      price: null,
      price_unit: "USD",
      caller_name: null,
      forwarded_from: null,
      queue_time: "0",
      trunk_sid: null,
      group_sid: null,
      annotation: null,
      date_created: rfc2822(new Date()),
      date_updated: rfc2822(new Date()),
      uri: `${API}/Accounts/${call.accountSid}/Calls/${call.id}.json`,
      subresource_uris: {},
    };
  }

  function listNumbers(request: DoubleRequest, accountSid: string): DoubleResponse {
    const pageSize = Math.min(1000, Math.max(1, Number(request.query.get("PageSize") ?? pageSizeDefault) || 50));
    const page = Math.max(0, Number(request.query.get("Page") ?? 0) || 0);
    const phoneFilter = request.query.get("PhoneNumber");
    const all = [...numbers.values()].filter(
      (n) => n.accountSid === accountSid && (!phoneFilter || n.phoneNumber.includes(phoneFilter.replace(/\s/g, ""))),
    );
    const slice = all.slice(page * pageSize, (page + 1) * pageSize);
    const base = `${API}/Accounts/${accountSid}/IncomingPhoneNumbers.json`;
    const hasNext = (page + 1) * pageSize < all.length;
    const last = slice[slice.length - 1];
    return {
      status: 200,
      json: {
        incoming_phone_numbers: slice.map(numberJson),
        page,
        page_size: pageSize,
        start: page * pageSize,
        end: page * pageSize + Math.max(0, slice.length - 1),
        uri: `${base}?PageSize=${pageSize}&Page=${page}`,
        first_page_uri: `${base}?PageSize=${pageSize}&Page=0`,
        previous_page_uri: page > 0 ? `${base}?PageSize=${pageSize}&Page=${page - 1}` : null,
        next_page_uri:
          hasNext && last ? `${base}?PageSize=${pageSize}&Page=${page + 1}&PageToken=PA${last.sid.slice(2)}` : null,
      },
    };
  }

  function updateNumber(request: DoubleRequest, accountSid: string, sid: string): DoubleResponse {
    const number = numbers.get(sid);
    if (!number || number.accountSid !== accountSid) {
      return twilioError(404, 20404, `The requested resource ${request.path} was not found`);
    }
    const form = formOf(request);
    const params = Object.fromEntries(form.entries());
    for (const [key, value] of Object.entries(params)) {
      if (/Url$|StatusCallback$/.test(key) && value !== "" && !/^https?:\/\//.test(value)) {
        return twilioError(400, 21502, `${key} is not valid`);
      }
    }
    number.updates.push({ at: server.now(), params });
    if (form.has("VoiceUrl")) number.voiceUrl = form.get("VoiceUrl") ?? "";
    if (form.has("VoiceMethod")) number.voiceMethod = (form.get("VoiceMethod") ?? "POST").toUpperCase();
    if (form.has("StatusCallback")) number.statusCallback = form.get("StatusCallback") ?? "";
    if (form.has("StatusCallbackMethod"))
      number.statusCallbackMethod = (form.get("StatusCallbackMethod") ?? "POST").toUpperCase();
    if (form.has("FriendlyName")) number.friendlyName = form.get("FriendlyName") ?? number.friendlyName;
    return { status: 200, json: numberJson(number) };
  }

  function createCall(request: DoubleRequest, account: TwilioAccountConfig): DoubleResponse {
    const form = formOf(request);
    const to = form.get("To") ?? "";
    const from = form.get("From") ?? "";
    const url = form.get("Url") ?? "";
    const twiml = form.get("Twiml") ?? "";
    if (!to) return twilioError(400, 21201, "No 'To' number is specified");
    if (!from) return twilioError(400, 21603, "A 'From' phone number is required.");
    if (!url && !twiml) return twilioError(400, 21205, "Url parameter is required.");
    if (url && !/^https?:\/\//.test(url)) return twilioError(400, 21205, `Url is not a valid URL: ${url}`);
    const owned = [...numbers.values()].some((n) => n.accountSid === account.sid && n.phoneNumber === from);
    if (!owned) {
      return twilioError(
        400,
        21210,
        `The source phone number provided, ${from}, is not yet verified for your account. You may only make calls from phone numbers that you've verified or purchased from Twilio.`,
      );
    }
    const call = new TwilioCall(account.sid, "outbound-api", `CA${randomHex(16)}`, from, to, server.now, account.token);
    call.statusCallback = form.get("StatusCallback") ?? "";
    call.statusCallbackMethod = (form.get("StatusCallbackMethod") ?? "POST").toUpperCase();
    const events = form.getAll("StatusCallbackEvent").flatMap((value) => value.split(/[\s,]+/));
    const wanted = events.filter((e): e is StatusEvent =>
      ["initiated", "ringing", "answered", "completed"].includes(e),
    );
    if (wanted.length > 0) call.statusEvents = new Set<StatusEvent>([...wanted, "completed"]);
    const detection = form.get("MachineDetection");
    call.machineDetection = detection === "Enable" || detection === "DetectMessageEnd";
    addCall(call);
    const first = {
      url,
      method: (form.get("Method") ?? "POST").toUpperCase(),
      twiml,
      asyncAmd: form.get("AsyncAmd") === "true",
      asyncAmdCallback: form.get("AsyncAmdStatusCallback") ?? "",
    };
    // Dialing starts after the API has answered with the queued call, as at Twilio.
    setImmediate(() => void runOutbound(call, first));
    return { status: 201, json: callJson(call) };
  }

  function updateCall(request: DoubleRequest, accountSid: string, sid: string): DoubleResponse {
    const call = calls.get(sid);
    if (!call || call.accountSid !== accountSid) {
      return twilioError(404, 20404, `The requested resource ${request.path} was not found`);
    }
    const form = formOf(request);
    const status = form.get("Status");
    const twiml = form.get("Twiml");
    const url = form.get("Url");
    if (status === "completed" || status === "canceled") {
      if (!call.ended) void endCall(call, status === "canceled" && call.answeredAt === null ? "canceled" : "completed");
      return { status: 200, json: callJson(call) };
    }
    if (call.ended || call.status !== "in-progress") {
      return twilioError(400, 21220, "Call is not in-progress. Cannot redirect.");
    }
    if (twiml) {
      try {
        parseXml(twiml);
      } catch {
        return twilioError(400, 12100, "Document parse failure");
      }
      call.note("update: Twiml");
      void call.interrupt("vendor").then(() => runTwiml(call, twiml, call.generation));
      return { status: 200, json: callJson(call) };
    }
    if (url) {
      call.note(`update: Url ${url}`);
      const method = (form.get("Method") ?? "POST").toUpperCase();
      void call.interrupt("vendor").then(() => fetchAndRun(call, url, method, call.generation));
      return { status: 200, json: callJson(call) };
    }
    return twilioError(400, 20001, "Nothing to update: give Url, Twiml or Status");
  }

  const server = await startDoubleServer(
    [
      {
        method: "GET",
        pattern: `${API}/Accounts/:account.json`,
        handle: (request, { account }) => {
          const found = authenticate(request, account ?? "");
          if (!found) return AUTHENTICATE;
          return {
            status: 200,
            json: { sid: found.sid, friendly_name: "Parley test account", status: "active", type: "Full" },
          };
        },
      },
      {
        method: "GET",
        pattern: `${API}/Accounts/:account/IncomingPhoneNumbers.json`,
        handle: (request, { account }) =>
          authenticate(request, account ?? "") ? listNumbers(request, account ?? "") : AUTHENTICATE,
      },
      {
        method: "GET",
        pattern: `${API}/Accounts/:account/IncomingPhoneNumbers/:sid.json`,
        handle: (request, { account, sid }) => {
          if (!authenticate(request, account ?? "")) return AUTHENTICATE;
          const number = numbers.get(sid ?? "");
          if (!number || number.accountSid !== account)
            return twilioError(404, 20404, `The requested resource ${request.path} was not found`);
          return { status: 200, json: numberJson(number) };
        },
      },
      {
        method: "POST",
        pattern: `${API}/Accounts/:account/IncomingPhoneNumbers/:sid.json`,
        handle: (request, { account, sid }) =>
          authenticate(request, account ?? "") ? updateNumber(request, account ?? "", sid ?? "") : AUTHENTICATE,
      },
      {
        method: "POST",
        pattern: `${API}/Accounts/:account/Calls.json`,
        handle: (request, { account }) => {
          const found = authenticate(request, account ?? "");
          return found ? createCall(request, found) : AUTHENTICATE;
        },
      },
      {
        method: "GET",
        pattern: `${API}/Accounts/:account/Calls/:sid.json`,
        handle: (request, { account, sid }) => {
          if (!authenticate(request, account ?? "")) return AUTHENTICATE;
          const call = calls.get(sid ?? "");
          if (!call || call.accountSid !== account)
            return twilioError(404, 20404, `The requested resource ${request.path} was not found`);
          return { status: 200, json: callJson(call) };
        },
      },
      {
        method: "POST",
        pattern: `${API}/Accounts/:account/Calls/:sid.json`,
        handle: (request, { account, sid }) =>
          authenticate(request, account ?? "") ? updateCall(request, account ?? "", sid ?? "") : AUTHENTICATE,
      },
    ],
    (request) => twilioError(404, 20404, `The requested resource ${request.path} was not found`),
  );

  // ── calls ────────────────────────────────────────────────────────────────────

  function addCall(call: TwilioCall): void {
    calls.set(call.id, call);
    for (const wake of callWaiters) wake();
  }

  /** The parameters Twilio sends with every voice request and status callback of a call. */
  function callParams(call: TwilioCall): Record<string, string> {
    const params: Record<string, string> = {
      AccountSid: call.accountSid,
      ApiVersion: "2010-04-01",
      CallSid: call.id,
      CallStatus: call.status,
      Called: call.to,
      Caller: call.from,
      Direction: call.twilioDirection,
      From: call.from,
      To: call.to,
      CalledCountry: call.to.startsWith("+1") ? "US" : "",
      CallerCountry: call.from.startsWith("+1") ? "US" : "",
      FromCountry: call.from.startsWith("+1") ? "US" : "",
      ToCountry: call.to.startsWith("+1") ? "US" : "",
    };
    if (call.answeredBy) params.AnsweredBy = call.answeredBy;
    return params;
  }

  /** A webhook request signed as Twilio signs it; GET puts the parameters in the query. */
  function signedRequest(
    call: TwilioCall,
    url: string,
    method: string,
    params: Record<string, string>,
  ): Promise<WebhookExchange> {
    const body = new URLSearchParams(params).toString();
    if (method === "GET") {
      const target = new URL(url);
      for (const [key, value] of Object.entries(params)) target.searchParams.append(key, value);
      const full = target.toString();
      return sendWebhook(webhooks, server.now, {
        url: full,
        method: "GET",
        headers: { "X-Twilio-Signature": twilioSignature(call.signWith, full, {}), "User-Agent": "TwilioProxy/1.1" },
        body: "",
      });
    }
    return sendWebhook(webhooks, server.now, {
      url,
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Twilio-Signature": twilioSignature(call.signWith, url, params),
        "User-Agent": "TwilioProxy/1.1",
        "I-Twilio-Idempotency-Token": randomHex(16),
      },
      body,
    });
  }

  async function statusCallback(
    call: TwilioCall,
    event: StatusEvent,
    extra: Record<string, string> = {},
  ): Promise<void> {
    if (!call.statusCallback || !call.statusEvents.has(event)) return;
    call.sequence++;
    await signedRequest(call, call.statusCallback, call.statusCallbackMethod, {
      ...callParams(call),
      CallbackSource: "call-progress-events",
      SequenceNumber: String(call.sequence - 1),
      Timestamp: rfc2822(new Date()),
      ...extra,
    });
  }

  async function setStatus(call: TwilioCall, status: string, event: StatusEvent | null): Promise<void> {
    call.status = status;
    call.note(`status ${status}`);
    if (event) await statusCallback(call, event);
  }

  /** The call ends with a final status: the completed callback (with CallDuration when answered). */
  async function endCall(call: TwilioCall, status: string): Promise<void> {
    if (call.ended) return;
    call.ended = true;
    call.endedAt = server.now();
    await call.interrupt("caller");
    call.status = status;
    call.note(`status ${status}`);
    const extra: Record<string, string> = {};
    if (call.answeredAt !== null) {
      extra.CallDuration = String(call.durationSeconds());
      extra.Duration = String(Math.ceil(call.durationSeconds() / 60));
    }
    await statusCallback(call, "completed", extra);
    call.finish();
  }

  async function runOutbound(
    call: TwilioCall,
    first: { url: string; method: string; twiml: string; asyncAmd: boolean; asyncAmdCallback: string },
  ): Promise<void> {
    const behaviour = outbound;
    const generation = call.generation;
    await setStatus(call, "initiated", "initiated");
    if (behaviour.outcome === "failed") return endCall(call, "failed");
    await setStatus(call, "ringing", "ringing");
    if (!(await call.sleep(behaviour.ringMs ?? 50, generation))) return;
    if (behaviour.outcome === "busy") return endCall(call, "busy");
    if (behaviour.outcome === "no-answer") return endCall(call, "no-answer");
    call.answeredAt = server.now();
    if (call.machineDetection) call.answeredBy = behaviour.outcome === "machine" ? "machine_start" : "human";
    if (call.machineDetection && first.asyncAmd) {
      // With AsyncAmd the answer is not held back: the result goes to its own callback.
      const amdBy = call.answeredBy;
      call.answeredBy = null;
      if (first.asyncAmdCallback && amdBy) {
        void signedRequest(call, first.asyncAmdCallback, "POST", {
          AccountSid: call.accountSid,
          CallSid: call.id,
          AnsweredBy: amdBy,
          MachineDetectionDuration: "1200",
        });
      }
    }
    await setStatus(call, "in-progress", "answered");
    call.pendingSpeech = behaviour.speech;
    call.pendingDtmf = behaviour.dtmf;
    if (first.twiml) await runTwiml(call, first.twiml, call.generation);
    else await fetchAndRun(call, first.url, first.method, call.generation);
  }

  /** Requests TwiML from a URL (voice URL, Redirect, action) and runs it. */
  async function fetchAndRun(call: TwilioCall, url: string, method: string, generation: number): Promise<void> {
    call.lastUrl = url;
    const exchange = await signedRequest(call, url, method, callParams(call));
    if (generation !== call.generation || call.ended) return;
    if (exchange.status < 200 || exchange.status >= 300) {
      // Twilio plays "an application error has occurred" and hangs up (error 11200).
      call.note(`webhook ${url} answered ${exchange.status}: application error`);
      return endCall(call, "completed");
    }
    await runTwiml(call, exchange.responseBody, generation);
  }

  /** Executes a TwiML document verb by verb; the call completes when the document runs out. */
  async function runTwiml(call: TwilioCall, document: string, generation: number): Promise<void> {
    if (call.ended || generation !== call.generation) return;
    call.twiml.push(document);
    let root: XmlElement;
    try {
      root = parseXml(document);
    } catch (error) {
      call.note(`TwiML parse failure (12100): ${error instanceof MarkupParseError ? error.message : String(error)}`);
      return endCall(call, "completed");
    }
    if (root.name !== "Response") {
      call.note("TwiML without <Response> (12100)");
      return endCall(call, "completed");
    }
    for (const verb of root.children) {
      if (call.ended || generation !== call.generation) return;
      call.note(`verb <${verb.name}>`);
      const next = await runVerb(call, verb, generation);
      if (next === "stop") return;
    }
    if (!call.ended && generation === call.generation) await endCall(call, "completed");
  }

  async function runVerb(call: TwilioCall, verb: XmlElement, generation: number): Promise<"next" | "stop"> {
    switch (verb.name) {
      case "Connect": {
        const stream = verb.children.find((child) => child.name === "Stream");
        if (!stream) return "next";
        const result = await openStream(call, stream);
        if (result.closedBy === "caller" || call.ended || generation !== call.generation) return "stop";
        // The stream ended from Parley's side: Twilio continues with the action URL or the next verb.
        const action = verb.attributes.action;
        if (action) {
          await fetchAndRun(
            call,
            resolveUrl(action, call.lastUrl),
            (verb.attributes.method ?? "POST").toUpperCase(),
            generation,
          );
          return "stop";
        }
        return "next";
      }
      case "Dial": {
        const nested = verb.children.find((child) =>
          ["Number", "Sip", "Client", "Conference", "Queue"].includes(child.name),
        );
        const destination = (nested?.text ?? verb.text).trim();
        const record: TransferRecord = {
          callId: call.id,
          destination,
          callerId: verb.attributes.callerId,
          at: server.now(),
        };
        call.transfers.push(record);
        transfers.push(record);
        call.note(`dial ${destination}`);
        if (!(await call.sleep(dialTalkMs, generation))) return "stop";
        if (verb.attributes.action) {
          await fetchAndRun(
            call,
            resolveUrl(verb.attributes.action, call.lastUrl),
            (verb.attributes.method ?? "POST").toUpperCase(),
            generation,
          );
          return "stop";
        }
        return "next";
      }
      case "Play": {
        const digits = verb.attributes.digits;
        if (digits !== undefined) {
          const record: DtmfOutRecord = { callId: call.id, digits, at: server.now() };
          call.dtmfOut.push(record);
          dtmfOut.push(record);
          // Each tone plus gap is about 0.2 s; "w" waits half a second.
          const ms = [...digits].reduce((sum, d) => sum + (d === "w" ? 500 : 200), 0);
          if (!(await call.sleep(ms, generation))) return "stop";
        }
        return "next";
      }
      case "Pause": {
        const seconds = Number(verb.attributes.length ?? 1);
        return (await call.sleep(seconds * 1000, generation)) ? "next" : "stop";
      }
      case "Redirect": {
        const target = verb.text.trim();
        await fetchAndRun(
          call,
          resolveUrl(target, call.lastUrl),
          (verb.attributes.method ?? "POST").toUpperCase(),
          generation,
        );
        return "stop";
      }
      case "Hangup":
        await endCall(call, "completed");
        return "stop";
      case "Reject":
        await endCall(call, verb.attributes.reason === "busy" ? "busy" : "no-answer");
        return "stop";
      default:
        // <Say>, <Gather>, <Record>… are not simulated: noted and skipped.
        return "next";
    }
  }

  /** <Connect><Stream url>: opens the WebSocket and speaks Media Streams until it ends. */
  async function openStream(call: TwilioCall, stream: XmlElement): Promise<LegResult> {
    const url = stream.attributes.url ?? "";
    const parameters: Record<string, string> = {};
    for (const child of stream.children) {
      if (child.name === "Parameter" && child.attributes.name !== undefined)
        parameters[child.attributes.name] = child.attributes.value ?? "";
    }
    if (!/^wss?:\/\//.test(url)) {
      call.note(`<Stream url="${url}"> is not a WebSocket URL (31941)`);
      return { closedBy: "error", code: 0, reason: "invalid stream url" };
    }
    const streamSid = `MZ${randomHex(16)}`;
    const leg = new PhoneLeg({
      url,
      wire: new TwilioMediaWire(call.accountSid, call.id, streamSid, parameters),
      speech: call.pendingSpeech,
      dtmf: call.pendingDtmf,
      now: server.now,
    });
    call.pendingSpeech = undefined;
    call.pendingDtmf = undefined;
    call.addLeg(leg);
    return leg.done;
  }

  async function ringInbound(number: string, from: string, inbound: InboundOptions = {}): Promise<TwilioCallHandle> {
    const owned = [...numbers.values()].find((n) => n.phoneNumber === number);
    if (!owned) throw new Error(`The Twilio double has no number ${number}`);
    if (!owned.voiceUrl) throw new Error(`Number ${number} has no voice URL: import it into Parley first`);
    const account = accounts.get(owned.accountSid);
    if (!account) throw new Error(`No account ${owned.accountSid}`);
    const call = new TwilioCall(
      account.sid,
      "inbound",
      `CA${randomHex(16)}`,
      from,
      number,
      server.now,
      inbound.signWith ?? account.token,
    );
    // A number's StatusCallback hears about incoming calls once they end (Twilio sends only completed).
    call.statusCallback = owned.statusCallback;
    call.statusCallbackMethod = owned.statusCallbackMethod;
    call.status = "ringing";
    call.pendingSpeech = inbound.speech;
    call.pendingDtmf = inbound.dtmf;
    addCall(call);
    const voice = await signedRequest(call, owned.voiceUrl, owned.voiceMethod, callParams(call));
    call.lastUrl = owned.voiceUrl;
    if (voice.status < 200 || voice.status >= 300) {
      call.note(`voice webhook answered ${voice.status}`);
      call.status = "failed";
      call.finish();
    } else {
      call.answeredAt = server.now();
      call.status = "in-progress";
      void runTwiml(call, voice.responseBody, call.generation);
    }
    return {
      call,
      voice,
      stream: (timeoutMs) => call.waitForStream(timeoutMs),
      hangup: () => endCall(call, "completed"),
      done: call.done,
    };
  }

  return {
    origin: server.origin,
    requests: server.requests,
    webhooks,
    calls,
    numbers,
    transfers,
    dtmfOut,
    setOutbound: (behaviour) => {
      outbound = behaviour;
    },
    ringInbound,
    waitForCall: (where, timeoutMs = 30_000) =>
      new Promise<TwilioCall>((resolve, reject) => {
        const check = () => {
          const found = [...calls.values()].find(where);
          if (!found) return;
          clearTimeout(timer);
          callWaiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          callWaiters.delete(check);
          reject(new Error(`No matching Twilio call within ${timeoutMs} ms`));
        }, timeoutMs);
        callWaiters.add(check);
        check();
      }),
    close: async () => {
      for (const call of calls.values()) if (!call.ended) await endCall(call, "completed");
      await server.close();
    },
  };
}

/** Media Streams, Twilio's side: JSON text messages, 8 kHz μ-law payloads in base64. */
export class TwilioMediaWire implements StreamWire {
  private sequence = 0;
  private chunk = 0;
  private readonly codec = new MulawCodec();

  constructor(
    private readonly accountSid: string,
    private readonly callSid: string,
    readonly streamSid: string,
    private readonly customParameters: Record<string, string>,
  ) {}

  private next(): string {
    this.sequence++;
    return String(this.sequence);
  }

  opening(): string[] {
    return [
      JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }),
      JSON.stringify({
        event: "start",
        sequenceNumber: this.next(),
        start: {
          accountSid: this.accountSid,
          streamSid: this.streamSid,
          callSid: this.callSid,
          tracks: ["inbound"],
          customParameters: this.customParameters,
          mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
        },
        streamSid: this.streamSid,
      }),
    ];
  }

  audio(frame: Int16Array): string[] {
    this.chunk++;
    return [
      JSON.stringify({
        event: "media",
        sequenceNumber: this.next(),
        media: {
          track: "inbound",
          chunk: String(this.chunk),
          timestamp: String((this.chunk - 1) * 20),
          payload: this.codec.encode(frame),
        },
        streamSid: this.streamSid,
      }),
    ];
  }

  dtmf(digit: string): string[] {
    return [
      JSON.stringify({
        event: "dtmf",
        streamSid: this.streamSid,
        sequenceNumber: this.next(),
        dtmf: { track: "inbound_track", digit },
      }),
    ];
  }

  markPlayed(name: string): string[] {
    return [JSON.stringify({ event: "mark", sequenceNumber: this.next(), streamSid: this.streamSid, mark: { name } })];
  }

  /** Twilio answers a clear by sending back every mark it dropped. */
  cleared(droppedMarks: string[]): string[] {
    return droppedMarks.flatMap((name) => this.markPlayed(name));
  }

  closing(): string[] {
    return [
      JSON.stringify({
        event: "stop",
        sequenceNumber: this.next(),
        streamSid: this.streamSid,
        stop: { accountSid: this.accountSid, callSid: this.callSid },
      }),
    ];
  }

  decode(data: Buffer, isBinary: boolean): StreamCommand[] {
    const raw = data.toString("utf8");
    const message = parseJsonMessage(data, isBinary);
    if (!message) return [{ type: "invalid", reason: "not a JSON text message", raw }];
    if (message.streamSid !== this.streamSid)
      return [{ type: "invalid", reason: `streamSid ${String(message.streamSid)} is not ${this.streamSid}`, raw }];
    switch (message.event) {
      case "media": {
        const payload = objectField(message, "media")?.payload;
        const pcm = typeof payload === "string" ? this.codec.decode(payload) : null;
        return pcm ? [{ type: "audio", pcm }] : [{ type: "invalid", reason: "media without a base64 payload", raw }];
      }
      case "mark": {
        const name = objectField(message, "mark")?.name;
        return typeof name === "string"
          ? [{ type: "mark", name }]
          : [{ type: "invalid", reason: "mark without a name", raw }];
      }
      case "clear":
        return [{ type: "clear" }];
      default:
        return [{ type: "invalid", reason: `unknown event ${String(message.event)}`, raw }];
    }
  }
}
