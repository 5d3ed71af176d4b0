import type { FaultKind } from "@parley/contract";
import { ProviderError } from "./provider-error.ts";
import { SilentTranscriberError, StageTimeoutError } from "./stage-deadlines.ts";

/** Node's codes for a vendor that cannot be reached at all: refused, unresolvable, unroutable, reset. */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** The error and its causes, outermost first (fetch wraps the socket's error in `cause`). */
function chain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  for (let e: unknown = error; e && seen.length < 6 && !seen.includes(e); ) {
    seen.push(e);
    e =
      e instanceof Error || (typeof e === "object" && e !== null && "cause" in e)
        ? (e as { cause?: unknown }).cause
        : null;
  }
  return seen;
}

const codeOf = (e: unknown): string | undefined =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined;

/** What kind of failure `error` is, for the call's log and the fault policy's wording. */
export function faultKind(error: unknown): FaultKind {
  const errors = chain(error);
  const told = errors.find(
    (e): e is { faultKind: FaultKind } => typeof e === "object" && e !== null && "faultKind" in e,
  );
  if (told) return told.faultKind;
  if (errors.some((e) => e instanceof SilentTranscriberError)) return "silent";
  if (errors.some((e) => e instanceof StageTimeoutError)) return "timeout";
  for (const e of errors) {
    const code = codeOf(e);
    if (code && UNREACHABLE.has(code)) return "unreachable";
    if (code === "ETIMEDOUT" || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") return "timeout";
  }
  const status = errors.find((e): e is ProviderError => e instanceof ProviderError && e.status !== undefined)?.status;
  if (status === 429) return "rate_limited";
  if (status === 408) return "timeout";
  if (status !== undefined && status >= 500) return "server_error";
  if (status !== undefined && status >= 400) return "rejected";
  const text = errors.map(messageOf).join(" ").toLowerCase();
  if (/timed out|timeout/.test(text)) return "timeout";
  if (/refused|enotfound|getaddrinfo|fetch failed|unreachable|could not connect|could not be reached/.test(text)) {
    return "unreachable";
  }
  if (/closed|terminated|ended before|cut|reset|aborted|premature|socket hang up|connection lost|\b1006\b/.test(text)) {
    return "stream_cut";
  }
  if (/json|malformed|unexpected token|parse/.test(text)) return "malformed";
  return "failed";
}

/** The failure as one line for the log: the message of the error and its causes, without secrets. */
export function faultMessage(error: unknown): string {
  const parts: string[] = [];
  for (const e of chain(error)) {
    const text = messageOf(e);
    if (text && !parts.some((p) => p.includes(text))) parts.push(text);
  }
  return redactSecrets(parts.join(": ")).slice(0, 500);
}

/** An error's own words; an object that is not an Error (a socket's error event) says nothing unless it has a message. */
function messageOf(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === "object" && e !== null) {
    const message = (e as { message?: unknown }).message;
    return typeof message === "string" ? message : "";
  }
  return String(e);
}

/** Bearer tokens, API keys in query strings and key-like words: never in a log or a call's events. */
export function redactSecrets(text: string): string {
  return text
    .replace(/(bearer|token|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, "$1 [redacted]")
    .replace(/([?&](?:api[_-]?key|key|token|access_token|signature|sig)=)[^&\s]+/gi, "$1[redacted]")
    .replace(/\b(sk|pk|rk|xi|gsk|key)[-_][A-Za-z0-9_-]{12,}\b/g, "[redacted]");
}
