import { generateKeyPairSync, randomUUID } from "node:crypto";
import { bytesToPcm, pcmToBytes } from "../../src/audio/pcm.ts";
import { Resampler } from "../../src/audio/resample.ts";
import { DoubleCalls, type OutboundBehaviour, type TelephonyDouble } from "./double-calls.ts";
import {
  basicAuth,
  bearerToken,
  type DoubleRequest,
  type DoubleResponse,
  type DoubleRoute,
  formOf,
  type GuardedHandler,
  guardedRoutes,
  isRecord,
  jsonObjectOf,
  randomHex,
  sendWebhook,
  startDoubleServer,
  type WebhookExchange,
} from "./double-server.ts";
import { parseJsonMessage } from "./mulaw-json-wire.ts";
import type { StreamCommand, StreamWire } from "./phone-leg.ts";
import { type CallHandle, callHandle, type InboundOptions, SimulatedCall } from "./simulated-call.ts";
import { signWebhookJwt, verifyRs256, webhookPayload } from "./vonage-jwt.ts";

/**
 * A local Vonage: the Numbers API (rest.nexmo.com account/numbers with api_key/api_secret, number
 * update), the Application API v2 (Basic auth; creating an application returns its private key),
 * the Voice API v1 (JWT RS256 of the application's key: create call, transfer / hangup by PUT,
 * DTMF), answer and event webhooks signed with HS256 JWTs (the account's signature secret), NCCO
 * execution (connect to websocket / phone / sip, talk, stream, notify, wait) and the WebSocket
 * audio protocol: websocket:connected, binary 16-bit linear PCM (640-byte frames at 16 kHz),
 * websocket:dtmf; clear and notify commands answered by websocket:cleared and websocket:notify.
 * Written from Vonage's public docs, independently of Parley's adapter.
 */

export interface VonageAccountConfig {
  apiKey: string;
  apiSecret: string;
  /** Signs webhooks (HS256); one is made up when absent. */
  signatureSecret?: string;
  /** E.164 numbers; Vonage writes them without "+" (msisdn). */
  numbers: string[];
}

export interface VonageDoubleOptions {
  accounts: VonageAccountConfig[];
  /** Default size of the numbers list (Vonage's is 10). */
  pageSize?: number;
  outbound?: OutboundBehaviour;
  dialTalkMs?: number;
}

export interface VonageNumber {
  msisdn: string;
  apiKey: string;
  country: string;
  appId: string | null;
  updates: { at: number; params: Record<string, string> }[];
}

export interface VonageApplication {
  id: string;
  apiKey: string;
  name: string;
  answerUrl: string;
  answerMethod: string;
  eventUrl: string;
  eventMethod: string;
  publicKey: string;
  /** Returned once, at creation, when Vonage made the key pair. */
  privateKey: string | null;
}

export class VonageCall extends SimulatedCall {
  status = "started";
  readonly conversationUuid = `CON-${randomUUID()}`;
  eventUrl = "";
  eventMethod = "POST";
  answerUrl = "";
  answerMethod = "GET";
  machineDetection: string | null = null;
  readonly nccos: unknown[][] = [];
  constructor(
    readonly apiKey: string,
    readonly applicationId: string,
    id: string,
    direction: "inbound" | "outbound",
    from: string,
    to: string,
    now: () => number,
    readonly forgeSignature: boolean,
  ) {
    super(id, direction, from, to, now(), now);
  }
}

export type VonageCallHandle = CallHandle<VonageCall>;

/** The Vonage double: `origin` stands in for api.nexmo.com and rest.nexmo.com alike. */
export interface VonageDouble extends TelephonyDouble<VonageCall> {
  /** Numbers by msisdn (digits without "+"). */
  numbers: Map<string, VonageNumber>;
  applications: Map<string, VonageApplication>;
  /** The signature secret of an account (for Parley's webhook check). */
  signatureSecret(apiKey: string): string;
}

