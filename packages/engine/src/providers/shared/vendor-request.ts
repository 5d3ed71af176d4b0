import { ProviderError } from "../provider-error.ts";
import type { NetworkDeps } from "../types.ts";
import { networkError, networkErrorText, statusError } from "./http-errors.ts";

export interface VendorRequest {
  provider: string;
  url: string;
  /** POST when there is a body, GET otherwise. */
  method?: "GET" | "POST" | "DELETE";
  headers?: Record<string, string>;
  /** A raw body (FormData, text). */
  body?: RequestInit["body"];
  /** A JSON value, sent as application/json. */
  json?: unknown;
  net: NetworkDeps;
  signal?: AbortSignal;
  /** Request sent → response headers received. */
  timeoutMs?: number;
}

/**
 * The codes the server's network (NetworkDeps) sets on its own refusals: an address its policy
 * blocks, a redirect to another origin that would carry the request's credentials. Asking again
 * meets the same policy, so these are not retryable like a network failure is.
 */
const POLICY_REFUSALS: ReadonlySet<string> = new Set([
  "ERR_PARLEY_BLOCKED_ADDRESS",
  "ERR_PARLEY_CROSS_ORIGIN_REDIRECT",
]);

/** Whether a fetch failure is (or wraps, as "fetch failed" does) a policy refusal. */
function policyRefusal(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === "string" && POLICY_REFUSALS.has(code)) return true;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Sends one request to a vendor and returns its successful response. A refusal becomes a
 * ProviderError classified by status (with the vendor's own sentence); an unreachable host or a
 * timeout becomes a retryable one, the network policy's own refusal a final one. The caller's
 * signal aborts the request and the body read.
 */
export async function vendorRequest(request: VendorRequest): Promise<Response> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal?.reason);
  if (request.signal?.aborted) throw request.signal.reason;
  request.signal?.addEventListener("abort", onAbort, { once: true });
  const timeoutMs = request.timeoutMs ?? 15_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const headers = { ...request.headers };
  let body = request.body;
  if (request.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.json);
  }
  try {
    const response = await request.net.fetch(request.url, {
      method: request.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      signal: controller.signal,
    });
    if (!response.ok) throw await statusError(request.provider, response);
    return response;
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (request.signal?.aborted) throw request.signal.reason ?? error;
    if (timedOut) throw new ProviderError(request.provider, `no response within ${timeoutMs} ms`, true);
    // Worded as any network failure (callers strip or match "network error: "), but final.
    if (policyRefusal(error)) {
      throw new ProviderError(request.provider, `network error: ${networkErrorText(error)}`, false, undefined, {
        cause: error,
      });
    }
    throw networkError(request.provider, error);
  } finally {
    // The caller's signal stays wired to the controller: aborting it also stops the body read.
    clearTimeout(timer);
  }
}

/** Like `vendorRequest`, asking for and parsing a JSON answer. */
export async function vendorJson<T>(request: VendorRequest): Promise<T> {
  const response = await vendorRequest({ ...request, headers: { accept: "application/json", ...request.headers } });
  try {
    return (await response.json()) as T;
  } catch (error) {
    throw new ProviderError(request.provider, "answered with something that is not JSON", true, response.status, {
      cause: error,
    });
  }
}
