import { randomUUID } from "node:crypto";
import { bytesToPcm, pcmToBytes } from "../../src/audio/pcm.ts";
import { Resampler } from "../../src/audio/resample.ts";
import { DoubleCalls, type OutboundBehaviour, type SignedWebhook, type TelephonyDouble } from "./double-calls.ts";
import {
  basicAuth,
  bodyParamsOf,
  type DoubleRequest,
  type DoubleResponse,
  type DoubleRoute,
  type GuardedHandler,
  guardedRoutes,
  randomHex,
  sendWebhook,
  startDoubleServer,
} from "./double-server.ts";
import { MarkupCall, MarkupRunner, type StatusEvent } from "./markup-runner.ts";
import type { XmlElement } from "./markup-xml.ts";
import { MulawCodec, objectField, parseJsonMessage } from "./mulaw-json-wire.ts";
import type { StreamCommand, StreamWire } from "./phone-leg.ts";
import { plivoSignatureV3 } from "./plivo-signature.ts";
import type { CallHandle, InboundOptions } from "./simulated-call.ts";

/**
 * A local Plivo (API v1): numbers (listed with limit/offset, without "+", as Plivo writes them),
 * applications (answer_url, hangup_url) and the number's app_id, calls (create, transfer with
 * aleg_url, DTMF, hangup), webhooks signed with X-Plivo-Signature-V3 (the stream handshake too),
 * Plivo XML (<Stream>, <Dial>, <DTMF>, <Wait>, <Redirect>, <Hangup>) and the audio stream protocol
 * (start, media, dtmf, playedStream, clearedAudio; playAudio, checkpoint and clearAudio back).
 * Written from Plivo's public docs and stream SDK, independently of Parley's adapter.
 */

export interface PlivoAccountConfig {
  authId: string;
  authToken: string;
  /** E.164 numbers ("+14155550100"); Plivo lists and sends them without the "+". */
  numbers: string[];
}

export interface PlivoDoubleOptions {
  accounts: PlivoAccountConfig[];
  /** Default limit of the numbers list (Plivo's is 20, its maximum too). */
  pageSize?: number;
  outbound?: OutboundBehaviour;
  dialTalkMs?: number;
}

export interface PlivoNumber {
  /** Plivo's form: digits without "+". */
  number: string;
  authId: string;
  appId: string | null;
  alias: string;
  updates: { at: number; params: Record<string, string> }[];
}

export interface PlivoApplication {
  appId: string;
  authId: string;
  appName: string;
  answerUrl: string;
  answerMethod: string;
  hangupUrl: string;
  hangupMethod: string;
}

export class PlivoCall extends MarkupCall {
  requestUuid: string | null = null;
  ringUrl = "";
  answerUrl = "";
  answerMethod = "POST";
  machineDetectionUrl = "";
}

export type PlivoCallHandle = CallHandle<PlivoCall>;

/**
 * The Plivo double: `origin` stands in for https://api.plivo.com; calls are keyed by CallUUID, and
 * `ringInbound` takes E.164 numbers (Plivo drops the "+" on the wire).
 */
export interface PlivoDouble extends TelephonyDouble<PlivoCall> {
  /** Numbers by Plivo's form (digits without "+"). */
  numbers: Map<string, PlivoNumber>;
  applications: Map<string, PlivoApplication>;
}

/** Plivo's answer to wrong credentials (HTTP 401). */
const UNAUTHORIZED: DoubleResponse = {
  status: 401,
  json: { error: "Could not verify your access level for that URL.\nYou have to login with proper credentials" },
};

function plivoError(status: number, error: string): DoubleResponse {
  return { status, json: { api_id: randomUUID(), error } };
}

/** Plivo writes numbers as digits without "+". */
function plain(number: string): string {
  return number.replace(/^\+/, "");
}

const HANGUP_CAUSE: Record<string, string> = {
  completed: "NORMAL_CLEARING",
  busy: "USER_BUSY",
  "no-answer": "NO_ANSWER",
  failed: "UNALLOCATED_NUMBER",
  canceled: "ORIGINATOR_CANCEL",
};