function problem(status: number, title: string, detail: string): DoubleResponse {
  const type = status === 401 ? "unauthorized" : status === 404 ? "not-found" : "validation";
  return {
    status,
    json: { type: `https://developer.nexmo.com/api-errors#${type}`, title, detail, instance: randomUUID() },
  };
}

const VOICE_UNAUTHORIZED = problem(401, "Unauthorized", "You did not provide correct credentials.");
const CALL_NOT_FOUND = problem(404, "Not Found", "Call not found");
/** The Numbers API's answer to a wrong api_key / api_secret. */
const NUMBERS_UNAUTHORIZED: DoubleResponse = {
  status: 401,
  json: { "error-code": "401", "error-code-label": "authentication failed" },
};

function msisdn(number: string): string {
  return number.replace(/^\+/, "");
}

/** A Vonage endpoint object ({type:"phone", number}) as a readable destination. */
function endpointDestination(endpoint: Record<string, unknown>): string {
  if (endpoint.type === "phone" && typeof endpoint.number === "string") return endpoint.number;
  if (endpoint.type === "sip" && typeof endpoint.uri === "string") return endpoint.uri;
  if (endpoint.type === "websocket" && typeof endpoint.uri === "string") return endpoint.uri;
  return JSON.stringify(endpoint);
}

/** The NCCO an answer webhook returned: a JSON array from a 2xx answer, else null. */
function nccoOf(exchange: WebhookExchange): unknown[] | null {
  if (exchange.status < 200 || exchange.status >= 300) return null;
  try {
    const ncco: unknown = JSON.parse(exchange.responseBody);
    return Array.isArray(ncco) ? ncco : null;
  } catch {
    return null;
  }
}

function firstString(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  return "";
}

