import { DoubleCalls, type OutboundBehaviour, type SignedWebhook, type TelephonyDouble } from "./double-calls.ts";
import {
  basicAuth,
  type DoubleRequest,
  type DoubleResponse,
  formOf,
  guardedRoutes,
  randomHex,
  sendWebhook,
  startDoubleServer,
} from "./double-server.ts";
import { type ConferenceRoom, MarkupCall, MarkupRunner, type OutboundStart } from "./markup-runner.ts";
import { MulawMediaStream, parseJsonMessage } from "./mulaw-json-wire.ts";
import type { StreamCommand, StreamWire } from "./phone-leg.ts";
import type { CallHandle, InboundOptions } from "./simulated-call.ts";
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

/** The Twilio double: `origin` stands in for https://api.twilio.com; webhooks are voice, status and action. */
export interface TwilioDouble extends TelephonyDouble<TwilioCall> {
  /** Numbers by their PN sid. */
  numbers: Map<string, TwilioNumber>;
  /** Conferences (`<Dial><Conference>`) by name: who joined when, who is in, whether it ended. */
  conferences: ReadonlyMap<string, ConferenceRoom>;
  /**
   * Stalls the next request to place a call to `to`, for a test of a process that dies mid-request:
   * "before-create" never creates the call (the request was lost on its way), "after-create"
   * creates it and dials but never answers the request (the answer was lost on its way back).
   * Resolves once that request has arrived; later requests to `to` are served as usual.
   */
  stallNextCall(to: string, stage: "before-create" | "after-create"): Promise<void>;
}

const API = "/2010-04-01";

function twilioError(status: number, code: number, message: string): DoubleResponse {
  return { status, json: { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status } };
}

/** Twilio's 401 for a wrong Account SID or auth token (error 20003). */
const AUTHENTICATE = twilioError(401, 20003, "Authenticate");

