import { generateKeyPairSync, type KeyObject, randomUUID, sign } from "node:crypto";
import { DoubleCalls, type OutboundBehaviour, type SignedWebhook, type TelephonyDouble } from "./double-calls.ts";
import {
  bearerToken,
  bodyParamsOf,
  type DoubleRequest,
  type DoubleResponse,
  type DoubleRoute,
  type GuardedHandler,
  guardedRoutes,
  jsonObjectOf,
  sendWebhook,
  startDoubleServer,
} from "./double-server.ts";
import { MarkupCall, MarkupRunner } from "./markup-runner.ts";
import { MulawMediaStream, parseJsonMessage } from "./mulaw-json-wire.ts";
import type { StreamCommand, StreamWire } from "./phone-leg.ts";
import type { CallHandle, InboundOptions } from "./simulated-call.ts";

/**
 * A local Telnyx (API v2): phone numbers, TeXML applications (a number's voice webhook is the
 * voice_url of the TeXML application its connection_id names), TeXML calls (create, update), the
 * Call Control actions transfer / send_dtmf / hangup, webhooks signed with Ed25519
 * (telnyx-signature-ed25519 over "timestamp|body", telnyx-timestamp), TeXML execution and the
 * media streaming WebSocket (connected, start, media, dtmf, mark, stop; media, mark and clear back
 * when <Stream bidirectionalMode="rtp">). Written from Telnyx's public docs, independently of
 * Parley's adapter.
 */

export interface TelnyxAccountConfig {
  apiKey: string;
  /** The account's id (TeXML AccountSid, user_id); a UUID is made up when absent. */
  accountSid?: string;
  numbers: string[];
}

export interface TelnyxDoubleOptions {
  accounts: TelnyxAccountConfig[];
  /** Default page[size] of the numbers list (Telnyx's is 20). */
  pageSize?: number;
  outbound?: OutboundBehaviour;
  dialTalkMs?: number;
}

export interface TelnyxNumber {
  id: string;
  accountSid: string;
  phoneNumber: string;
  connectionId: string | null;
  updates: { at: number; body: Record<string, unknown> }[];
}

export interface TexmlApplication {
  id: string;
  accountSid: string;
  friendlyName: string;
  voiceUrl: string;
  voiceMethod: string;
  statusCallback: string;
  statusCallbackMethod: string;
}

export class TelnyxCall extends MarkupCall {
  connectionId = "";
  readonly callSessionId = randomUUID();
}

export type TelnyxCallHandle = CallHandle<TelnyxCall>;

/** The Telnyx double: `origin` stands in for https://api.telnyx.com. */
export interface TelnyxDouble extends TelephonyDouble<TelnyxCall> {
  /** The Ed25519 public key webhooks are signed with: base64 of the raw 32 bytes, as Mission Control shows it. */
  publicKey: string;
  numbers: Map<string, TelnyxNumber>;
  applications: Map<string, TexmlApplication>;
}

function telnyxError(status: number, code: string, title: string, detail: string, pointer?: string): DoubleResponse {
  return {
    status,
    json: {
      errors: [
        {
          code,
          title,
          detail,
          ...(pointer ? { source: { pointer } } : {}),
          meta: { url: `https://developers.telnyx.com/docs/overview/errors/${code}` },
        },
      ],
    },
  };
}

/** Telnyx's 401 for a missing or unknown API key (error 10009). */
const AUTHENTICATION_FAILED = telnyxError(
  401,
  "10009",
  "Authentication failed",
  "Could not understand the provided credentials.",
);
const NOT_FOUND = telnyxError(404, "10005", "Resource not found", "The requested resource or URL could not be found.");
const CALL_ENDED = telnyxError(
  422,
  "90018",
  "Call has already ended",
  "This call is no longer active and can't receive commands.",
);

/** Telnyx ids of numbers and applications are long decimal strings. */
function numericId(): string {
  return `${Date.now()}${Math.floor(Math.random() * 1e6)
    .toString()
    .padStart(6, "0")}`;
}

function callControlId(): string {
  return `v3:${Buffer.from(crypto.getRandomValues(new Uint8Array(30))).toString("base64url")}`;
}

