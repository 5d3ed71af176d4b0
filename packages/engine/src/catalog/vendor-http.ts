import { networkError, statusError } from "../providers/http-errors.ts";
import { ProviderError } from "../providers/provider-error.ts";
import type { NetworkDeps } from "../providers/types.ts";

/** Catalog and account calls answer quickly or not at all: past this they count as failed. */
const CATALOG_TIMEOUT_MS = 15_000;

export interface VendorRequest {
  provider: string;
  url: string;
  method?: "GET" | "POST" | "DELETE";
  headers?: Record<string, string>;
  /** A JSON value (sent as application/json) or a FormData (multipart). */
  body?: unknown;
  timeoutMs?: number;
}

/** Calls a vendor's REST API; any failure comes out as a ProviderError. */
export async function vendorFetch(request: VendorRequest, net: NetworkDeps): Promise<Response> {
  const timeoutMs = request.timeoutMs ?? CATALOG_TIMEOUT_MS;
  const headers: Record<string, string> = { accept: "application/json", ...request.headers };
  let body: RequestInit["body"];
  if (request.body instanceof FormData) body = request.body;
  else if (request.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.body);
  }
  let response: Response;
  try {
    response = await net.fetch(request.url, {
      method: request.method ?? "GET",
      headers,
      body,
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError") {
      throw new ProviderError(request.provider, `no answer within ${timeoutMs / 1000} s`, true, undefined, {
        cause: error,
      });
    }
    throw networkError(request.provider, error);
  }
  if (!response.ok) throw await statusError(request.provider, response);
  return response;
}

/** Like `vendorFetch`, parsing the JSON answer. */
export async function vendorJson<T>(request: VendorRequest, net: NetworkDeps): Promise<T> {
  const response = await vendorFetch(request, net);
  try {
    return (await response.json()) as T;
  } catch (error) {
    throw new ProviderError(request.provider, "answered with something that is not JSON", true, response.status, {
      cause: error,
    });
  }
}
