import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import { listenLocally } from "../local-http-server.ts";

/** One request a double received, as the vendor's API would see it. */
export interface DoubleRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** Milliseconds since the double started. */
  at: number;
  /** The status the double answered with (set once answered). */
  status?: number;
}

export interface DoubleResponse {
  status: number;
  /** Serialised as JSON unless `text` is given. */
  json?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

/** A route: method, a path pattern with `:name` segments, and its handler. */
export interface DoubleRoute {
  method: string;
  pattern: string;
  handle(request: DoubleRequest, params: Record<string, string>): DoubleResponse | Promise<DoubleResponse>;
}

export interface DoubleServer {
  /** http://127.0.0.1:<port>: the adapter's baseUrl. */
  origin: string;
  requests: DoubleRequest[];
  /** Milliseconds since the double started (the clock of `at` fields). */
  now(): number;
  close(): Promise<void>;
}

/** A route handler that runs once the request's credentials named an account. */
export type GuardedHandler<A> = (
  request: DoubleRequest,
  account: A,
  params: Record<string, string>,
) => DoubleResponse | Promise<DoubleResponse>;

/**
 * Makes routes that answer `refused` (the vendor's 401) unless `authenticate` finds the account the
 * request's credentials (and path) name; the handler gets that account.
 */
export function guardedRoutes<A>(
  authenticate: (request: DoubleRequest, params: Record<string, string>) => A | null,
  refused: DoubleResponse | (() => DoubleResponse),
): (method: string, pattern: string, handle: GuardedHandler<A>) => DoubleRoute {
  const refuse = typeof refused === "function" ? refused : () => refused;
  return (method, pattern, handle) => ({
    method,
    pattern,
    handle: (request, params) => {
      const account = authenticate(request, params);
      return account === null ? refuse() : handle(request, account, params);
    },
  });
}

/** An HTTP server on 127.0.0.1:0 that logs every request and dispatches it to the first matching route. */
export async function startDoubleServer(
  routes: readonly DoubleRoute[],
  notFound: (request: DoubleRequest) => DoubleResponse,
): Promise<DoubleServer> {
  const started = performance.now();
  const now = () => Math.round(performance.now() - started);
  const requests: DoubleRequest[] = [];
  const server = await listenLocally((req, body, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const request: DoubleRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: body.toString("utf8"),
      at: now(),
    };
    requests.push(request);
    void dispatch(routes, notFound, request).then(
      (response) => send(res, request, response),
      (error: unknown) => send(res, request, { status: 500, json: { error: String(error) } }),
    );
  });
  return { origin: server.origin, requests, now, close: server.close };
}

async function dispatch(
  routes: readonly DoubleRoute[],
  notFound: (request: DoubleRequest) => DoubleResponse,
  request: DoubleRequest,
): Promise<DoubleResponse> {
  for (const route of routes) {
    if (route.method !== request.method) continue;
    const params = matchPath(route.pattern, request.path);
    if (params) return route.handle(request, params);
  }
  return notFound(request);
}

/** Matches `/a/:id/b` against a path; a parameter takes one segment. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] ?? "";
    const g = got[i] ?? "";
    if (w.startsWith(":")) {
      // A parameter may carry a fixed suffix (":sid.json" matches "CA….json").
      const dot = w.indexOf(".");
      const suffix = dot < 0 ? "" : w.slice(dot);
      if (!g.endsWith(suffix) || g.length === suffix.length) return null;
      params[w.slice(1, dot < 0 ? undefined : dot)] = decodeURIComponent(g.slice(0, g.length - suffix.length));
    } else if (w !== g) return null;
  }
  return params;
}

function send(res: ServerResponse, request: DoubleRequest, response: DoubleResponse): void {
  request.status = response.status;
  const body = response.text ?? (response.json === undefined ? "" : JSON.stringify(response.json));
  const type = response.text === undefined ? "application/json" : "text/plain";
  res.writeHead(response.status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    ...response.headers,
  });
  res.end(body);
}

/** The value of a header that appears once. */
export function headerOf(request: DoubleRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads `Authorization: Basic user:password`; null when absent or malformed. */
export function basicAuth(request: DoubleRequest): { user: string; password: string } | null {
  const header = headerOf(request, "authorization");
  const match = header?.match(/^Basic\s+([A-Za-z0-9+/=]+)$/i);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Reads `Authorization: Bearer <token>`; null when absent. */
export function bearerToken(request: DoubleRequest): string | null {
  const match = headerOf(request, "authorization")?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}

/** Parses the body as a form (application/x-www-form-urlencoded). */
export function formOf(request: DoubleRequest): URLSearchParams {
  return new URLSearchParams(request.body);
}

/**
 * A body a vendor accepts as JSON or as a form, flattened to text values. With `joinLists`, a JSON
 * array and a repeated form field become one space-separated value (as TeXML reads them); without,
 * arrays are left out and the last repeat of a form field wins.
 */
export function bodyParamsOf(request: DoubleRequest, joinLists: boolean): Map<string, string> {
  const json = jsonObjectOf(request);
  const out = new Map<string, string>();
  if (json) {
    for (const [key, value] of Object.entries(json)) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
        out.set(key, String(value));
      if (joinLists && Array.isArray(value)) out.set(key, value.map(String).join(" "));
    }
    return out;
  }
  for (const [key, value] of formOf(request)) {
    const before = out.get(key);
    out.set(key, joinLists && before !== undefined ? `${before} ${value}` : value);
  }
  return out;
}

/** Parses the body as a JSON object; null when it is not one. */
export function jsonObjectOf(request: DoubleRequest): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(request.body);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A string field of a JSON object, or undefined. */
export function stringField(object: Record<string, unknown> | null, key: string): string | undefined {
  const value = object?.[key];
  return typeof value === "string" ? value : undefined;
}

/** Random hex of `bytes` bytes, for vendor ids (CA…, MZ…). */
export function randomHex(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");
}

/** Headers for a webhook the double sends, with the vendor's user agent. */
export interface OutgoingWebhook {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body: string;
}

/** A webhook the double sent and what came back. */
export interface WebhookExchange extends OutgoingWebhook {
  at: number;
  status: number;
  responseBody: string;
  responseType: string;
  /** Set when the request failed at the network level. */
  error?: string;
}

/** Sends a webhook (the double is the vendor calling Parley) and logs the exchange. */
export async function sendWebhook(
  log: WebhookExchange[],
  now: () => number,
  webhook: OutgoingWebhook,
): Promise<WebhookExchange> {
  const at = now();
  try {
    const response = await fetch(webhook.url, {
      method: webhook.method,
      headers: webhook.headers,
      ...(webhook.method === "POST" ? { body: webhook.body } : {}),
    });
    const exchange: WebhookExchange = {
      ...webhook,
      at,
      status: response.status,
      responseBody: await response.text(),
      responseType: response.headers.get("content-type") ?? "",
    };
    log.push(exchange);
    return exchange;
  } catch (error) {
    const exchange: WebhookExchange = {
      ...webhook,
      at,
      status: 0,
      responseBody: "",
      responseType: "",
      error: error instanceof Error ? error.message : String(error),
    };
    log.push(exchange);
    return exchange;
  }
}
