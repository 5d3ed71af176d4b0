import { z } from "zod";
import { timestamps } from "./resource-fields.ts";

/**
 * Functions (spec §3): webhook tools an assistant's model can call. Parley POSTs the model's
 * arguments to `url` and hands the response body back to the model.
 */

export const FUNCTION_HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export const FunctionHttpMethod = z.enum(FUNCTION_HTTP_METHODS);
export type FunctionHttpMethod = z.infer<typeof FunctionHttpMethod>;

export const FUNCTION_DEFAULT_TIMEOUT_SECONDS = 10;
export const FUNCTION_MAX_TIMEOUT_SECONDS = 120;
/** Webhook response bodies beyond this are cut before they reach the model or the test dialog. */
export const FUNCTION_MAX_RESPONSE_BYTES = 64 * 1024;
export const FUNCTION_EMPTY_PARAMETERS = { type: "object", properties: {} } as const;

export const FunctionName = z
  .string()
  .trim()
  .regex(
    /^[a-z][a-z0-9_]{0,63}$/,
    "Name must be snake_case: lowercase letters, digits and underscores, starting with a letter (at most 64)",
  );

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

export const ToolHeaders = z
  .record(z.string(), z.string().max(4000))
  .refine((h) => Object.keys(h).length <= 50, "At most 50 headers")
  .refine(
    (h) => Object.keys(h).every((k) => HEADER_NAME.test(k)),
    "Header names may only contain letters, digits and - _ .",
  )
  .refine((h) => Object.values(h).every((v) => !/[\r\n]/.test(v)), "Header values cannot contain line breaks");

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The arguments' JSON Schema: the model is always given an object schema. */
export const FunctionParameters = z
  .record(z.string(), z.unknown())
  .refine((s) => s.type === "object", 'Parameters must be a JSON Schema with "type": "object"')
  .refine((s) => s.properties === undefined || isRecord(s.properties), '"properties" must be an object')
  .refine(
    (s) => s.required === undefined || (Array.isArray(s.required) && s.required.every((r) => typeof r === "string")),
    '"required" must be a list of property names',
  )
  .refine((s) => JSON.stringify(s).length <= 32_000, "Parameters schema is too large");

export const ToolUrl = z
  .url({ protocol: /^https?$/, error: "URL must be an http(s) URL" })
  .max(2048, "URL is too long");

export const CreateFunctionBody = z.object({
  name: FunctionName,
  description: z.string().trim().min(1, "Description is required").max(1024),
  parameters: FunctionParameters.default({ ...FUNCTION_EMPTY_PARAMETERS }),
  url: ToolUrl,
  method: FunctionHttpMethod.default("POST"),
  headers: ToolHeaders.default({}),
  timeout: z.number().int().min(1).max(FUNCTION_MAX_TIMEOUT_SECONDS).default(FUNCTION_DEFAULT_TIMEOUT_SECONDS),
  /** Signs each request (HMAC-SHA256); write-only. */
  secret: z.string().max(500).optional(),
});
export type CreateFunctionBody = z.infer<typeof CreateFunctionBody>;

/** PATCH: any field; `secret: null` removes the secret, a missing or empty secret keeps it. */
export const UpdateFunctionBody = z.object({
  name: FunctionName.optional(),
  description: z.string().trim().min(1, "Description is required").max(1024).optional(),
  parameters: FunctionParameters.optional(),
  url: ToolUrl.optional(),
  method: FunctionHttpMethod.optional(),
  headers: ToolHeaders.optional(),
  timeout: z.number().int().min(1).max(FUNCTION_MAX_TIMEOUT_SECONDS).optional(),
  secret: z.string().max(500).nullable().optional(),
});
export type UpdateFunctionBody = z.infer<typeof UpdateFunctionBody>;

export const ToolFunction = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  url: z.string(),
  method: FunctionHttpMethod,
  headers: z.record(z.string(), z.string()),
  timeout: z.number().int(),
  has_secret: z.boolean(),
  ...timestamps,
});
export type ToolFunction = z.infer<typeof ToolFunction>;

export const FunctionList = z.array(ToolFunction);

export const AssignFunctionBody = z.object({ agent_id: z.uuid(), function_id: z.uuid() });
export type AssignFunctionBody = z.infer<typeof AssignFunctionBody>;

export const TestFunctionBody = z.object({ arguments: z.record(z.string(), z.unknown()).default({}) });
export type TestFunctionBody = z.infer<typeof TestFunctionBody>;

export const FunctionTestResult = z.object({
  ok: z.boolean(),
  /** HTTP status of the webhook's answer; 0 when none came (refused, timed out, unreachable). */
  status: z.number().int(),
  duration_ms: z.number().int(),
  /** The response body as text, cut at 64 KB. */
  body: z.string(),
  error: z.string().optional(),
});
export type FunctionTestResult = z.infer<typeof FunctionTestResult>;
