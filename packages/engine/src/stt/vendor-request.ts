import { ProviderError } from "../providers/provider-error.ts";
import type { NetworkDeps } from "../providers/types.ts";

export interface VendorRequest {
  provider: string;
  url: string;
  method?: "POST" | "GET";
  headers: Record<string, string>;
  body?: RequestInit["body"];
  net: NetworkDeps;
  signal?: AbortSignal;
  /** Request sent → response headers received. */
  timeoutMs?: number;
}

/**
 * Sends one request to a vendor and returns its successful response. A refusal becomes a
 * ProviderError classified by status (with the vendor's own sentence); an unreachable host or a
 * timeout becomes a retryable one. The caller's signal aborts the request and the body read.
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
  try {
    const response = await request.net.fetch(request.url, {
      method: request.method ?? "POST",
      headers: request.headers,
      body: request.body,
      signal: controller.signal,
    });
    if (!response.ok) throw await refusal(request.provider, response);
    return response;
  } catch (error) {
    if (error instanceof ProviderError) throw error;
    if (request.signal?.aborted) throw request.signal.reason ?? error;
    if (timedOut) throw new ProviderError(request.provider, `no response within ${timeoutMs} ms`, true);
    throw new ProviderError(request.provider, `network error: ${reason(error)}`, true, undefined, { cause: error });
  } finally {
    // The caller's signal stays wired to the controller: aborting it also stops the body read.
    clearTimeout(timer);
  }
}

async function refusal(provider: string, response: Response): Promise<ProviderError> {
  const body = await response.text().catch(() => "");
  return ProviderError.fromStatus(provider, response.status, vendorSentence(body) ?? body);
}

/** The readable part of the usual vendor error bodies ({error: {message}}, {detail}, {message}, …). */
export function vendorSentence(body: string): string | null {
  try {
    const json = JSON.parse(body) as Record<string, unknown>;
    const candidates = [json.error, json.detail, json.message, json.err_msg, json.title];
    for (const candidate of candidates) {
      if (typeof candidate === "string") return candidate;
      if (candidate && typeof candidate === "object") {
        const nested = (candidate as { message?: unknown }).message;
        if (typeof nested === "string") return nested;
      }
    }
    return null;
  } catch {
    return null;
  }
}

function reason(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (!parts.includes(current.message)) parts.push(current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.join(": ") || String(error);
}
