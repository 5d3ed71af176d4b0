import { createHmac } from "node:crypto";
import { FUNCTION_MAX_RESPONSE_BYTES } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { BlockedAddressError, CrossOriginRedirectError } from "../../lib/safe-network.ts";
import { openHeaders } from "../../lib/secret-headers.ts";
import type { FunctionRow } from "./schema.ts";

export type WebhookTarget = Pick<FunctionRow, "url" | "method" | "headers" | "timeout" | "secret">;

export interface WebhookResult {
  ok: boolean;
  /** 0 when no response came. */
  status: number;
  durationMs: number;
  body: string;
  error?: string;
  /** No response came because the function's timeout ran out. */
  timedOut?: boolean;
  /** Requests sent (2 when the first failed and was retried). */
  attempts?: number;
}

/** `sha256=<hex>` of HMAC-SHA256 over `<timestamp>.<payload>`, the way receivers verify a Parley call. */
export function webhookSignature(secret: string, timestamp: string, payload: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex")}`;
}

/** GET carries the arguments in the query (objects as JSON); every other method as a JSON body. */
function buildRequest(fn: WebhookTarget, args: Record<string, unknown>): { url: URL; payload: string; body?: string } {
  const url = new URL(fn.url);
  if (fn.method !== "GET") {
    const body = JSON.stringify(args);
    return { url, payload: body, body };
  }
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    url.searchParams.set(key, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return { url, payload: url.searchParams.toString() };
}

/** Reads at most `limit` bytes of a body and drops the rest without waiting for it. */
async function readCapped(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    size += value.byteLength;
  }
  if (size >= limit) await reader.cancel().catch(() => undefined);
  return new TextDecoder().decode(Buffer.concat(parts).subarray(0, limit));
}

function describeFailure(error: unknown, fn: WebhookTarget, timedOut: boolean): string {
  if (error instanceof BlockedAddressError) return error.message;
  if (error instanceof CrossOriginRedirectError) {
    return `${fn.url} redirected to another host (${error.to}); the function's headers are only sent to ${error.from}.`;
  }
  if (timedOut) return `The function did not answer within ${fn.timeout} seconds.`;
  if (error instanceof Error && error.name === "AbortError") return "The call was cancelled.";
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return `Could not reach ${new URL(fn.url).origin}: ${cause ?? message}`;
}

export interface InvokeOptions {
  /** Aborts the request (a live call's barge-in or tool timeout). */
  signal?: AbortSignal;
  /**
   * Sent as the `Idempotency-Key` header, the same on every attempt, so a receiver that keeps the
   * keys it has seen does a retried request once.
   */
  idempotencyKey?: string;
  /**
   * Attempt once more when the first attempt failed in a way that may pass (no answer, a reset
   * connection, 429, 5xx), within the function's timeout and while `signal` allows. Only for a
   * caller that sends an idempotency key: a retried request must be recognisable as the same one.
   */
  retry?: boolean;
}

/** The pause before the second attempt: long enough for a blip, short enough for a turn. */
const RETRY_BACKOFF_MS = 300;
/** A Retry-After longer than this is not waited for: a caller is on the line. */
const MAX_RETRY_AFTER_MS = 2_000;

/** Headers of one attempt: the user's, ours, a fresh signature. */
function attemptHeaders(ctx: AppContext, fn: WebhookTarget, payload: string, hasBody: boolean, key?: string) {
  // Lower-cased so a user's "Content-Type" is replaced, not merged with ours.
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(openHeaders(ctx.secrets, fn.headers)).map(([name, value]) => [name.toLowerCase(), value]),
  );
  headers["user-agent"] ??= "Parley-Webhook/1.0";
  if (hasBody) headers["content-type"] = "application/json";
  if (key) headers["idempotency-key"] = key;
  if (fn.secret) {
    const timestamp = String(Math.floor(ctx.now().getTime() / 1000));
    headers["x-parley-timestamp"] = timestamp;
    headers["x-parley-signature"] = webhookSignature(ctx.secrets.decrypt(fn.secret), timestamp, payload);
  }
  return headers;
}

/** One request; never throws. Says whether a failure may pass on a second attempt, and any Retry-After. */
async function attempt(
  ctx: AppContext,
  fn: WebhookTarget,
  request: ReturnType<typeof buildRequest>,
  signal: AbortSignal,
  timeout: AbortSignal,
  key: string | undefined,
): Promise<{ result: WebhookResult; retryable: boolean; retryAfterMs: number | null }> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const { url, payload, body } = request;
  const headers = attemptHeaders(ctx, fn, payload, body !== undefined, key);
  try {
    const response = await ctx.network.fetch(url, { method: fn.method, headers, body, signal });
    const text = await readCapped(response, FUNCTION_MAX_RESPONSE_BYTES);
    const result: WebhookResult = { ok: response.ok, status: response.status, durationMs: elapsed(), body: text };
    if (response.ok) return { result, retryable: false, retryAfterMs: null };
    result.error = `The function answered with HTTP ${response.status}.`;
    const retryable = response.status === 429 || response.status >= 500;
    return { result, retryable, retryAfterMs: retryAfterMs(response.headers.get("retry-after")) };
  } catch (error) {
    if (error instanceof CrossOriginRedirectError) {
      // Header names only: which saved headers a host tried to draw elsewhere, never their values.
      ctx.calls.log.warn(
        { from: error.from, to: error.to, headers: error.headers },
        "function webhook redirected to another host; not followed",
      );
    }
    const timedOut = timeout.aborted;
    const result: WebhookResult = {
      ok: false,
      status: 0,
      durationMs: elapsed(),
      body: "",
      error: describeFailure(error, fn, timedOut),
      timedOut,
    };
    // A refusal by policy fails the same way twice; an abort or a timeout leaves no time to try again.
    const refused = error instanceof BlockedAddressError || error instanceof CrossOriginRedirectError;
    return { result, retryable: !refused && !signal.aborted, retryAfterMs: null };
  }
}

/** Retry-After as milliseconds (seconds or an HTTP date); null when absent or unreadable. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** Resolves after `ms`, or at once when `signal` aborts first; true when the wait ran its course. */
function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ran: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", stop);
      resolve(ran);
    };
    const stop = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}

/**
 * Calls a function's webhook with the model's arguments through the SSRF-safe network, signed when
 * the function has a secret, bounded by its timeout (every attempt together). With `retry`, a
 * failure that may pass is attempted once more after a short pause, with the same idempotency key.
 * Never throws: failures come back as `error`.
 */
export async function invokeFunctionWebhook(
  ctx: AppContext,
  fn: WebhookTarget,
  args: Record<string, unknown>,
  options: InvokeOptions = {},
): Promise<WebhookResult> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(fn.timeout * 1000);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const request = buildRequest(fn, args);
  const first = await attempt(ctx, fn, request, signal, timeout, options.idempotencyKey);
  if (!options.retry || !first.retryable) return first.result;
  const wait = Math.max(RETRY_BACKOFF_MS, first.retryAfterMs ?? 0);
  if (wait > MAX_RETRY_AFTER_MS) return first.result;
  ctx.calls.log.warn(
    {
      origin: new URL(fn.url).origin,
      status: first.result.status,
      error: first.result.error,
      idempotencyKey: options.idempotencyKey,
    },
    "function webhook failed; trying once more with the same idempotency key",
  );
  if (!(await pause(wait, signal))) return first.result;
  const second = await attempt(ctx, fn, request, signal, timeout, options.idempotencyKey);
  return { ...second.result, durationMs: Math.round(performance.now() - started), attempts: 2 };
}
