import type { Socket } from "node:net";
import { ERROR_TEXTS } from "@parley/contract";
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError, type FieldError } from "../lib/app-error.ts";
import { describeIssues } from "../lib/field-errors.ts";
import { sqlStateOf } from "../lib/unique-violation.ts";

interface ValidationIssue {
  keyword?: string;
  instancePath?: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Fastify's validation entries (one per zod issue) back as issues: their path, code and bounds. */
function issuesOf(validation: readonly ValidationIssue[]) {
  return validation.map((entry) => ({
    ...entry.params,
    code: entry.keyword,
    path: (entry.instancePath ?? "").split("/").filter(Boolean),
    message: entry.message ?? "",
  }));
}

const CONFLICT_TEXT = "This already exists. Reload and try again.";
const BAD_VALUE_TEXT =
  "A value in the request is not valid: it is too long, out of range or contains characters that cannot be stored.";
const MULTIPART_TEXT = "The uploaded form data is incomplete or malformed. Send it again.";

/** 4xx answers for failures that are the request's fault but surface as driver or parser errors. */
function clientFault(error: FastifyError): { status: number; detail: string } | undefined {
  const state = sqlStateOf(error);
  // A race two requests ran past a service's own existence check: the database's unique key decides.
  if (state === "23505") return { status: 409, detail: CONFLICT_TEXT };
  // Class 22 is "data exception": a value the column cannot hold (too long, out of range, NUL byte).
  if (state?.startsWith("22")) return { status: 422, detail: BAD_VALUE_TEXT };
  // The multipart parser's own errors carry no status: a body cut short or without a usable boundary.
  if (/unexpected end of multipart data|Multipart: Boundary not found|Malformed part header/i.test(error.message)) {
    return { status: 400, detail: MULTIPART_TEXT };
  }
  return undefined;
}

/** Sends a 422 with its field errors (the contract's ErrorResponse carries them). */
function sendValidation(
  reply: FastifyReply,
  detail: string,
  errors: FieldError[],
  headers: Record<string, string> = {},
) {
  return reply.code(422).headers(headers).send({ detail, errors });
}

/**
 * Every error leaves as JSON {"detail": "..."} with its status (422s add `errors`, one per field).
 * 5xx bodies are generic and never carry a stack; the full error goes to the log with the request id.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.status === 422 && error.errors.length > 0) {
        return sendValidation(reply, error.message, error.errors, error.headers);
      }
      return reply.code(error.status).headers(error.headers).send({ detail: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const { detail, errors } = describeIssues(issuesOf(error.validation ?? []));
      return sendValidation(reply, detail, errors);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, "response did not match its schema");
      return reply.code(500).send({ detail: ERROR_TEXTS.internal });
    }
    const fault = clientFault(error);
    if (fault) {
      request.log.warn({ err: error }, "request refused by the database or a parser");
      return reply.code(fault.status).send({ detail: fault.detail });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "unhandled error");
      return reply.code(500).send({ detail: ERROR_TEXTS.internal });
    }
    // Fastify's own 4xx (malformed JSON, unsupported media type, body too large, …).
    return reply.code(status).send({ detail: error.message });
  });
}

const FRAMEWORK_TEXTS: Record<string, { status: number; detail: string }> = {
  FST_ERR_BAD_URL: { status: 400, detail: "The request address is not valid." },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, detail: "The request address is too long." },
};

/** Fastify's routing errors (bad percent-encoding, an over-long path part), answered as `{detail}`. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 400;
  const known = FRAMEWORK_TEXTS[error.code] ?? { status, detail: status >= 500 ? ERROR_TEXTS.internal : error.message };
  reply.code(known.status).send({ detail: known.detail });
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "The request took too long to arrive."],
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "The request address or headers are too long."],
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (an address or headers over the
 * size limit, a malformed request line): the same `{detail}` shape as every other error.
 */
export function clientErrorHandler(error: ConnectionError, socket: Socket) {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // An overflow before the request line even ended is an over-long address, not over-long headers.
  // (Node hands over the bytes read as a Buffer, whatever Fastify's type says.)
  const raw: unknown = error.rawPacket;
  const addressTooLong = error.code === "HPE_HEADER_OVERFLOW" && Buffer.isBuffer(raw) && !raw.includes("\r\n");
  const [status, reason, detail] = addressTooLong
    ? [414, "URI Too Long", "The request address is too long."]
    : (CLIENT_ERRORS[error.code ?? ""] ?? [400, "Bad Request", "The request is malformed."]);
  const body = JSON.stringify({ detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Unknown routes: a JSON 404 (the web app plugin replaces this with its SPA fallback). */
export function registerJsonNotFound(app: FastifyInstance) {
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ detail: `Route ${request.method} ${request.url.split("?")[0]} not found` });
  });
}
