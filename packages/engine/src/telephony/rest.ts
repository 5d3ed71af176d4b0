import { TelephonyError, type TelephonyErrorKind, type TelephonyNetwork } from "./types.ts";
import { networkReason, vendorMessage } from "./vendor-message.ts";

export interface TelephonyRequest {
  provider: string;
  url: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  headers?: Record<string, string>;
  /** A form body (application/x-www-form-urlencoded). */
  form?: URLSearchParams;
  /** A JSON body. */
  json?: unknown;
  net: TelephonyNetwork;
  timeoutMs?: number;
}

/** What a refusal means for the server: bad keys, a missing resource, an outage, or a refused request. */
export function errorKind(status: number): TelephonyErrorKind {
  if (status === 401 || status === 403) return "credentials";
  if (status === 404) return "not_found";
  if (status === 408 || status === 429 || status >= 500) return "unavailable";
  return "rejected";
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Sends one call-control request; any failure becomes a TelephonyError whose kind lets the server
 * pick its text (the vendor's own sentence kept in the message).
 */
export async function telephonyRequest(request: TelephonyRequest): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json", ...request.headers };
  let body: string | undefined;
  if (request.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = request.form.toString();
  } else if (request.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(request.json);
  }
  let response: Response;
  try {
    response = await request.net.fetch(request.url, {
      method: request.method ?? (body === undefined ? "GET" : "POST"),
      headers,
      body,
      signal: AbortSignal.timeout(request.timeoutMs ?? 15_000),
    });
  } catch (error) {
    throw new TelephonyError(
      request.provider,
      "unavailable",
      `${request.provider}: network error: ${networkReason(error)}`,
      undefined,
      originOf(request.url),
    );
  }
  if (!response.ok) {
    const body = await response.text().catch(() => "");
    const message = `${request.provider}: HTTP ${response.status}: ${vendorMessage(body)}`;
    throw new TelephonyError(
      request.provider,
      errorKind(response.status),
      message,
      response.status,
      originOf(request.url),
    );
  }
  return response;
}

/** Like `telephonyRequest`, reading a JSON answer (an empty body reads as {}). */
export async function telephonyJson(request: TelephonyRequest): Promise<unknown> {
  const response = await telephonyRequest(request);
  const text = await response.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new TelephonyError(
      request.provider,
      "unavailable",
      `${request.provider}: answered with something that is not JSON`,
    );
  }
}
