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

/**
 * Calls a function's webhook with the model's arguments through the SSRF-safe network, signed when
 * the function has a secret, bounded by its timeout. Never throws: failures come back as `error`.
 */
export async function invokeFunctionWebhook(
  ctx: AppContext,
  fn: WebhookTarget,
  args: Record<string, unknown>,
  options: { signal?: AbortSignal } = {},
): Promise<WebhookResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeout = AbortSignal.timeout(fn.timeout * 1000);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const { url, payload, body } = buildRequest(fn, args);
  // Lower-cased so a user's "Content-Type" is replaced, not merged with ours.
  const headers: Record<string, string> = Object.fromEntries(
    Object.entries(openHeaders(ctx.secrets, fn.headers)).map(([name, value]) => [name.toLowerCase(), value]),
  );
  headers["user-agent"] ??= "Parley-Webhook/1.0";
  if (body !== undefined) headers["content-type"] = "application/json";
  if (fn.secret) {
    const timestamp = String(Math.floor(ctx.now().getTime() / 1000));
    headers["x-parley-timestamp"] = timestamp;
    headers["x-parley-signature"] = webhookSignature(ctx.secrets.decrypt(fn.secret), timestamp, payload);
  }
  try {
    const response = await ctx.network.fetch(url, { method: fn.method, headers, body, signal });
    const text = await readCapped(response, FUNCTION_MAX_RESPONSE_BYTES);
    const result: WebhookResult = { ok: response.ok, status: response.status, durationMs: elapsed(), body: text };
    if (!response.ok) result.error = `The function answered with HTTP ${response.status}.`;
    return result;
  } catch (error) {
    if (error instanceof CrossOriginRedirectError) {
      // Header names only: which saved headers a host tried to draw elsewhere, never their values.
      ctx.calls.log.warn(
        { from: error.from, to: error.to, headers: error.headers },
        "function webhook redirected to another host; not followed",
      );
    }
    return {
      ok: false,
      status: 0,
      durationMs: elapsed(),
      body: "",
      error: describeFailure(error, fn, timeout.aborted),
    };
  }
}
