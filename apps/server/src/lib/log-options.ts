import { faultMessage, redactSecrets } from "@parley/engine";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import pino, { type LoggerOptions } from "pino";
import { prettyDestination } from "./pretty-log.ts";

const REDACTED = "[redacted]";

/** Field names whose values are secrets wherever they appear in a logged object. */
const SECRET_KEYS = [
  "authorization",
  "cookie",
  "set-cookie",
  "password",
  "new_password",
  "current_password",
  "password_hash",
  "passwordHash",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "secret",
  "client_secret",
  "api_key",
  "apiKey",
  "x-api-key",
  "headers",
  "credentials",
];

// pino's redaction names exact paths: each secret key at the top of a logged object and one to
// three levels inside it (the `err`, `req`, `body` or `config` it was logged with).
const REDACT_PATHS = SECRET_KEYS.flatMap((key) => {
  const k = /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`;
  return [k.slice(k.startsWith(".") ? 1 : 0), `*${k}`, `*.*${k}`, `*.*.*${k}`];
});

/** Query parameters that carry a credential: sign-in and reset links, room tokens, OAuth codes. */
const SECRET_QUERY = /^(token|access_token|code|state|key|api_key|signature|password|secret)$/i;
/**
 * Query parameters that carry a person's data: a data subject's number or address
 * (`/privacy/subjects`), and searches by number, name or email (call logs, the do-not-call list,
 * admin users). Request lines are logged on every request; they must not become a copy of it.
 */
const PERSONAL_QUERY = /^(phone|email|search|q)$/i;

/** The request address as it may be logged: secret and personal query values replaced, the rest kept for debugging. */
export function loggableUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const key of [...params.keys()]) {
    if (SECRET_QUERY.test(key) || PERSONAL_QUERY.test(key)) params.set(key, REDACTED);
  }
  return `${url.slice(0, at)}?${params.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED)}`;
}

/**
 * Drizzle's failed-query errors spell out every SQL parameter in their message (password hashes,
 * stored headers, anything a row held): the statement is kept for debugging, the parameters not.
 */
function withoutQueryParams(text: unknown): unknown {
  return typeof text === "string" ? text.replace(/\nparams: .*/g, `\nparams: ${REDACTED}`) : text;
}

const redactedText = (text: unknown): unknown =>
  typeof text === "string" ? redactSecrets(withoutQueryParams(text) as string) : text;

/**
 * An error as logged: its message and stack without query parameters or key-like words (a vendor's
 * message may quote the URL or header it was sent). A plain string (an `error` field holding an
 * already redacted message) stays a string.
 */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return redactedText(error);
  const out: Record<string, unknown> = { ...pino.stdSerializers.err(error) };
  out.message = redactedText(out.message);
  out.stack = redactedText(out.stack);
  if ("params" in out) out.params = REDACTED;
  return out;
}

/**
 * pino options for every log line of the server: secret fields redacted, failed-query parameters
 * dropped, and request addresses logged without their secret query values.
 */
export function logOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      err: serializeError,
      error: serializeError,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
    },
  };
}

export type LogFormat = "json" | "pretty";

/**
 * The server's one logger (the context's services and Fastify's requests share it): JSON lines on
 * stdout, or with LOG_FORMAT=pretty one readable line an entry. `out` replaces stdout (tests).
 */
export function createLogger(
  options: { level: string; format: LogFormat },
  out?: { write(chunk: string): unknown; isTTY?: boolean },
): FastifyBaseLogger {
  if (options.format === "pretty") return pino(logOptions(options.level), prettyDestination(out));
  return out ? pino(logOptions(options.level), out) : pino(logOptions(options.level));
}

/** The first error along `cause` that says which provider failed (ProviderError, TelephonyError, …). */
function providerErrorOf(error: unknown): { provider: string; status?: unknown } | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 6; depth += 1) {
    if ("provider" in e && typeof e.provider === "string") return e as { provider: string; status?: unknown };
    e = "cause" in e ? e.cause : undefined;
  }
  return undefined;
}

/**
 * What an operator needs of a failed call to a vendor: the provider and HTTP status the error
 * carries (when it does) and its message with its causes, secrets redacted. Spread into the fields
 * of a warn/error line beside the workspace and call ids.
 */
export function failureFields(error: unknown): { provider?: string; status?: number; error: string } {
  const vendor = providerErrorOf(error);
  const status = vendor?.status;
  return {
    ...(vendor ? { provider: vendor.provider } : {}),
    ...(typeof status === "number" ? { status } : {}),
    error: faultMessage(error),
  };
}