export async function startVonageDouble(options: VonageDoubleOptions): Promise<VonageDouble> {
  const pageSizeDefault = options.pageSize ?? 10;
  const book = new DoubleCalls<VonageCall>("Vonage", options.outbound);
  const { calls } = book;
  const dialTalkMs = options.dialTalkMs ?? 300;
  const accounts = new Map(
    options.accounts.map((a) => [a.apiKey, { ...a, signatureSecret: a.signatureSecret ?? randomHex(16) }]),
  );
  const numbers = new Map<string, VonageNumber>();
  const applications = new Map<string, VonageApplication>();
  for (const account of options.accounts) {
    for (const number of account.numbers) {
      const digits = msisdn(number);
      numbers.set(digits, {
        msisdn: digits,
        apiKey: account.apiKey,
        country: digits.startsWith("1") ? "US" : digits.startsWith("44") ? "GB" : "",
        appId: null,
        updates: [],
      });
    }
  }

  /** Numbers API: api_key and api_secret in the query or form (or Basic auth). */
  function numbersAccount(request: DoubleRequest, form: URLSearchParams | null) {
    const basic = basicAuth(request);
    const key = request.query.get("api_key") ?? form?.get("api_key") ?? basic?.user ?? "";
    const secret = request.query.get("api_secret") ?? form?.get("api_secret") ?? basic?.password ?? "";
    const account = accounts.get(key);
    return account && account.apiSecret === secret ? account : null;
  }

  type Account = NonNullable<ReturnType<typeof accounts.get>>;
  /** Numbers API: the form carries the credentials of a POST. */
  const numbersRoute = guardedRoutes<Account>(
    (request) => numbersAccount(request, request.method === "POST" ? formOf(request) : null),
    NUMBERS_UNAUTHORIZED,
  );
  /** Application API: Basic api_key:api_secret. */
  const applicationRoute = guardedRoutes<Account>(
    (request) => {
      const auth = basicAuth(request);
      const account = auth ? accounts.get(auth.user) : undefined;
      return account && auth && account.apiSecret === auth.password ? account : null;
    },
    () => problem(401, "Invalid credentials supplied", "You did not provide correct credentials."),
  );
  /** Voice API: the application whose key signed the Bearer JWT. */
  const voiceRoute = guardedRoutes<VonageApplication>((request) => voiceApplication(request), VOICE_UNAUTHORIZED);

  /** Voice API: Bearer JWT RS256 signed with an application's private key. */
  function voiceApplication(request: DoubleRequest): VonageApplication | null {
    const token = bearerToken(request);
    if (!token) return null;
    const [, body] = token.split(".");
    let appId = "";
    try {
      const claims: unknown = JSON.parse(Buffer.from(body ?? "", "base64url").toString("utf8"));
      appId = isRecord(claims) && typeof claims.application_id === "string" ? claims.application_id : "";
    } catch {
      return null;
    }
    const app = applications.get(appId);
    if (!app) return null;
    return typeof verifyRs256(token, app.publicKey) === "string" ? null : app;
  }

  function applicationJson(app: VonageApplication, withPrivateKey: boolean): Record<string, unknown> {
    return {
      id: app.id,
      name: app.name,
      capabilities: {
        voice: {
          webhooks: {
            answer_url: { address: app.answerUrl, http_method: app.answerMethod },
            event_url: { address: app.eventUrl, http_method: app.eventMethod },
          },
          signed_callbacks: true,
        },
      },
      keys: { public_key: app.publicKey, ...(withPrivateKey && app.privateKey ? { private_key: app.privateKey } : {}) },
      _links: { self: { href: `/v2/applications/${app.id}` } },
    };
  }

  function readApplication(body: Record<string, unknown>, existing: VonageApplication | null, apiKey: string) {
    const name = typeof body.name === "string" ? body.name : existing?.name;
    if (!name) return problem(400, "Bad Request", "name is required");
    const capabilities = isRecord(body.capabilities) ? body.capabilities : {};
    const voice = isRecord(capabilities.voice) ? capabilities.voice : {};
    const hooks = isRecord(voice.webhooks) ? voice.webhooks : {};
    const answer = isRecord(hooks.answer_url) ? hooks.answer_url : {};
    const event = isRecord(hooks.event_url) ? hooks.event_url : {};
    const keys = isRecord(body.keys) ? body.keys : {};
    let publicKey = typeof keys.public_key === "string" ? keys.public_key : (existing?.publicKey ?? "");
    let privateKey: string | null = null;
    if (!publicKey) {
      const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
      publicKey = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
      privateKey = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    }
    const app: VonageApplication = {
      id: existing?.id ?? randomUUID(),
      apiKey,
      name,
      answerUrl: typeof answer.address === "string" ? answer.address : (existing?.answerUrl ?? ""),
      answerMethod: (typeof answer.http_method === "string"
        ? answer.http_method
        : (existing?.answerMethod ?? "GET")
      ).toUpperCase(),
      eventUrl: typeof event.address === "string" ? event.address : (existing?.eventUrl ?? ""),
      eventMethod: (typeof event.http_method === "string"
        ? event.http_method
        : (existing?.eventMethod ?? "POST")
      ).toUpperCase(),
      publicKey,
      privateKey,
    };
    applications.set(app.id, app);
    return app;
  }

  function callJson(call: VonageCall): Record<string, unknown> {
    return {
      uuid: call.id,
      conversation_uuid: call.conversationUuid,
      status: call.status,
      direction: call.direction,
      to: { type: "phone", number: msisdn(call.to) },
      from: { type: "phone", number: msisdn(call.from) },
      duration: call.ended ? String(call.durationSeconds()) : undefined,
      _links: { self: { href: `/v1/calls/${call.id}` } },
    };
  }

  /** A new call of the application; the double keeps its numbers in E.164 whatever form they came in. */
  const newCall = (
    app: VonageApplication,
    direction: "inbound" | "outbound",
    from: string,
    to: string,
    forged: boolean,
  ) =>
    new VonageCall(
      app.apiKey,
      app.id,
      randomUUID(),
      direction,
      `+${msisdn(from)}`,
      `+${msisdn(to)}`,
      server.now,
      forged,
    );

  function createCall(request: DoubleRequest, app: VonageApplication): DoubleResponse {
    const body = jsonObjectOf(request);
    if (!body) return problem(400, "Bad Request", "The request body is not JSON.");
    const to = Array.isArray(body.to) && isRecord(body.to[0]) ? body.to[0] : null;
    const from = isRecord(body.from) ? body.from : null;
    if (!to || typeof to.number !== "string") return problem(400, "Bad Request", "to is required");
    const random = body.random_from_number === true;
    if (!random && (!from || typeof from.number !== "string")) return problem(400, "Bad Request", "from is required");
    const fromNumber = random
      ? ([...numbers.values()].find((n) => n.apiKey === app.apiKey)?.msisdn ?? "")
      : String(from?.number);
    const owned = numbers.get(msisdn(fromNumber));
    if (!owned || owned.apiKey !== app.apiKey)
      return problem(400, "Bad Request", "from is not a number of your account");
    const ncco = Array.isArray(body.ncco) ? body.ncco : null;
    const answerUrl = firstString(body.answer_url);
    if (!ncco && !answerUrl) return problem(400, "Bad Request", "answer_url or ncco is required");
    const call = newCall(app, "outbound", fromNumber, to.number, false);
    call.answerUrl = answerUrl;
    call.answerMethod = (typeof body.answer_method === "string" ? body.answer_method : "GET").toUpperCase();
    call.eventUrl = firstString(body.event_url) || app.eventUrl;
    call.eventMethod = (typeof body.event_method === "string" ? body.event_method : app.eventMethod).toUpperCase();
    call.machineDetection = typeof body.machine_detection === "string" ? body.machine_detection : null;
    book.add(call);
    const behaviour = book.outbound;
    setImmediate(() => void runOutbound(call, behaviour, ncco));
    return {
      status: 201,
      json: { uuid: call.id, status: "started", direction: "outbound", conversation_uuid: call.conversationUuid },
    };
  }

  async function modifyCall(request: DoubleRequest, call: VonageCall): Promise<DoubleResponse> {
    const body = jsonObjectOf(request);
    if (!body) return problem(400, "Bad Request", "The request body is not JSON.");
    if (call.ended) return problem(400, "Bad Request", "The call is not in progress");
    switch (body.action) {
      case "hangup":
        void endCall(call, "completed");
        return { status: 204 };
      case "transfer": {
        const destination = isRecord(body.destination) ? body.destination : null;
        if (destination?.type !== "ncco") return problem(400, "Bad Request", "destination.type must be ncco");
        await call.interrupt("vendor");
        const generation = call.generation;
        if (Array.isArray(destination.ncco)) void runNcco(call, destination.ncco, generation);
        else {
          const url = firstString(destination.url);
          if (!url) return problem(400, "Bad Request", "destination needs ncco or url");
          void fetchNcco(call, url, "GET", generation);
        }
        return { status: 204 };
      }
      case "mute":
      case "unmute":
      case "earmuff":
      case "unearmuff":
        return { status: 204 };
      default:
        return problem(400, "Bad Request", `Unknown action ${String(body.action)}`);
    }
  }

  /** GET, PUT (update) or DELETE of one application of the account. */
  const application =
    (method: string): GuardedHandler<Account> =>
    (request, account, { id }) => {
      const existing = applications.get(id ?? "");
      if (existing?.apiKey !== account.apiKey) return problem(404, "Not Found", "Application not found");
      if (method === "DELETE") {
        applications.delete(existing.id);
        return { status: 204 };
      }
      if (method === "PUT") {
        const app = readApplication(jsonObjectOf(request) ?? {}, existing, account.apiKey);
        if ("status" in app) return app;
        return { status: 200, json: applicationJson(app, false) };
      }
      return { status: 200, json: applicationJson(existing, false) };
    };

  /** The application's call with this uuid, if any. */
  const callOf = (app: VonageApplication, uuid: string | undefined) => {
    const call = calls.get(uuid ?? "");
    return call?.apiKey === app.apiKey ? call : undefined;
  };

  const routes: DoubleRoute[] = [
    // GET /account/get-balance: the account's balance in EUR (what a connection test reads).
    numbersRoute("GET", "/account/get-balance", () => ({ status: 200, json: { value: 10.28, autoReload: false } })),
    numbersRoute("GET", "/account/numbers", (request, account) => {
      const size = Math.min(100, Math.max(1, Number(request.query.get("size") ?? pageSizeDefault) || 10));
      const index = Math.max(1, Number(request.query.get("index") ?? 1) || 1);
      const appFilter = request.query.get("application_id");
      const mine = [...numbers.values()].filter(
        (n) => n.apiKey === account.apiKey && (!appFilter || n.appId === appFilter),
      );
      return {
        status: 200,
        json: {
          count: mine.length,
          numbers: mine.slice((index - 1) * size, index * size).map((n) => ({
            country: n.country,
            msisdn: n.msisdn,
            type: "mobile-lvn",
            features: ["VOICE", "SMS", "MMS"],
            ...(n.appId ? { app_id: n.appId, voiceCallbackType: "app", voiceCallbackValue: n.appId } : {}),
          })),
        },
      };
    }),
    numbersRoute("POST", "/number/update", (request, account) => {
      const form = formOf(request);
      const n = numbers.get(form.get("msisdn") ?? "");
      if (n?.apiKey !== account.apiKey)
        return { status: 420, json: { "error-code": "420", "error-code-label": "Number not found" } };
      const params = Object.fromEntries(form.entries());
      delete params.api_secret;
      n.updates.push({ at: server.now(), params });
      const appId =
        form.get("app_id") ?? (form.get("voiceCallbackType") === "app" ? form.get("voiceCallbackValue") : null);
      if (appId !== null && appId !== undefined) {
        if (appId && !applications.has(appId))
          return { status: 420, json: { "error-code": "420", "error-code-label": "Application not found" } };
        n.appId = appId || null;
      }
      return { status: 200, json: { "error-code": "200", "error-code-label": "success" } };
    }),
    applicationRoute("POST", "/v2/applications", (request, account) => {
      const app = readApplication(jsonObjectOf(request) ?? {}, null, account.apiKey);
      if ("status" in app) return app;
      return { status: 201, json: applicationJson(app, true) };
    }),
    applicationRoute("GET", "/v2/applications", (_request, account) => {
      const mine = [...applications.values()].filter((a) => a.apiKey === account.apiKey);
      return {
        status: 200,
        json: {
          page_size: 100,
          page: 1,
          total_items: mine.length,
          total_pages: 1,
          _embedded: { applications: mine.map((a) => applicationJson(a, false)) },
        },
      };
    }),
    ...["GET", "PUT", "DELETE"].map((method) => applicationRoute(method, "/v2/applications/:id", application(method))),
    voiceRoute("POST", "/v1/calls", (request, app) => createCall(request, app)),
    voiceRoute("GET", "/v1/calls/:uuid", (_request, app, { uuid }) => {
      const call = callOf(app, uuid);
      return call ? { status: 200, json: callJson(call) } : CALL_NOT_FOUND;
    }),
    voiceRoute("PUT", "/v1/calls/:uuid", (request, app, { uuid }) => {
      const call = callOf(app, uuid);
      return call ? modifyCall(request, call) : CALL_NOT_FOUND;
    }),
    voiceRoute("PUT", "/v1/calls/:uuid/dtmf", (request, app, { uuid }) => {
      const call = callOf(app, uuid);
      if (!call) return CALL_NOT_FOUND;
      const digits = jsonObjectOf(request)?.digits;
      if (typeof digits !== "string" || !/^[0-9*#p]+$/.test(digits))
        return problem(400, "Bad Request", "digits is required");
      if (call.ended) return problem(400, "Bad Request", "The call is not in progress");
      book.recordDtmf(call, digits, server.now());
      return { status: 200, json: { message: "DTMF sent", uuid: call.id } };
    }),
  ];
  const server = await startDoubleServer(routes, () =>
    problem(404, "Not Found", "The requested resource does not exist"),
  );

  // ── webhooks ────────────────────────────────────────────────────────────────

  /** The Authorization of a webhook to `url`: its payload_hash covers the body, or a GET's query. */
  function signedHeaders(call: VonageCall, method: string, url: string, body: string): Record<string, string> {
    const account = accounts.get(call.apiKey);
    const secret = call.forgeSignature ? `not-${account?.signatureSecret ?? ""}` : (account?.signatureSecret ?? "");
    const payload = webhookPayload(method, url, body);
    const token = signWebhookJwt(secret, { apiKey: call.apiKey, applicationId: call.applicationId, payload });
    return { Authorization: `Bearer ${token}`, "User-Agent": "Vonage-Voice-API" };
  }

  /** The answer webhook: GET with query parameters (or POST JSON), answered with an NCCO. */
  function requestNcco(call: VonageCall, url: string, method: string): Promise<WebhookExchange> {
    const params: Record<string, string> = {
      to: msisdn(call.to),
      from: msisdn(call.from),
      uuid: call.id,
      conversation_uuid: call.conversationUuid,
      region_url: "https://api-us-3.vonage.com",
    };
    if (method === "GET") {
      const target = new URL(url);
      for (const [key, value] of Object.entries(params)) target.searchParams.set(key, value);
      return sendWebhook(book.webhooks, server.now, {
        url: target.toString(),
        method: "GET",
        headers: signedHeaders(call, "GET", target.toString(), ""),
        body: "",
      });
    }
    const body = JSON.stringify(params);
    return sendWebhook(book.webhooks, server.now, {
      url,
      method: "POST",
      headers: { ...signedHeaders(call, "POST", url, body), "Content-Type": "application/json" },
      body,
    });
  }

  async function sendEvent(call: VonageCall, status: string, extra: Record<string, unknown> = {}): Promise<void> {
    call.status = status;
    call.note(`status ${status}`);
    if (!call.eventUrl) return;
    const body = JSON.stringify({
      from: msisdn(call.from),
      to: msisdn(call.to),
      uuid: call.id,
      conversation_uuid: call.conversationUuid,
      status,
      direction: call.direction,
      timestamp: new Date().toISOString(),
      ...extra,
    });
    const headers = { ...signedHeaders(call, "POST", call.eventUrl, body), "Content-Type": "application/json" };
    if (call.eventMethod === "GET") {
      await sendWebhook(book.webhooks, server.now, {
        url: call.eventUrl,
        method: "GET",
        headers: signedHeaders(call, "GET", call.eventUrl, ""),
        body: "",
      });
      return;
    }
    await sendWebhook(book.webhooks, server.now, { url: call.eventUrl, method: "POST", headers, body });
  }

  async function endCall(call: VonageCall, status: string): Promise<void> {
    if (call.ended) return;
    call.ended = true;
    call.endedAt = server.now();
    await call.interrupt("caller");
    const extra: Record<string, unknown> =
      status === "completed"
        ? {
            duration: String(call.durationSeconds()),
            start_time: new Date(Date.now() - call.durationSeconds() * 1000).toISOString(),
            end_time: new Date().toISOString(),
            rate: "0.01400000",
            price: (call.durationSeconds() * (0.014 / 60)).toFixed(8),
            network: "310090",
          }
        : {};
    await sendEvent(call, status, extra);
    call.finish();
  }

  async function runOutbound(call: VonageCall, behaviour: OutboundBehaviour, ncco: unknown[] | null): Promise<void> {
    const generation = call.generation;
    await sendEvent(call, "started");
    if (behaviour.outcome === "failed") return endCall(call, "failed");
    await sendEvent(call, "ringing");
    if (!(await call.sleep(behaviour.ringMs ?? 50, generation))) return;
    if (behaviour.outcome === "busy") return endCall(call, "busy");
    if (behaviour.outcome === "no-answer") return endCall(call, "timeout");
    call.answeredAt = server.now();
    await sendEvent(call, "answered");
    if (call.machineDetection)
      await sendEvent(call, behaviour.outcome === "machine" ? "machine" : "human", {
        sub_state: behaviour.outcome === "machine" ? "machine" : "human",
      });
    if (call.machineDetection === "hangup" && behaviour.outcome === "machine") return endCall(call, "completed");
    call.prepareFarEnd(behaviour);
    if (ncco) await runNcco(call, ncco, call.generation);
    else await fetchNcco(call, call.answerUrl, call.answerMethod, call.generation);
  }

  async function fetchNcco(call: VonageCall, url: string, method: string, generation: number): Promise<void> {
    const exchange = await requestNcco(call, url, method);
    if (generation !== call.generation || call.ended) return;
    const ncco = nccoOf(exchange);
    if (!ncco) {
      call.note(`answer_url ${url} answered ${exchange.status} without an NCCO array`);
      return endCall(call, "failed");
    }
    await runNcco(call, ncco, generation);
  }

  /** Runs NCCO actions in order; the call ends when they run out. */
  async function runNcco(call: VonageCall, ncco: unknown[], generation: number): Promise<void> {
    call.nccos.push(ncco);
    for (const action of ncco) {
      if (call.ended || generation !== call.generation) return;
      if (!isRecord(action)) continue;
      call.note(`action ${String(action.action)}`);
      if (action.action === "connect") {
        const endpoint = Array.isArray(action.endpoint) && isRecord(action.endpoint[0]) ? action.endpoint[0] : null;
        if (!endpoint) continue;
        if (endpoint.type === "websocket") {
          const result = await openWebsocket(call, endpoint);
          if (result === "stop" || call.ended || generation !== call.generation) return;
          continue;
        }
        const callerId = typeof action.from === "string" ? action.from : undefined;
        book.recordTransfer(call, endpointDestination(endpoint), callerId, server.now());
        if (!(await call.sleep(dialTalkMs, generation))) return;
        continue;
      }
      if (action.action === "wait") {
        const seconds = typeof action.timeout === "number" ? action.timeout : 10;
        if (!(await call.sleep(seconds * 1000, generation))) return;
      }
      // talk, stream, input, record, notify, conversation: noted and not simulated.
    }
    if (!call.ended && generation === call.generation) await endCall(call, "completed");
  }

  async function openWebsocket(call: VonageCall, endpoint: Record<string, unknown>): Promise<"next" | "stop"> {
    const uri = typeof endpoint.uri === "string" ? endpoint.uri : "";
    const contentType =
      typeof endpoint["content-type"] === "string" ? endpoint["content-type"] : "audio/l16;rate=16000";
    const rate =
      contentType.replace(/\s/g, "") === "audio/l16;rate=8000"
        ? 8000
        : contentType.replace(/\s/g, "") === "audio/l16;rate=16000"
          ? 16000
          : 0;
    if (!/^wss?:\/\//.test(uri) || rate === 0) {
      call.note(`websocket endpoint refused: uri ${uri}, content-type ${contentType}`);
      return "next";
    }
    const headers = isRecord(endpoint.headers) ? endpoint.headers : {};
    const result = await call.openLeg(uri, new VonageWebsocketWire(rate, contentType, headers)).done;
    return result.closedBy === "caller" ? "stop" : "next";
  }

  async function ringInbound(number: string, from: string, inbound: InboundOptions = {}): Promise<VonageCallHandle> {
    const owned = numbers.get(msisdn(number));
    if (!owned) throw new Error(`The Vonage double has no number ${number}`);
    const app = owned.appId ? applications.get(owned.appId) : undefined;
    if (!app) throw new Error(`Number ${number} is linked to no application: import it into Parley first`);
    const call = newCall(app, "inbound", from, owned.msisdn, Boolean(inbound.forgeSignature));
    call.eventUrl = app.eventUrl;
    call.eventMethod = app.eventMethod;
    call.prepareFarEnd(inbound);
    book.add(call);
    await sendEvent(call, "ringing");
    const voice = await requestNcco(call, app.answerUrl, app.answerMethod);
    const ncco = nccoOf(voice);
    if (!ncco) {
      call.note(`answer_url answered ${voice.status}`);
      call.status = "failed";
      call.finish();
    } else {
      call.answeredAt = server.now();
      void sendEvent(call, "answered").then(() => runNcco(call, ncco, call.generation));
    }
    return callHandle(call, voice, () => endCall(call, "completed"));
  }

  return {
    ...book.face(server, ringInbound, (call) => endCall(call, "completed")),
    numbers,
    applications,
    signatureSecret: (apiKey) => accounts.get(apiKey)?.signatureSecret ?? "",
  };
}

/** Vonage's WebSocket, Vonage's side: 16-bit linear PCM in binary frames of 20 ms, JSON text for the rest. */
export class VonageWebsocketWire implements StreamWire {
  private readonly frameBytes: number;
  private readonly down: Resampler | null;
  private readonly up: Resampler | null;
  /** Notify payloads by the mark name the leg tracks. */
  private readonly payloads = new Map<string, unknown>();
  private notifications = 0;

  constructor(
    rate: number,
    private readonly contentType: string,
    private readonly headers: Record<string, unknown>,
  ) {
    this.frameBytes = (rate / 50) * 2;
    this.down = rate === 16000 ? null : new Resampler(16_000, rate);
    this.up = rate === 16000 ? null : new Resampler(rate, 16_000);
  }

  opening(): string[] {
    return [JSON.stringify({ event: "websocket:connected", "content-type": this.contentType, ...this.headers })];
  }

  audio(frame: Int16Array): Buffer[] {
    return [pcmToBytes(this.down ? this.down.process(frame) : frame)];
  }

  dtmf(digit: string): string[] {
    return [JSON.stringify({ event: "websocket:dtmf", digit, duration: 260 })];
  }

  markPlayed(name: string): string[] {
    const payload = this.payloads.get(name);
    this.payloads.delete(name);
    return [JSON.stringify({ event: "websocket:notify", payload })];
  }

  /** Vonage acknowledges a clear; notifications queued behind the dropped audio are not sent. */
  cleared(droppedMarks: string[]): string[] {
    for (const name of droppedMarks) this.payloads.delete(name);
    return [JSON.stringify({ event: "websocket:cleared" })];
  }

  closing(): string[] {
    return [];
  }

  decode(data: Buffer, isBinary: boolean): StreamCommand[] {
    if (isBinary) {
      if (data.length !== this.frameBytes)
        return [
          {
            type: "invalid",
            reason: `binary frame of ${data.length} bytes; Vonage takes ${this.frameBytes}`,
            raw: `<${data.length} bytes>`,
          },
        ];
      const pcm = bytesToPcm(data);
      return [{ type: "audio", pcm: this.up ? this.up.process(pcm) : pcm.slice() }];
    }
    const raw = data.toString("utf8");
    const message = parseJsonMessage(data, false);
    if (!message) return [{ type: "invalid", reason: "not a JSON text message", raw }];
    switch (message.action) {
      case "clear":
        return [{ type: "clear" }];
      case "notify": {
        this.notifications++;
        const name = `notify-${this.notifications}`;
        this.payloads.set(name, message.payload);
        return [{ type: "mark", name }];
      }
      default:
        return [{ type: "invalid", reason: `unknown action ${String(message.action)}`, raw }];
    }
  }
}