/** The raw 32-byte Ed25519 public key in base64 (the SPKI DER ends with it). */
function rawPublicKey(key: KeyObject): string {
  const der = key.export({ format: "der", type: "spki" });
  return der.subarray(der.length - 32).toString("base64");
}

export async function startTelnyxDouble(options: TelnyxDoubleOptions): Promise<TelnyxDouble> {
  const pageSizeDefault = options.pageSize ?? 20;
  const book = new DoubleCalls<TelnyxCall>("Telnyx", options.outbound);
  const { calls } = book;
  const dialTalkMs = options.dialTalkMs ?? 300;
  const keys = generateKeyPairSync("ed25519");
  const forgedKeys = generateKeyPairSync("ed25519");
  const accounts = options.accounts.map((a) => ({ ...a, accountSid: a.accountSid ?? randomUUID() }));
  const numbers = new Map<string, TelnyxNumber>();
  const applications = new Map<string, TexmlApplication>();
  const created = new Date().toISOString();
  for (const account of accounts) {
    for (const phoneNumber of account.numbers) {
      const id = numericId();
      numbers.set(id, { id, accountSid: account.accountSid, phoneNumber, connectionId: null, updates: [] });
    }
  }

  type Account = (typeof accounts)[number];
  /** Bearer API key; the account it belongs to answers. */
  const route = guardedRoutes<Account>((request) => {
    const token = bearerToken(request);
    return accounts.find((a) => a.apiKey === token) ?? null;
  }, AUTHENTICATION_FAILED);

  function numberJson(n: TelnyxNumber): Record<string, unknown> {
    const app = n.connectionId ? applications.get(n.connectionId) : undefined;
    return {
      id: n.id,
      record_type: "phone_number",
      phone_number: n.phoneNumber,
      status: "active",
      connection_id: n.connectionId,
      connection_name: app?.friendlyName ?? null,
      tags: [],
      external_pin: null,
      t38_fax_gateway_enabled: false,
      purchased_at: created,
      created_at: created,
      updated_at: new Date().toISOString(),
      phone_number_type: "local",
      country_iso_alpha2: n.phoneNumber.startsWith("+1") ? "US" : null,
      billing_group_id: null,
      emergency_enabled: false,
      call_forwarding_enabled: true,
      cnam_listing_enabled: false,
      caller_id_name_enabled: false,
      call_recording_enabled: false,
    };
  }

  function applicationJson(app: TexmlApplication): Record<string, unknown> {
    return {
      id: app.id,
      record_type: "texml_application",
      active: true,
      friendly_name: app.friendlyName,
      voice_url: app.voiceUrl,
      voice_method: app.voiceMethod.toLowerCase(),
      voice_fallback_url: null,
      status_callback: app.statusCallback || null,
      status_callback_method: app.statusCallbackMethod.toLowerCase(),
      anchorsite_override: "Latency",
      dtmf_type: "RFC 2833",
      first_command_timeout: false,
      first_command_timeout_secs: 30,
      tags: [],
      created_at: created,
      updated_at: new Date().toISOString(),
    };
  }

  function callJson(call: TelnyxCall): Record<string, unknown> {
    return {
      account_sid: call.accountSid,
      sid: call.id,
      call_sid: call.id,
      from: call.from,
      to: call.to,
      status: call.status,
      direction: call.vendorDirection,
      answered_by: call.answeredBy,
      duration: call.ended ? String(call.durationSeconds()) : null,
      start_time: call.answeredAt === null ? null : new Date().toISOString(),
      end_time: call.endedAt === null ? null : new Date().toISOString(),
      date_created: created,
      date_updated: new Date().toISOString(),
      uri: `/v2/texml/Accounts/${call.accountSid}/Calls/${call.id}`,
    };
  }

  /** page[number] (from 1) and page[size], as Telnyx pages its lists. */
  function page<T>(request: DoubleRequest, items: T[]): { slice: T[]; meta: Record<string, number> } {
    const size = Math.min(250, Math.max(1, Number(request.query.get("page[size]") ?? pageSizeDefault) || 20));
    const number = Math.max(1, Number(request.query.get("page[number]") ?? 1) || 1);
    return {
      slice: items.slice((number - 1) * size, number * size),
      meta: {
        total_pages: Math.max(1, Math.ceil(items.length / size)),
        total_results: items.length,
        page_number: number,
        page_size: size,
      },
    };
  }

  function readApplication(
    body: Record<string, unknown>,
    existing: TexmlApplication | null,
    accountSid: string,
  ): TexmlApplication | DoubleResponse {
    const text = (key: string) => (typeof body[key] === "string" ? String(body[key]) : undefined);
    const friendlyName = text("friendly_name") ?? existing?.friendlyName;
    const voiceUrl = text("voice_url") ?? existing?.voiceUrl;
    if (!friendlyName) return telnyxError(422, "10015", "Invalid value", "friendly_name is required", "/friendly_name");
    if (!voiceUrl || !/^https?:\/\//.test(voiceUrl))
      return telnyxError(422, "10015", "Invalid value", "voice_url must be a valid URL", "/voice_url");
    return {
      id: existing?.id ?? numericId(),
      accountSid,
      friendlyName,
      voiceUrl,
      voiceMethod: (text("voice_method") ?? existing?.voiceMethod ?? "post").toUpperCase(),
      statusCallback: text("status_callback") ?? existing?.statusCallback ?? "",
      statusCallbackMethod: (text("status_callback_method") ?? existing?.statusCallbackMethod ?? "post").toUpperCase(),
    };
  }

  function createCall(params: Map<string, string>, account: Account, applicationId: string): DoubleResponse {
    const to = params.get("To") ?? "";
    const from = params.get("From") ?? "";
    const app = applications.get(applicationId);
    if (!app || app.accountSid !== account.accountSid)
      return telnyxError(
        422,
        "10015",
        "Invalid value",
        "ApplicationSid does not name a TeXML application",
        "/ApplicationSid",
      );
    if (!to) return telnyxError(422, "10015", "Invalid value", "To is required", "/To");
    if (!from) return telnyxError(422, "10015", "Invalid value", "From is required", "/From");
    const owned = [...numbers.values()].some((n) => n.accountSid === account.accountSid && n.phoneNumber === from);
    if (!owned) return telnyxError(422, "10015", "Invalid value", "From must be a number on your account", "/From");
    const call = new TelnyxCall(account.accountSid, "outbound", callControlId(), from, to, server.now, false);
    call.connectionId = app.id;
    call.statusCallback = params.get("StatusCallback") ?? app.statusCallback;
    call.statusCallbackMethod = (params.get("StatusCallbackMethod") ?? app.statusCallbackMethod).toUpperCase();
    call.askStatusEvents([params.get("StatusCallbackEvent") ?? ""]);
    call.askMachineDetection(params.get("MachineDetection"));
    book.add(call);
    const behaviour = book.outbound;
    const first = {
      url: params.get("Url") ?? app.voiceUrl,
      method: (params.get("UrlMethod") ?? params.get("Method") ?? app.voiceMethod).toUpperCase(),
      markup: params.get("Texml") ?? "",
    };
    setImmediate(() => {
      void runner.runOutbound(call, behaviour, first, () => {
        if (call.machineDetection) call.answeredBy = behaviour.outcome === "machine" ? "machine_start" : "human";
      });
    });
    return { status: 200, json: callJson(call) };
  }

  function updateCall(params: Map<string, string>, call: TelnyxCall): DoubleResponse {
    const status = params.get("Status");
    if (status === "completed" || status === "canceled") {
      if (!call.ended) void runner.endCall(call, call.answeredAt === null ? "canceled" : "completed");
      return { status: 200, json: callJson(call) };
    }
    if (call.ended) return CALL_ENDED;
    const updated = runner.update(call, {
      markup: params.get("Texml"),
      markupName: "Texml",
      url: params.get("Url"),
      method: (params.get("Method") ?? "POST").toUpperCase(),
    });
    if (updated === "bad-markup") return telnyxError(422, "10015", "Invalid value", "Texml is not valid XML", "/Texml");
    if (updated === "nothing") return telnyxError(422, "10015", "Invalid value", "Give Url, Texml or Status", "/");
    return { status: 200, json: callJson(call) };
  }

  /** Call Control actions on a live call (call_control_id is the TeXML CallSid). */
  async function callAction(request: DoubleRequest, call: TelnyxCall, action: string): Promise<DoubleResponse> {
    const body = jsonObjectOf(request) ?? {};
    if (call.ended) return CALL_ENDED;
    switch (action) {
      case "transfer": {
        const to = typeof body.to === "string" ? body.to : "";
        if (!to) return telnyxError(422, "10015", "Invalid value", "to is required", "/to");
        // The caller leaves the stream for the new party.
        await call.interrupt("vendor");
        runner.recordTransfer(call, to, typeof body.from === "string" ? body.from : undefined);
        const generation = call.generation;
        void call.sleep(dialTalkMs, generation).then((still) => {
          if (still) void runner.endCall(call, "completed");
        });
        break;
      }
      case "send_dtmf": {
        const digits = typeof body.digits === "string" ? body.digits : "";
        if (!/^[0-9A-D*#wW]+$/.test(digits))
          return telnyxError(422, "10015", "Invalid value", "digits must be DTMF digits", "/digits");
        runner.recordDtmf(call, digits);
        break;
      }
      case "hangup":
        void runner.endCall(call, "completed");
        break;
      default:
        return telnyxError(404, "10005", "Resource not found", `Unknown action ${action}`);
    }
    return { status: 200, json: { data: { result: "ok" } } };
  }

  /** PATCH of a number (or of its voice settings): `connection_id` names the TeXML application. */
  const updateNumber: GuardedHandler<Account> = (request, account, { id }) => {
    const n = numbers.get(id ?? "");
    if (n?.accountSid !== account.accountSid) return NOT_FOUND;
    const body = jsonObjectOf(request);
    if (!body) return telnyxError(400, "10015", "Bad Request", "The request body is not JSON.");
    n.updates.push({ at: server.now(), body });
    if ("connection_id" in body) {
      const connection = body.connection_id;
      if (connection !== null && (typeof connection !== "string" || !applications.has(connection)))
        return telnyxError(422, "10015", "Invalid value", "connection_id does not exist", "/connection_id");
      n.connectionId = connection;
    }
    return { status: 200, json: { data: numberJson(n) } };
  };

  /** GET, PATCH or DELETE of one TeXML application of the account. */
  const application =
    (method: string): GuardedHandler<Account> =>
    (request, account, { id }) => {
      const existing = applications.get(id ?? "");
      if (existing?.accountSid !== account.accountSid) return NOT_FOUND;
      if (method === "DELETE") {
        applications.delete(existing.id);
        return { status: 200, json: { data: applicationJson(existing) } };
      }
      if (method === "PATCH") {
        const app = readApplication(jsonObjectOf(request) ?? {}, existing, account.accountSid);
        if ("status" in app) return app;
        applications.set(app.id, app);
        return { status: 200, json: { data: applicationJson(app) } };
      }
      return { status: 200, json: { data: applicationJson(existing) } };
    };

  /** GET or POST (update) of a TeXML call of the account. */
  const texmlCall =
    (method: string): GuardedHandler<Account> =>
    (request, account, { account: sid, sid: callSid }) => {
      const call = calls.get(callSid ?? "");
      if (call?.accountSid !== account.accountSid || sid !== account.accountSid) return NOT_FOUND;
      return method === "GET" ? { status: 200, json: callJson(call) } : updateCall(bodyParamsOf(request, true), call);
    };

  const routes: DoubleRoute[] = [
    // GET /v2/balance: the account's balance (what a connection test reads).
    route("GET", "/v2/balance", () => ({
      status: 200,
      json: {
        data: {
          record_type: "balance",
          balance: "300.00",
          credit_limit: "100.00",
          available_credit: "400.00",
          currency: "USD",
        },
      },
    })),
    route("GET", "/v2/phone_numbers", (request, account) => {
      const filter = request.query.get("filter[phone_number]");
      const mine = [...numbers.values()].filter(
        (n) => n.accountSid === account.accountSid && (!filter || n.phoneNumber.includes(filter)),
      );
      const { slice, meta } = page(request, mine);
      return { status: 200, json: { data: slice.map(numberJson), meta } };
    }),
    route("GET", "/v2/phone_numbers/:id", (_request, account, { id }) => {
      const n = numbers.get(id ?? "");
      return n?.accountSid === account.accountSid ? { status: 200, json: { data: numberJson(n) } } : NOT_FOUND;
    }),
    route("PATCH", "/v2/phone_numbers/:id", updateNumber),
    route("PATCH", "/v2/phone_numbers/:id/voice", updateNumber),
    route("GET", "/v2/texml_applications", (request, account) => {
      const name = request.query.get("filter[friendly_name]");
      const mine = [...applications.values()].filter(
        (a) => a.accountSid === account.accountSid && (!name || a.friendlyName.includes(name)),
      );
      const { slice, meta } = page(request, mine);
      return { status: 200, json: { data: slice.map(applicationJson), meta } };
    }),
    route("POST", "/v2/texml_applications", (request, account) => {
      const app = readApplication(jsonObjectOf(request) ?? {}, null, account.accountSid);
      if ("status" in app) return app;
      applications.set(app.id, app);
      return { status: 201, json: { data: applicationJson(app) } };
    }),
    ...["GET", "PATCH", "DELETE"].map((method) => route(method, "/v2/texml_applications/:id", application(method))),
    route("POST", "/v2/texml/Accounts/:account/Calls", (request, account, { account: sid }) => {
      if (sid !== account.accountSid) return NOT_FOUND;
      const params = bodyParamsOf(request, true);
      return createCall(params, account, params.get("ApplicationSid") ?? "");
    }),
    route("POST", "/v2/texml/calls/:connection", (request, account, { connection }) =>
      createCall(bodyParamsOf(request, true), account, connection ?? ""),
    ),
    ...["GET", "POST"].map((method) => route(method, "/v2/texml/Accounts/:account/Calls/:sid", texmlCall(method))),
    route("POST", "/v2/calls/:id/actions/:action", (request, account, { id, action }) => {
      const call = calls.get(id ?? "");
      if (call?.accountSid !== account.accountSid)
        return telnyxError(404, "90015", "Call not found", "The call_control_id was not found.");
      return callAction(request, call, action ?? "");
    }),
  ];
  const server = await startDoubleServer(routes, () => NOT_FOUND);

  /** The TeXML request parameters of a call (form-encoded, like TwiML's). */
  function callParams(call: TelnyxCall): Record<string, string> {
    const params: Record<string, string> = {
      AccountSid: call.accountSid,
      CallSid: call.id,
      CallSidLegacy: call.id,
      CallSessionId: call.callSessionId,
      ConnectionId: call.connectionId,
      CallStatus: call.status,
      Direction: call.vendorDirection,
      From: call.from,
      To: call.to,
      CallerId: call.from,
    };
    if (call.answeredBy) params.AnsweredBy = call.answeredBy;
    return params;
  }

  /** Signs as Telnyx does: Ed25519 over "<timestamp>|<raw body>", base64, with the timestamp in seconds. */
  const signedRequest: SignedWebhook<TelnyxCall> = (call, url, method, params) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const privateKey = call.forgeSignature ? forgedKeys.privateKey : keys.privateKey;
    const body = new URLSearchParams(params).toString();
    const target = method === "GET" ? `${url}${url.includes("?") ? "&" : "?"}${body}` : url;
    const signed = method === "GET" ? "" : body;
    const signature = sign(null, Buffer.from(`${timestamp}|${signed}`), privateKey).toString("base64");
    return sendWebhook(book.webhooks, server.now, {
      url: target,
      method: method === "GET" ? "GET" : "POST",
      headers: {
        ...(method === "GET" ? {} : { "Content-Type": "application/x-www-form-urlencoded" }),
        "telnyx-signature-ed25519": signature,
        "telnyx-timestamp": timestamp,
        "User-Agent": "Telnyx Webhooks",
      },
      body: signed,
    });
  };

  const runner = new MarkupRunner<TelnyxCall>({
    now: () => server.now(),
    book,
    dialTalkMs,
    requestMarkup: (call, url, method) => signedRequest(call, url, method, callParams(call)),
    sendStatus: async (call, extra) => {
      await signedRequest(call, call.statusCallback, call.statusCallbackMethod, {
        ...callParams(call),
        CallbackSource: "call-progress-events",
        SequenceNumber: String(call.sequence),
        Timestamp: new Date().toISOString(),
        ...extra,
      });
    },
    streamWire: (call, stream, parameters) => {
      const mode = stream.attributes.bidirectionalMode ?? "mp3";
      const codec = stream.attributes.bidirectionalCodec ?? "PCMU";
      const rate = stream.attributes.bidirectionalSamplingRate ?? "8000";
      if (mode === "rtp" && (codec !== "PCMU" || rate !== "8000"))
        return `The double streams PCMU at 8000 Hz only (asked ${codec} at ${rate})`;
      return new TelnyxMediaWire(call, randomUUID(), parameters, mode === "rtp");
    },
  });

  async function ringInbound(number: string, from: string, inbound: InboundOptions = {}): Promise<TelnyxCallHandle> {
    const owned = [...numbers.values()].find((n) => n.phoneNumber === number);
    if (!owned) throw new Error(`The Telnyx double has no number ${number}`);
    const app = owned.connectionId ? applications.get(owned.connectionId) : undefined;
    if (!app) throw new Error(`Number ${number} is on no TeXML application: import it into Parley first`);
    const call = new TelnyxCall(
      owned.accountSid,
      "inbound",
      callControlId(),
      from,
      number,
      server.now,
      Boolean(inbound.forgeSignature),
    );
    call.connectionId = app.id;
    call.statusCallback = app.statusCallback;
    call.statusCallbackMethod = app.statusCallbackMethod;
    return runner.answerInbound(call, inbound, app.voiceUrl, app.voiceMethod);
  }

  return {
    ...book.face(server, ringInbound, (call) => runner.endCall(call, "completed")),
    publicKey: rawPublicKey(keys.publicKey),
    numbers,
    applications,
  };
}

/** Telnyx media streaming, Telnyx's side: JSON frames, PCMU at 8 kHz in base64 (RTP payloads without headers). */
export class TelnyxMediaWire implements StreamWire {
  private readonly stream = new MulawMediaStream();

  constructor(
    private readonly call: TelnyxCall,
    readonly streamId: string,
    private readonly customParameters: Record<string, string>,
    /** bidirectionalMode="rtp": audio sent back is played as PCMU; otherwise Telnyx expects MP3 files. */
    private readonly bidirectionalRtp: boolean,
  ) {}

  opening(): string[] {
    return [
      JSON.stringify({ event: "connected", version: "1.0.0" }),
      JSON.stringify({
        event: "start",
        sequence_number: this.stream.next(),
        start: {
          user_id: this.call.accountSid,
          call_control_id: this.call.id,
          call_session_id: this.call.callSessionId,
          from: this.call.from,
          to: this.call.to,
          tags: [],
          custom_parameters: this.customParameters,
          media_format: { encoding: "PCMU", sample_rate: 8000, channels: 1 },
        },
        stream_id: this.streamId,
      }),
    ];
  }

  audio(frame: Int16Array): string[] {
    const media = this.stream.media(frame);
    return [JSON.stringify({ event: "media", sequence_number: this.stream.next(), media, stream_id: this.streamId })];
  }

  dtmf(digit: string): string[] {
    return [
      JSON.stringify({
        event: "dtmf",
        stream_id: this.streamId,
        occurred_at: new Date().toISOString(),
        sequence_number: this.stream.next(),
        dtmf: { digit },
      }),
    ];
  }

  markPlayed(name: string): string[] {
    return [
      JSON.stringify({ event: "mark", sequence_number: this.stream.next(), stream_id: this.streamId, mark: { name } }),
    ];
  }

  cleared(): string[] {
    return [];
  }

  closing(): string[] {
    return [
      JSON.stringify({
        event: "stop",
        sequence_number: this.stream.next(),
        stop: { user_id: this.call.accountSid, call_control_id: this.call.id },
        stream_id: this.streamId,
      }),
    ];
  }

  decode(data: Buffer, isBinary: boolean): StreamCommand[] {
    const raw = data.toString("utf8");
    const message = parseJsonMessage(data, isBinary);
    if (!message) return [{ type: "invalid", reason: "not a JSON text frame", raw }];
    if (!this.bidirectionalRtp && ["media", "mark", "clear"].includes(String(message.event)))
      return [
        { type: "invalid", reason: 'the <Stream> has no bidirectionalMode="rtp": Telnyx would not play RTP back', raw },
      ];
    return this.stream.commands(message, raw);
  }
}