export async function startPlivoDouble(options: PlivoDoubleOptions): Promise<PlivoDouble> {
  const pageSizeDefault = options.pageSize ?? 20;
  const book = new DoubleCalls<PlivoCall>("Plivo", options.outbound);
  const { calls } = book;
  const accounts = new Map(options.accounts.map((a) => [a.authId, a]));
  const numbers = new Map<string, PlivoNumber>();
  const applications = new Map<string, PlivoApplication>();
  const added = new Date().toISOString().replace("T", " ").slice(0, 19);
  for (const account of options.accounts) {
    for (const number of account.numbers) {
      numbers.set(plain(number), {
        number: plain(number),
        authId: account.authId,
        appId: null,
        alias: "",
        updates: [],
      });
    }
  }

  /** Basic auth with the Auth ID and token; the Auth ID must be the one in the path. */
  const route = guardedRoutes<PlivoAccountConfig>((request, { auth: authId }) => {
    const auth = basicAuth(request);
    const account = auth ? accounts.get(auth.user) : undefined;
    if (!auth || !account || account.authToken !== auth.password || account.authId !== authId) return null;
    return account;
  }, UNAUTHORIZED);

  const base = (authId: string) => `/v1/Account/${authId}`;

  function numberJson(n: PlivoNumber): Record<string, unknown> {
    return {
      number: n.number,
      alias: n.alias || null,
      application: n.appId ? `${base(n.authId)}/Application/${n.appId}/` : null,
      number_type: "local",
      country: n.number.startsWith("1") ? "United States" : "",
      region: n.number.startsWith("1") ? "California, UNITED STATES" : "",
      added_on: added,
      active: true,
      voice_enabled: true,
      sms_enabled: true,
      mms_enabled: false,
      monthly_rental_rate: "0.50000",
      carrier: "Plivo",
      sub_account: null,
      resource_uri: `${base(n.authId)}/Number/${n.number}/`,
    };
  }

  function applicationJson(app: PlivoApplication): Record<string, unknown> {
    return {
      app_id: app.appId,
      app_name: app.appName,
      answer_url: app.answerUrl,
      answer_method: app.answerMethod,
      hangup_url: app.hangupUrl,
      hangup_method: app.hangupMethod,
      fallback_answer_url: "",
      fallback_method: "POST",
      default_app: false,
      enabled: true,
      public_uri: false,
      resource_uri: `${base(app.authId)}/Application/${app.appId}/`,
    };
  }

  function callJson(call: PlivoCall): Record<string, unknown> {
    return {
      api_id: randomUUID(),
      call_uuid: call.id,
      call_status: call.status,
      call_direction: call.vendorDirection,
      from_number: plain(call.from),
      to_number: plain(call.to),
      request_uuid: call.requestUuid,
      call_duration: call.ended ? call.durationSeconds() : null,
      answer_time: null,
      end_time: null,
    };
  }

  function listNumbers(request: DoubleRequest, authId: string): DoubleResponse {
    const limit = Math.min(20, Math.max(1, Number(request.query.get("limit") ?? pageSizeDefault) || 20));
    const offset = Math.max(0, Number(request.query.get("offset") ?? 0) || 0);
    const mine = [...numbers.values()].filter((n) => n.authId === authId);
    const slice = mine.slice(offset, offset + limit);
    const path = `${base(authId)}/Number/`;
    return {
      status: 200,
      json: {
        api_id: randomUUID(),
        meta: {
          limit,
          offset,
          total_count: mine.length,
          next: offset + limit < mine.length ? `${path}?limit=${limit}&offset=${offset + limit}` : null,
          previous: offset > 0 ? `${path}?limit=${limit}&offset=${Math.max(0, offset - limit)}` : null,
        },
        objects: slice.map(numberJson),
      },
    };
  }

  function saveApplication(params: Map<string, string>, existing: PlivoApplication | null, authId: string) {
    const answerUrl = params.get("answer_url") ?? existing?.answerUrl ?? "";
    const appName = params.get("app_name") ?? existing?.appName ?? "";
    if (!appName) return plivoError(400, "app_name is mandatory");
    if (!/^https?:\/\//.test(answerUrl)) return plivoError(400, "answer_url is not a valid URL");
    const app: PlivoApplication = {
      appId: existing?.appId ?? String(Math.floor(Math.random() * 1e17)),
      authId,
      appName,
      answerUrl,
      answerMethod: (params.get("answer_method") ?? existing?.answerMethod ?? "POST").toUpperCase(),
      hangupUrl: params.get("hangup_url") ?? existing?.hangupUrl ?? answerUrl,
      hangupMethod: (params.get("hangup_method") ?? existing?.hangupMethod ?? "POST").toUpperCase(),
    };
    applications.set(app.appId, app);
    return app;
  }

  /** A new call of the account; the double keeps its numbers in E.164 while Plivo writes them without "+". */
  const newCall = (authId: string, direction: "inbound" | "outbound", from: string, to: string, forged: boolean) =>
    new PlivoCall(authId, direction, randomUUID(), `+${plain(from)}`, `+${plain(to)}`, server.now, forged);

  function createCall(request: DoubleRequest, account: PlivoAccountConfig): DoubleResponse {
    const params = bodyParamsOf(request, false);
    const from = params.get("from") ?? "";
    const to = params.get("to") ?? "";
    const answerUrl = params.get("answer_url") ?? "";
    if (!from || !to || !answerUrl) return plivoError(400, "from, to and answer_url are mandatory");
    if (!/^https?:\/\//.test(answerUrl)) return plivoError(400, "answer_url is not a valid URL");
    const owned = numbers.get(plain(from));
    if (!owned || owned.authId !== account.authId) return plivoError(400, "from is not a valid number of your account");
    const call = newCall(account.authId, "outbound", from, to, false);
    call.requestUuid = randomUUID();
    call.answerUrl = answerUrl;
    call.answerMethod = (params.get("answer_method") ?? "POST").toUpperCase();
    call.ringUrl = params.get("ring_url") ?? "";
    call.statusCallback = params.get("hangup_url") ?? answerUrl;
    call.statusCallbackMethod = (params.get("hangup_method") ?? "POST").toUpperCase();
    // Ring and hangup each go to their own URL; routing happens in sendStatus.
    call.statusEvents = new Set<StatusEvent>(call.ringUrl ? ["ringing", "completed"] : ["completed"]);
    const detection = params.get("machine_detection");
    call.machineDetection = detection === "true" || detection === "hangup";
    call.machineDetectionUrl = params.get("machine_detection_url") ?? "";
    book.add(call);
    const behaviour = book.outbound;
    setImmediate(() => {
      void runner.runOutbound(call, behaviour, { url: call.answerUrl, method: call.answerMethod, markup: "" }, () => {
        if (!call.machineDetection) return;
        const machine = behaviour.outcome === "machine";
        // Plivo reports machine detection asynchronously, to machine_detection_url.
        if (call.machineDetectionUrl)
          void signedRequest(call, call.machineDetectionUrl, "POST", { ...callParams(call), Machine: String(machine) });
      });
    });
    return { status: 201, json: { api_id: randomUUID(), message: "call fired", request_uuid: call.requestUuid } };
  }

  async function transferCall(request: DoubleRequest, call: PlivoCall): Promise<DoubleResponse> {
    const params = bodyParamsOf(request, false);
    const legs = params.get("legs") ?? "aleg";
    const url = params.get("aleg_url") ?? "";
    if (call.ended) return plivoError(404, "call not found");
    if (legs !== "aleg" && legs !== "both") return plivoError(400, "legs must be aleg, bleg or both");
    if (!/^https?:\/\//.test(url)) return plivoError(400, "aleg_url is mandatory for legs=aleg");
    call.note(`transfer: aleg_url ${url}`);
    void runner.redirect(call, url, (params.get("aleg_method") ?? "POST").toUpperCase());
    return { status: 202, json: { api_id: randomUUID(), message: "call transferred" } };
  }

  // Functions, not constants: every Plivo answer carries a fresh api_id.
  const notFound = () => plivoError(404, "not found");
  const callNotFound = () => plivoError(404, "call not found");
  /** The account's call with this CallUUID, if any. */
  const callOf = (account: PlivoAccountConfig, uuid: string | undefined) => {
    const call = calls.get(uuid ?? "");
    return call?.accountSid === account.authId ? call : undefined;
  };

  /** POST of a number: `app_id` links it to an application ("" unlinks), `alias` renames it. */
  const updateNumber: GuardedHandler<PlivoAccountConfig> = (request, account, { number }) => {
    const n = numbers.get(plain(number ?? ""));
    if (n?.authId !== account.authId) return notFound();
    const params = bodyParamsOf(request, false);
    n.updates.push({ at: server.now(), params: Object.fromEntries(params) });
    const appId = params.get("app_id");
    if (appId !== undefined) {
      if (appId !== "" && !applications.has(appId)) return plivoError(404, "application not found");
      n.appId = appId || null;
    }
    if (params.has("alias")) n.alias = params.get("alias") ?? "";
    return { status: 202, json: { api_id: randomUUID(), message: "changed" } };
  };

  /** GET, POST (update) or DELETE of one application of the account. */
  const application =
    (method: string): GuardedHandler<PlivoAccountConfig> =>
    (request, account, { app: appId }) => {
      const existing = applications.get(appId ?? "");
      if (existing?.authId !== account.authId) return notFound();
      if (method === "DELETE") {
        applications.delete(existing.appId);
        return { status: 204 };
      }
      if (method === "POST") {
        const app = saveApplication(bodyParamsOf(request, false), existing, account.authId);
        if ("status" in app) return app;
        return { status: 202, json: { api_id: randomUUID(), message: "changed" } };
      }
      return { status: 200, json: { api_id: randomUUID(), ...applicationJson(existing) } };
    };

  const routes: DoubleRoute[] = [
    route("GET", "/v1/Account/:auth/", (_request, account) => ({
      status: 200,
      json: {
        api_id: randomUUID(),
        auth_id: account.authId,
        account_type: "standard",
        name: "Parley test",
        resource_uri: `${base(account.authId)}/`,
      },
    })),
    route("GET", "/v1/Account/:auth/Number/", (request, account) => listNumbers(request, account.authId)),
    route("GET", "/v1/Account/:auth/Number/:number/", (_request, account, { number }) => {
      const n = numbers.get(plain(number ?? ""));
      return n?.authId === account.authId
        ? { status: 200, json: { api_id: randomUUID(), ...numberJson(n) } }
        : notFound();
    }),
    route("POST", "/v1/Account/:auth/Number/:number/", updateNumber),
    route("GET", "/v1/Account/:auth/Application/", (_request, account) => {
      const mine = [...applications.values()].filter((a) => a.authId === account.authId);
      return {
        status: 200,
        json: {
          api_id: randomUUID(),
          meta: { limit: 20, offset: 0, total_count: mine.length, next: null, previous: null },
          objects: mine.map(applicationJson),
        },
      };
    }),
    route("POST", "/v1/Account/:auth/Application/", (request, account) => {
      const app = saveApplication(bodyParamsOf(request, false), null, account.authId);
      if ("status" in app) return app;
      return { status: 201, json: { api_id: randomUUID(), app_id: app.appId, message: "created" } };
    }),
    ...["GET", "POST", "DELETE"].map((method) =>
      route(method, "/v1/Account/:auth/Application/:app/", application(method)),
    ),
    route("POST", "/v1/Account/:auth/Call/", (request, account) => createCall(request, account)),
    route("GET", "/v1/Account/:auth/Call/:call/", (_request, account, { call: uuid }) => {
      const call = callOf(account, uuid);
      return call ? { status: 200, json: callJson(call) } : callNotFound();
    }),
    route("POST", "/v1/Account/:auth/Call/:call/", (request, account, { call: uuid }) => {
      const call = callOf(account, uuid);
      return call ? transferCall(request, call) : callNotFound();
    }),
    route("DELETE", "/v1/Account/:auth/Call/:call/", (_request, account, { call: uuid }) => {
      const call = callOf(account, uuid);
      if (!call || call.ended) return callNotFound();
      void runner.endCall(call, "completed");
      return { status: 204 };
    }),
    route("DELETE", "/v1/Account/:auth/Request/:request/", (_request, account, { request: requestUuid }) => {
      const call = [...calls.values()].find((c) => c.requestUuid === requestUuid && c.accountSid === account.authId);
      if (!call || call.ended) return plivoError(404, "request not found");
      void runner.endCall(call, "canceled");
      return { status: 204 };
    }),
    route("POST", "/v1/Account/:auth/Call/:call/DTMF/", (request, account, { call: uuid }) => {
      const call = callOf(account, uuid);
      if (!call || call.ended) return callNotFound();
      const digits = bodyParamsOf(request, false).get("digits") ?? "";
      if (!/^[0-9*#wW]+$/.test(digits)) return plivoError(400, "digits is mandatory and must be DTMF digits");
      runner.recordDtmf(call, digits);
      return { status: 202, json: { api_id: randomUUID(), message: "digits sent" } };
    }),
  ];
  const server = await startDoubleServer(routes, notFound);

  /** The parameters Plivo sends with its call webhooks (numbers without "+"). */
  function callParams(call: PlivoCall): Record<string, string> {
    const params: Record<string, string> = {
      CallUUID: call.id,
      ALegUUID: call.id,
      From: plain(call.from),
      To: plain(call.to),
      CallStatus: call.status,
      Direction: call.vendorDirection,
      Event: "StartApp",
      BillRate: "0.00850",
      CallerName: plain(call.from),
      SessionStart: new Date().toISOString().replace("T", " ").slice(0, 26),
      ParentAuthID: call.accountSid,
      STIRVerification: "Not Applicable",
    };
    if (call.requestUuid) {
      params.RequestUUID = call.requestUuid;
      params.ALegRequestUUID = call.requestUuid;
    }
    return params;
  }

  const signedRequest: SignedWebhook<PlivoCall> = (call, url, method, params) => {
    const token = accounts.get(call.accountSid)?.authToken ?? "";
    const key = call.forgeSignature ? `not-${token}` : token;
    const nonce = randomHex(10);
    const verb = method === "GET" ? "GET" : "POST";
    const target = verb === "GET" ? `${url}${url.includes("?") ? "&" : "?"}${new URLSearchParams(params)}` : url;
    const signature = plivoSignatureV3(key, verb, target, verb === "GET" ? {} : params, nonce);
    return sendWebhook(book.webhooks, server.now, {
      url: target,
      method: verb,
      headers: {
        ...(verb === "POST" ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
        "X-Plivo-Signature-V3": signature,
        "X-Plivo-Signature-Ma-V3": signature,
        "X-Plivo-Signature-V3-Nonce": nonce,
        "User-Agent": "PlivoHTTP/1.0",
      },
      body: verb === "POST" ? new URLSearchParams(params).toString() : "",
    });
  };

  const runner = new MarkupRunner<PlivoCall>({
    now: () => server.now(),
    book,
    dialTalkMs: options.dialTalkMs ?? 300,
    requestMarkup: (call, url, method) => signedRequest(call, url, method, callParams(call)),
    sendStatus: async (call) => {
      if (call.status === "ringing") {
        await signedRequest(call, call.ringUrl, "POST", { ...callParams(call), Event: "Ring" });
        return;
      }
      const status = call.status === "canceled" ? "cancel" : call.status;
      const seconds = String(call.durationSeconds());
      await signedRequest(call, call.statusCallback, call.statusCallbackMethod, {
        ...callParams(call),
        Event: "Hangup",
        CallStatus: status,
        HangupCause: HANGUP_CAUSE[call.status] ?? "NORMAL_CLEARING",
        HangupSource: call.status === "completed" ? "Callee" : "Plivo",
        Duration: seconds,
        BillDuration: seconds,
        TotalCost: (Number(seconds) * 0.0085).toFixed(5),
      });
    },
    streamWire: (call, stream) => {
      const contentType = (stream.attributes.contentType ?? "audio/x-mulaw;rate=8000").replace(/\s/g, "");
      const format = /^audio\/x-mulaw;rate=8000$/.test(contentType)
        ? { encoding: "audio/x-mulaw", rate: 8000 }
        : /^audio\/x-l16;rate=(8000|16000)$/.test(contentType)
          ? { encoding: "audio/x-l16", rate: Number(contentType.split("=")[1]) }
          : null;
      if (!format) return `Unsupported <Stream contentType="${contentType}">`;
      return new PlivoStreamWire(
        call,
        randomUUID(),
        format,
        stream.attributes.bidirectional === "true",
        extraHeaders(stream),
      );
    },
    translate: plivoToTwiml,
    streamHeaders: (call, url) => streamHeaders(call, url),
  });

  /** The stream handshake is signed too (GET on the stream URL). */
  function streamHeaders(call: PlivoCall, url: string): Record<string, string> {
    const token = accounts.get(call.accountSid)?.authToken ?? "";
    const nonce = randomHex(10);
    const signature = plivoSignatureV3(
      call.forgeSignature ? `not-${token}` : token,
      "GET",
      url.replace(/^ws/, "http"),
      {},
      nonce,
    );
    return { "X-Plivo-Signature-V3": signature, "X-Plivo-Signature-V3-Nonce": nonce };
  }

  async function ringInbound(number: string, from: string, inbound: InboundOptions = {}): Promise<PlivoCallHandle> {
    const owned = numbers.get(plain(number));
    if (!owned) throw new Error(`The Plivo double has no number ${number}`);
    const app = owned.appId ? applications.get(owned.appId) : undefined;
    if (!app) throw new Error(`Number ${number} has no application: import it into Parley first`);
    const call = newCall(owned.authId, "inbound", from, owned.number, Boolean(inbound.forgeSignature));
    call.statusCallback = app.hangupUrl;
    call.statusCallbackMethod = app.hangupMethod;
    return runner.answerInbound(call, inbound, app.answerUrl, app.answerMethod);
  }

  return {
    ...book.face(server, ringInbound, (call) => runner.endCall(call, "completed")),
    numbers,
    applications,
  };
}

/** extraHeaders="k1=v1,k2=v2" as the JSON text the start event carries. */
function extraHeaders(stream: XmlElement): string {
  const pairs: Record<string, string> = {};
  for (const part of (stream.attributes.extraHeaders ?? "").split(",")) {
    const eq = part.indexOf("=");
    if (eq > 0) pairs[part.slice(0, eq).trim()] = part.slice(eq + 1).trim();
  }
  return JSON.stringify(pairs);
}

/**
 * Plivo XML as the TwiML verbs the runner executes: <Stream keepCallAlive="true"> holds the call like
 * <Connect><Stream>, without it the stream runs beside the rest (<Start><Stream>); <DTMF> is <Play
 * digits>, <Wait> is <Pause>, <User> is <Sip>.
 */
export function plivoToTwiml(root: XmlElement): XmlElement {
  const verb = (element: XmlElement): XmlElement | null => {
    switch (element.name) {
      case "Stream": {
        const stream: XmlElement = { ...element, attributes: { ...element.attributes, url: element.text.trim() } };
        const holder = element.attributes.keepCallAlive === "true" ? "Connect" : "Start";
        return { name: holder, attributes: {}, children: [stream], text: "" };
      }
      case "DTMF":
        return { name: "Play", attributes: { digits: element.text.trim() }, children: [], text: "" };
      case "Wait":
        return { name: "Pause", attributes: { length: element.attributes.length ?? "1" }, children: [], text: "" };
      case "Dial":
        return {
          ...element,
          children: element.children.map((child) => (child.name === "User" ? { ...child, name: "Sip" } : child)),
        };
      default:
        return element;
    }
  };
  return { ...root, children: root.children.map(verb).filter((v): v is XmlElement => v !== null) };
}

/** Plivo's audio stream, Plivo's side: JSON events, caller audio in the <Stream contentType>. */
export class PlivoStreamWire implements StreamWire {
  private sequence = 0;
  private chunk = 0;
  private readonly mulaw = new MulawCodec();
  private readonly down: Resampler;
  private readonly upFrom8k = new Resampler(8_000, 16_000);

  constructor(
    private readonly call: PlivoCall,
    readonly streamId: string,
    private readonly format: { encoding: string; rate: number },
    private readonly bidirectional: boolean,
    private readonly headers: string,
  ) {
    this.down = new Resampler(16_000, format.rate);
  }

  private next(): number {
    return this.sequence++;
  }

  opening(): string[] {
    return [
      JSON.stringify({
        event: "start",
        sequenceNumber: this.next(),
        start: {
          callId: this.call.id,
          streamId: this.streamId,
          accountId: this.call.accountSid,
          tracks: ["inbound"],
          mediaFormat: { encoding: this.format.encoding, sampleRate: this.format.rate },
        },
        extra_headers: this.headers,
      }),
    ];
  }

  audio(frame: Int16Array): string[] {
    this.chunk++;
    const payload =
      this.format.encoding === "audio/x-mulaw"
        ? this.mulaw.encode(frame)
        : pcmToBytes(this.down.process(frame)).toString("base64");
    return [
      JSON.stringify({
        event: "media",
        sequenceNumber: this.next(),
        streamId: this.streamId,
        media: { track: "inbound", timestamp: String(Date.now()), chunk: this.chunk, payload },
        extra_headers: this.headers,
      }),
    ];
  }

  dtmf(digit: string): string[] {
    return [
      JSON.stringify({
        event: "dtmf",
        sequenceNumber: this.next(),
        streamId: this.streamId,
        dtmf: { track: "inbound", digit, timestamp: String(Date.now()) },
        extra_headers: this.headers,
      }),
    ];
  }

  markPlayed(name: string): string[] {
    return [JSON.stringify({ event: "playedStream", sequenceNumber: this.next(), streamId: this.streamId, name })];
  }

  cleared(): string[] {
    return [JSON.stringify({ event: "clearedAudio", sequenceNumber: this.next(), streamId: this.streamId })];
  }

  /** Plivo ends a stream by closing the socket; there is no stop event. */
  closing(): string[] {
    return [];
  }

  decode(data: Buffer, isBinary: boolean): StreamCommand[] {
    const raw = data.toString("utf8");
    const message = parseJsonMessage(data, isBinary);
    if (!message) return [{ type: "invalid", reason: "not a JSON text message", raw }];
    if (!this.bidirectional) return [{ type: "invalid", reason: 'the <Stream> is not bidirectional="true"', raw }];
    switch (message.event) {
      case "playAudio": {
        const media = objectField(message, "media");
        const payload = media?.payload;
        if (typeof payload !== "string") return [{ type: "invalid", reason: "playAudio without a payload", raw }];
        const pcm = this.decodeAudio(String(media?.contentType), Number(media?.sampleRate), payload);
        return pcm
          ? [{ type: "audio", pcm }]
          : [
              {
                type: "invalid",
                reason: `unsupported playAudio ${String(media?.contentType)} at ${String(media?.sampleRate)}`,
                raw,
              },
            ];
      }
      case "checkpoint":
        if (message.streamId !== this.streamId)
          return [{ type: "invalid", reason: "checkpoint for another streamId", raw }];
        return typeof message.name === "string"
          ? [{ type: "mark", name: message.name }]
          : [{ type: "invalid", reason: "checkpoint without a name", raw }];
      case "clearAudio":
        if (message.streamId !== this.streamId)
          return [{ type: "invalid", reason: "clearAudio for another streamId", raw }];
        return [{ type: "clear" }];
      default:
        return [{ type: "invalid", reason: `unknown event ${String(message.event)}`, raw }];
    }
  }

  private decodeAudio(contentType: string, sampleRate: number, payload: string): Int16Array | null {
    if (contentType === "audio/x-mulaw" && sampleRate === 8000) return this.mulaw.decode(payload);
    if (contentType === "audio/x-l16" && (sampleRate === 8000 || sampleRate === 16000)) {
      const pcm = bytesToPcm(Buffer.from(payload, "base64"));
      return sampleRate === 16000 ? pcm : this.upFrom8k.process(pcm);
    }
    return null;
  }
}