function notFound(request: DoubleRequest): DoubleResponse {
  return twilioError(404, 20404, `The requested resource ${request.path} was not found`);
}

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
  const book = new DoubleCalls<TwilioCall>("Twilio", options.outbound);
  const { calls } = book;
  const accounts = new Map(options.accounts.map((a) => [a.sid, a]));
  const numbers = new Map<string, TwilioNumber>();
  const created = new Date();
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
  const route = guardedRoutes<TwilioAccountConfig>((request, { account: accountSid }) => {
    const auth = basicAuth(request);
    const account = auth ? accounts.get(auth.user) : undefined;
    if (!auth || !account || account.token !== auth.password || account.sid !== accountSid) return null;
    return account;
  }, AUTHENTICATE);

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
    if (!number || number.accountSid !== accountSid) return notFound(request);
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
    call.askStatusEvents(form.getAll("StatusCallbackEvent"));
    call.askMachineDetection(form.get("MachineDetection"));
    book.add(call);
    const first: OutboundStart = { url, method: (form.get("Method") ?? "POST").toUpperCase(), markup: twiml };
    // Dialing starts after the API has answered with the queued call, as at Twilio.
    const amd = { async: form.get("AsyncAmd") === "true", callback: form.get("AsyncAmdStatusCallback") ?? "" };
    setImmediate(() => startOutbound(call, first, amd));
    return { status: 201, json: callJson(call) };
  }

  function updateCall(request: DoubleRequest, accountSid: string, sid: string): DoubleResponse {
    const call = calls.get(sid);
    if (!call || call.accountSid !== accountSid) return notFound(request);
    const form = formOf(request);
    const status = form.get("Status");
    if (status === "completed" || status === "canceled") {
      if (!call.ended)
        void runner.endCall(call, status === "canceled" && call.answeredAt === null ? "canceled" : "completed");
      return { status: 200, json: callJson(call) };
    }
    if (call.ended || call.status !== "in-progress") {
      return twilioError(400, 21220, "Call is not in-progress. Cannot redirect.");
    }
    const updated = runner.update(call, {
      markup: form.get("Twiml"),
      markupName: "Twiml",
      url: form.get("Url"),
      method: (form.get("Method") ?? "POST").toUpperCase(),
    });
    if (updated === "bad-markup") return twilioError(400, 12100, "Document parse failure");
    if (updated === "nothing") return twilioError(400, 20001, "Nothing to update: give Url, Twiml or Status");
    return { status: 200, json: callJson(call) };
  }

  const server = await startDoubleServer(
    [
      route("GET", `${API}/Accounts/:account.json`, (_request, account) => ({
        status: 200,
        json: { sid: account.sid, friendly_name: "Parley test account", status: "active", type: "Full" },
      })),
      route("GET", `${API}/Accounts/:account/IncomingPhoneNumbers.json`, (request, account) =>
        listNumbers(request, account.sid),
      ),
      route("GET", `${API}/Accounts/:account/IncomingPhoneNumbers/:sid.json`, (request, account, { sid }) => {
        const number = numbers.get(sid ?? "");
        return number?.accountSid === account.sid ? { status: 200, json: numberJson(number) } : notFound(request);
      }),
      route("POST", `${API}/Accounts/:account/IncomingPhoneNumbers/:sid.json`, (request, account, { sid }) =>
        updateNumber(request, account.sid, sid ?? ""),
      ),
      route("POST", `${API}/Accounts/:account/Calls.json`, (request, account) => {
        const to = formOf(request).get("To") ?? "";
        const stall = stalls.get(to);
        if (!stall) return createCall(request, account);
        stalls.delete(to);
        if (stall.stage === "after-create") createCall(request, account);
        stall.arrived();
        return new Promise<DoubleResponse>(() => {});
      }),
      route("GET", `${API}/Accounts/:account/Calls.json`, (request, account) => listCalls(request, account.sid)),
      route("GET", `${API}/Accounts/:account/Calls/:sid.json`, (request, account, { sid }) => {
        const call = calls.get(sid ?? "");
        return call?.accountSid === account.sid ? { status: 200, json: callJson(call) } : notFound(request);
      }),
      route("POST", `${API}/Accounts/:account/Calls/:sid.json`, (request, account, { sid }) =>
        updateCall(request, account.sid, sid ?? ""),
      ),
    ],
    notFound,
  );

  // ── calls ────────────────────────────────────────────────────────────────────

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
  const signedRequest: SignedWebhook<TwilioCall> = (call, url, method, params) => {
    const token = call.forgeSignature
      ? `not-${accounts.get(call.accountSid)?.token ?? ""}`
      : (accounts.get(call.accountSid)?.token ?? "");
    if (method === "GET") {
      const target = new URL(url);
      for (const [key, value] of Object.entries(params)) target.searchParams.append(key, value);
      const full = target.toString();
      return sendWebhook(book.webhooks, server.now, {
        url: full,
        method: "GET",
        headers: { "X-Twilio-Signature": twilioSignature(token, full, {}), "User-Agent": "TwilioProxy/1.1" },
        body: "",
      });
    }
    return sendWebhook(book.webhooks, server.now, {
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
  };

  const runner = new MarkupRunner<TwilioCall>({
    now: () => server.now(),
    book,
    dialTalkMs: options.dialTalkMs ?? 300,
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
    const behaviour = book.outbound;
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
    return runner.answerInbound(call, inbound, owned.voiceUrl, owned.voiceMethod);
  }

  return {
    ...book.face(server, ringInbound, (call) => runner.endCall(call, "completed")),
    numbers,
    conferences: runner.conferences,
    stallNextCall: (to, stage) => new Promise<void>((arrived) => stalls.set(to, { stage, arrived })),
  };
}

/** Media Streams, Twilio's side: JSON text messages, 8 kHz μ-law payloads in base64. */
export class TwilioMediaWire implements StreamWire {
  private readonly stream = new MulawMediaStream();

  constructor(
    private readonly accountSid: string,
    private readonly callSid: string,
    readonly streamSid: string,
    private readonly customParameters: Record<string, string>,
  ) {}

  opening(): string[] {
    return [
      JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }),
      JSON.stringify({
        event: "start",
        sequenceNumber: this.stream.next(),
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
    const media = this.stream.media(frame);
    return [JSON.stringify({ event: "media", sequenceNumber: this.stream.next(), media, streamSid: this.streamSid })];
  }

  dtmf(digit: string): string[] {
    return [
      JSON.stringify({
        event: "dtmf",
        streamSid: this.streamSid,
        sequenceNumber: this.stream.next(),
        dtmf: { track: "inbound_track", digit },
      }),
    ];
  }

  markPlayed(name: string): string[] {
    return [
      JSON.stringify({ event: "mark", sequenceNumber: this.stream.next(), streamSid: this.streamSid, mark: { name } }),
    ];
  }

  /** Twilio answers a clear by sending back every mark it dropped. */
  cleared(droppedMarks: string[]): string[] {
    return droppedMarks.flatMap((name) => this.markPlayed(name));
  }

  closing(): string[] {
    return [
      JSON.stringify({
        event: "stop",
        sequenceNumber: this.stream.next(),
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
    return this.stream.commands(message, raw);
  }
}
