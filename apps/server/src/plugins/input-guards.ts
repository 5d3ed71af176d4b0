import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../lib/app-error.ts";
import { fieldLabel, validationFailed } from "../lib/field-errors.ts";

/** Deeper than any body the API takes (an assistant's nested settings are a few levels). */
export const MAX_INPUT_DEPTH = 32;

type Finding = { kind: "nul"; path: string[] } | { kind: "deep" };

/**
 * Finds the first string (or key) holding a NUL character, or nesting beyond MAX_INPUT_DEPTH.
 * PostgreSQL cannot store NUL in text or jsonb, so such a value would fail deep inside a query
 * as a 500; refused here, every route answers the same 4xx.
 */
function inspect(value: unknown, path: string[], depth: number): Finding | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? { kind: "nul", path } : undefined;
  if (typeof value !== "object" || value === null) return undefined;
  if (depth >= MAX_INPUT_DEPTH) return { kind: "deep" };
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    if (key.includes("\u0000")) return { kind: "nul", path: [...path, key.replaceAll("\u0000", "")] };
    const found = inspect(child, [...path, key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

function refuseUnsafeInput(request: FastifyRequest) {
  for (const part of [request.params, request.query, request.body]) {
    const found = inspect(part, [], 0);
    if (!found) continue;
    if (found.kind === "deep") {
      throw new AppError("bad_request", `The request is nested more than ${MAX_INPUT_DEPTH} levels deep.`);
    }
    const message = `${fieldLabel(found.path)} contains a NUL character, which is not allowed.`;
    throw validationFailed([{ path: found.path, message }]);
  }
}

/** A multipart Content-Type needs a boundary of 1–70 characters (RFC 2046); the parser throws on others. */
function refuseBrokenMultipart(request: FastifyRequest) {
  const type = request.headers["content-type"];
  if (!type || !/^multipart\//i.test(type)) return;
  const boundary = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(type);
  const value = boundary?.[1] ?? boundary?.[2] ?? "";
  if (value.length < 1 || value.length > 70) {
    throw new AppError("bad_request", "A multipart body needs a boundary of 1 to 70 characters in its Content-Type.");
  }
}

/**
 * Input every route refuses before its own validation runs: NUL characters in any string of the
 * path, query or body, JSON nested too deeply, and multipart bodies the parser cannot read.
 */
export function registerInputGuards(app: FastifyInstance) {
  app.addHook("onRequest", async (request) => refuseBrokenMultipart(request));
  app.addHook("preValidation", async (request) => refuseUnsafeInput(request));
}
