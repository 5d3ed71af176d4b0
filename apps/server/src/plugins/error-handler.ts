import { ERROR_TEXTS } from "@parley/contract";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError } from "../lib/app-error.ts";

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

/** "body.email: Invalid email address; body.password: Too small" — names each bad field. */
function describeValidation(issues: ValidationIssue[], context: string | undefined): string {
  const parts = issues.map((issue) => {
    const field = issue.instancePath?.replace(/^\//, "").replaceAll("/", ".");
    const where = [context, field].filter(Boolean).join(".");
    return where ? `${where}: ${issue.message ?? "is invalid"}` : (issue.message ?? "is invalid");
  });
  return parts.join("; ") || "Request is invalid";
}

/**
 * Every error leaves as JSON {"detail": "..."} with its status. 5xx bodies are generic and
 * never carry a stack; the full error goes to the log with the request id.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.status).headers(error.headers).send({ detail: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(422).send({ detail: describeValidation(error.validation, error.validationContext) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, "response did not match its schema");
      return reply.code(500).send({ detail: ERROR_TEXTS.internal });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "unhandled error");
      return reply.code(500).send({ detail: ERROR_TEXTS.internal });
    }
    if (error.validation) {
      return reply.code(422).send({ detail: describeValidation(error.validation, error.validationContext) });
    }
    // Fastify's own 4xx (malformed JSON, unsupported media type, body too large, …).
    return reply.code(status).send({ detail: error.message });
  });
}

/** Unknown routes: a JSON 404 (the web app plugin replaces this with its SPA fallback). */
export function registerJsonNotFound(app: FastifyInstance) {
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ detail: `Route ${request.method} ${request.url.split("?")[0]} not found` });
  });
}
