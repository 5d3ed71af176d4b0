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
import {
  CallWaiters,
  type ConferenceRoom,
  MarkupCall,
  MarkupRunner,
  type OutboundBehaviour,
  type OutboundStart,
  type StatusEvent,
} from "./markup-runner.ts";
import { parseXml } from "./markup-xml.ts";
import { MulawCodec, objectField, parseJsonMessage } from "./mulaw-json-wire.ts";
import type { StreamCommand, StreamWire } from "./phone-leg.ts";
import type { CallHandle, DtmfOutRecord, InboundOptions, TransferRecord } from "./simulated-call.ts";
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

/** A Twilio call: TwiML state plus the stream legs (`documents` holds the TwiML it ran). */
export class TwilioCall extends MarkupCall {
  /** Twilio's `date_created`: when the API created the call (wall-clock time, as Twilio reports it). */
  readonly createdAt = new Date();
}

export type TwilioCallHandle = CallHandle<TwilioCall>;

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
  /** Conferences (`<Dial><Conference>`) by name: who joined when, who is in, whether it ended. */
  conferences: ReadonlyMap<string, ConferenceRoom>;
  /** Sets how the next outbound calls are answered. */
  setOutbound(behaviour: OutboundBehaviour): void;
  ringInbound(number: string, from: string, options?: InboundOptions): Promise<TwilioCallHandle>;
  /**
   * Stalls the next request to place a call to `to`, for a test of a process that dies mid-request:
   * "before-create" never creates the call (the request was lost on its way), "after-create"
   * creates it and dials but never answers the request (the answer was lost on its way back).
   * Resolves once that request has arrived; later requests to `to` are served as usual.
   */
  stallNextCall(to: string, stage: "before-create" | "after-create"): Promise<void>;
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
  const waiters = new CallWaiters(calls);
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
      direction: call.vendorDirection,
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
      date_created: rfc2822(call.createdAt),
      date_updated: rfc2822(new Date()),
      uri: `${API}/Accounts/${call.accountSid}/Calls/${call.id}.json`,
      subresource_uris: {},
    };
  }

  /** GET Calls.json: the account's calls, newest first, filtered by To and From when given (one page). */
  function listCalls(request: DoubleRequest, accountSid: string): DoubleResponse {
    const pageSize = Math.min(1000, Math.max(1, Number(request.query.get("PageSize") ?? pageSizeDefault) || 50));
    const to = request.query.get("To");
    const from = request.query.get("From");
    const all = [...calls.values()]
      .filter((c) => c.accountSid === accountSid && (!to || c.to === to) && (!from || c.from === from))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const slice = all.slice(0, pageSize);
    const base = `${API}/Accounts/${accountSid}/Calls.json`;
    return {
      status: 200,
      json: {
        calls: slice.map(callJson),
        page: 0,
        page_size: pageSize,
        start: 0,
        end: Math.max(0, slice.length - 1),
        uri: `${base}?PageSize=${pageSize}&Page=0`,
        first_page_uri: `${base}?PageSize=${pageSize}&Page=0`,
        previous_page_uri: null,
        next_page_uri: null,
      },
    };
  }

  const stalls = new Map<string, { stage: "before-create" | "after-create"; arrived: () => void }>();

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
    const call = new TwilioCall(account.sid, "outbound-api", `CA${randomHex(16)}`, from, to, server.now, false);
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
    const first: OutboundStart = { url, method: (form.get("Method") ?? "POST").toUpperCase(), markup: twiml };
    // Dialing starts after the API has answered with the queued call, as at Twilio.
    const amd = { async: form.get("AsyncAmd") === "true", callback: form.get("AsyncAmdStatusCallback") ?? "" };
    setImmediate(() => startOutbound(call, first, amd));
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
      if (!call.ended)
        void runner.endCall(call, status === "canceled" && call.answeredAt === null ? "canceled" : "completed");
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
      void runner.replace(call, twiml);
      return { status: 200, json: callJson(call) };
    }
    if (url) {
      call.note(`update: Url ${url}`);
      const method = (form.get("Method") ?? "POST").toUpperCase();
      void runner.redirect(call, url, method);
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
          if (!found) return AUTHENTICATE;
          const stall = stalls.get(formOf(request).get("To") ?? "");
          if (!stall) return createCall(request, found);
          stalls.delete(formOf(request).get("To") ?? "");
          if (stall.stage === "after-create") createCall(request, found);
          stall.arrived();
          return new Promise<DoubleResponse>(() => {});
        },
      },
      {
        method: "GET",
        pattern: `${API}/Accounts/:account/Calls.json`,
        handle: (request, { account }) =>
          authenticate(request, account ?? "") ? listCalls(request, account ?? "") : AUTHENTICATE,
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
    waiters.added();
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
      Direction: call.vendorDirection,
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
    const token = call.forgeSignature
      ? `not-${accounts.get(call.accountSid)?.token ?? ""}`
      : (accounts.get(call.accountSid)?.token ?? "");
    if (method === "GET") {
      const target = new URL(url);
      for (const [key, value] of Object.entries(params)) target.searchParams.append(key, value);
      const full = target.toString();
      return sendWebhook(webhooks, server.now, {
        url: full,
        method: "GET",
        headers: { "X-Twilio-Signature": twilioSignature(token, full, {}), "User-Agent": "TwilioProxy/1.1" },
        body: "",
      });
    }
    return sendWebhook(webhooks, server.now, {
      url,
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Twilio-Signature": twilioSignature(token, url, params),
        "User-Agent": "TwilioProxy/1.1",
        "I-Twilio-Idempotency-Token": randomHex(16),
      },
      body: new URLSearchParams(params).toString(),
    });
  }

  const runner = new MarkupRunner<TwilioCall>({
    now: () => server.now(),
    transfers,
    dtmfOut,
    dialTalkMs,
    requestMarkup: (call, url, method) => signedRequest(call, url, method, callParams(call)),
    sendStatus: async (call, extra) => {
      await signedRequest(call, call.statusCallback, call.statusCallbackMethod, {
        ...callParams(call),
        CallbackSource: "call-progress-events",
        SequenceNumber: String(call.sequence - 1),
        Timestamp: rfc2822(new Date()),
        ...extra,
      });
    },
    streamWire: (call, _stream, parameters) =>
      new TwilioMediaWire(call.accountSid, call.id, `MZ${randomHex(16)}`, parameters),
  });

  function startOutbound(call: TwilioCall, first: OutboundStart, amd: { async: boolean; callback: string }): void {
    const behaviour = outbound;
    void runner.runOutbound(call, behaviour, first, () => {
      if (!call.machineDetection) return;
      const answeredBy = behaviour.outcome === "machine" ? "machine_start" : "human";
      if (!amd.async) {
        call.answeredBy = answeredBy;
        return;
      }
      // With AsyncAmd the answer is not held back: the result goes to its own callback.
      if (amd.callback) {
        void signedRequest(call, amd.callback, "POST", {
          AccountSid: call.accountSid,
          CallSid: call.id,
          AnsweredBy: answeredBy,
          MachineDetectionDuration: "1200",
        });
      }
    });
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
      inbound.forgeSignature ?? false,
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
      void runner.run(call, voice.responseBody, call.generation);
    }
    return {
      call,
      voice,
      stream: (timeoutMs) => call.waitForStream(timeoutMs),
      hangup: () => runner.endCall(call, "completed"),
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
    conferences: runner.conferences,
    setOutbound: (behaviour) => {
      outbound = behaviour;
    },
    ringInbound,
    stallNextCall: (to, stage) => new Promise<void>((arrived) => stalls.set(to, { stage, arrived })),
    waitForCall: (where, timeoutMs = 30_000) => waiters.waitFor(where, timeoutMs, "Twilio"),
    close: async () => {
      for (const call of calls.values()) if (!call.ended) await runner.endCall(call, "completed");
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
