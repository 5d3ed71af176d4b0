import type { FastifyRequest } from "fastify";
import pino, { type LoggerOptions } from "pino";

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

/** The request address as it may be logged: secret query values replaced, the rest kept for debugging. */
export function loggableUrl(url: string): string {
  const at = url.indexOf("?");
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY.test(key)) params.set(key, REDACTED);
  return `${url.slice(0, at)}?${params.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED)}`;
}

/**
 * Drizzle's failed-query errors spell out every SQL parameter in their message (password hashes,
 * stored headers, anything a row held): the statement is kept for debugging, the parameters not.
 */
function withoutQueryParams(text: unknown): unknown {
  return typeof text === "string" ? text.replace(/\nparams: .*/g, `\nparams: ${REDACTED}`) : text;
}

function serializeError(error: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { ...pino.stdSerializers.err(error) };
  out.message = withoutQueryParams(out.message);
  out.stack = withoutQueryParams(out.stack);
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
