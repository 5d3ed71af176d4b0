import { z } from "zod";

/**
 * Post-call analysis (Vapi's analysisPlan, Retell's post-call analysis): after a call the
 * assistant's own model writes a summary, judges the call against a rubric the user wrote, and
 * extracts data to a JSON schema the user defined. The settings live on the assistant; the result
 * on the call log. The server and the assistant editor validate the user's schema with the same
 * rules (this file), so the editor shows exactly the errors a save would get.
 */

// ── the user's JSON schema (a subset) ───────────────────────────────────────

export const ANALYSIS_PROPERTY_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;
export type AnalysisPropertyType = (typeof ANALYSIS_PROPERTY_TYPES)[number];

/** One property of the data to extract. */
export interface AnalysisProperty {
  type: AnalysisPropertyType;
  description?: string;
  /** Allowed values of a string. */
  enum?: string[];
  /** The element of an array. */
  items?: AnalysisProperty;
  /** The fields of an object. */
  properties?: Record<string, AnalysisProperty>;
  required?: string[];
}

/** The root: always an object with named, typed properties. */
export interface AnalysisObjectSchema extends AnalysisProperty {
  type: "object";
  properties: Record<string, AnalysisProperty>;
}

export const ANALYSIS_SCHEMA_LIMITS = {
  /** Levels of properties and items below the root object. */
  depth: 4,
  properties: 50,
  enumValues: 50,
  description: 500,
} as const;

const PROPERTY_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const KNOWN_KEYS = new Set(["type", "description", "enum", "items", "properties", "required"]);

export interface SchemaIssue {
  path: (string | number)[];
  message: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The problems of a would-be extraction schema, each at its path (empty when it is valid). Only
 * what every model follows reliably is admitted: typed properties, string enums, arrays of one
 * item type, nested objects, `required`; anything else (formats, patterns, $ref, oneOf) is named
 * as unsupported rather than silently ignored.
 */
export function analysisSchemaIssues(schema: unknown): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (!isRecord(schema) || schema.type !== "object") {
    return [{ path: [], message: 'The schema must be an object: { "type": "object", "properties": { … } }' }];
  }
  checkProperty(schema, [], 0, issues);
  if (isRecord(schema.properties) && Object.keys(schema.properties).length === 0) {
    issues.push({ path: ["properties"], message: "Define at least one property to extract" });
  }
  return issues;
}

function checkProperty(node: unknown, path: (string | number)[], depth: number, issues: SchemaIssue[]): void {
  if (!isRecord(node)) {
    issues.push({ path, message: "A property must be an object with a type" });
    return;
  }
  for (const key of Object.keys(node)) {
    if (!KNOWN_KEYS.has(key)) issues.push({ path: [...path, key], message: `"${key}" is not supported` });
  }
  const type = node.type;
  if (typeof type !== "string" || !(ANALYSIS_PROPERTY_TYPES as readonly string[]).includes(type)) {
    issues.push({ path: [...path, "type"], message: `Type must be one of: ${ANALYSIS_PROPERTY_TYPES.join(", ")}` });
    return;
  }
  if (node.description !== undefined) {
    if (typeof node.description !== "string" || node.description.length > ANALYSIS_SCHEMA_LIMITS.description) {
      issues.push({
        path: [...path, "description"],
        message: `A description is text of at most ${ANALYSIS_SCHEMA_LIMITS.description} characters`,
      });
    }
  }
  if (node.enum !== undefined) checkEnum(node.enum, type, [...path, "enum"], issues);
  if (type === "array") checkArray(node, path, depth, issues);
  else if (node.items !== undefined) issues.push({ path: [...path, "items"], message: "Only arrays have items" });
  if (type === "object") checkObject(node, path, depth, issues);
  else if (node.properties !== undefined || node.required !== undefined) {
    issues.push({ path: [...path, "properties"], message: "Only objects have properties" });
  }
}

function checkEnum(values: unknown, type: string, path: (string | number)[], issues: SchemaIssue[]): void {
  if (type !== "string") {
    issues.push({ path, message: "Only strings can list allowed values" });
    return;
  }
  const valid =
    Array.isArray(values) &&
    values.length > 0 &&
    values.length <= ANALYSIS_SCHEMA_LIMITS.enumValues &&
    values.every((v) => typeof v === "string" && v.length > 0) &&
    new Set(values).size === values.length;
  if (!valid) {
    issues.push({
      path,
      message: `Allowed values are 1 to ${ANALYSIS_SCHEMA_LIMITS.enumValues} different, non-empty strings`,
    });
  }
}

function checkArray(node: Record<string, unknown>, path: (string | number)[], depth: number, issues: SchemaIssue[]) {
  if (node.items === undefined) {
    issues.push({ path: [...path, "items"], message: "An array needs an item type (items)" });
    return;
  }
  if (depth + 1 > ANALYSIS_SCHEMA_LIMITS.depth) {
    issues.push({ path, message: `Nesting is limited to ${ANALYSIS_SCHEMA_LIMITS.depth} levels` });
    return;
  }
  checkProperty(node.items, [...path, "items"], depth + 1, issues);
}

function checkObject(node: Record<string, unknown>, path: (string | number)[], depth: number, issues: SchemaIssue[]) {
  const properties = node.properties;
  if (!isRecord(properties)) {
    issues.push({ path: [...path, "properties"], message: "An object needs its properties" });
    return;
  }
  const names = Object.keys(properties);
  if (names.length > ANALYSIS_SCHEMA_LIMITS.properties) {
    issues.push({
      path: [...path, "properties"],
      message: `At most ${ANALYSIS_SCHEMA_LIMITS.properties} properties per object`,
    });
  }
  if (depth + 1 > ANALYSIS_SCHEMA_LIMITS.depth) {
    issues.push({ path, message: `Nesting is limited to ${ANALYSIS_SCHEMA_LIMITS.depth} levels` });
    return;
  }
  for (const name of names) {
    if (!PROPERTY_NAME.test(name)) {
      issues.push({
        path: [...path, "properties", name],
        message: "Property names are letters, digits and _, not starting with a digit (at most 64)",
      });
    }
    checkProperty(properties[name], [...path, "properties", name], depth + 1, issues);
  }
  if (node.required !== undefined) {
    const required = node.required;
    if (!Array.isArray(required) || !required.every((r) => typeof r === "string" && names.includes(r))) {
      issues.push({ path: [...path, "required"], message: "Required lists names of this object's properties" });
    }
  }
}

/** True when `schema` passes analysisSchemaIssues (narrows it for the server and the editor). */
export function isAnalysisSchema(schema: unknown): schema is AnalysisObjectSchema {
  return analysisSchemaIssues(schema).length === 0;
}

/** A user's extraction schema, checked by analysisSchemaIssues. */
export const AnalysisDataSchema = z
  .record(z.string(), z.unknown())
  .superRefine((schema, ctx) => {
    for (const issue of analysisSchemaIssues(schema))
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  })
  .describe("JSON schema (subset) of the data to extract: an object with typed properties");

// ── the assistant's settings ────────────────────────────────────────────────

export const SuccessScale = z.enum(["pass_fail", "numeric_1_10", "descriptive"]);
export type SuccessScale = z.infer<typeof SuccessScale>;

/** The words of the descriptive scale, best first; the first two count as a success. */
export const DESCRIPTIVE_VERDICTS = ["excellent", "good", "fair", "poor", "terrible"] as const;
export const DescriptiveVerdict = z.enum(DESCRIPTIVE_VERDICTS);
export type DescriptiveVerdict = z.infer<typeof DescriptiveVerdict>;
/** On the 1–10 scale, this score and above count as a success. */
export const NUMERIC_PASS_SCORE = 6;

const promptText = z.string().trim().max(4000).default("");

export const SummaryPlan = z.object({
  enabled: z.boolean().default(false),
  /** Instructions for the summary; empty: a short factual summary of the call. */
  prompt: promptText,
});

export const SuccessEvaluationPlan = z.object({
  enabled: z.boolean().default(false),
  /** What a successful call achieves, in the user's words; empty: whether the caller's goal was met. */
  rubric: promptText,
  scale: SuccessScale.default("pass_fail"),
});

export const StructuredDataPlan = z
  .object({
    enabled: z.boolean().default(false),
    schema: AnalysisDataSchema.nullable().default(null),
    /** Extra instructions for the extraction. */
    prompt: promptText,
  })
  .refine((plan) => !plan.enabled || plan.schema !== null, {
    path: ["schema"],
    message: "Define the data to extract (a JSON schema) or turn extraction off",
  });

/** Off by default: a call is analysed only when the user asks for it. */
export const AnalysisSettings = z.object({
  summary: SummaryPlan.default({ enabled: false, prompt: "" }),
  success_evaluation: SuccessEvaluationPlan.default({ enabled: false, rubric: "", scale: "pass_fail" }),
  structured_data: StructuredDataPlan.default({ enabled: false, schema: null, prompt: "" }),
});
export type AnalysisSettings = z.infer<typeof AnalysisSettings>;

export const ANALYSIS_DEFAULTS: AnalysisSettings = {
  summary: { enabled: false, prompt: "" },
  success_evaluation: { enabled: false, rubric: "", scale: "pass_fail" },
  structured_data: { enabled: false, schema: null, prompt: "" },
};

// ── the result on the call log ──────────────────────────────────────────────

export const AnalysisStatus = z.enum(["pending", "done", "failed"]);
export type AnalysisStatus = z.infer<typeof AnalysisStatus>;

/** The verdict in the assistant's scale, and `passed`, the same verdict as a yes/no that call logs filter on. */
export const SuccessEvaluation = z.discriminatedUnion("scale", [
  z.object({
    scale: z.literal("pass_fail"),
    verdict: z.enum(["pass", "fail"]),
    passed: z.boolean(),
    reason: z.string(),
  }),
  z.object({
    scale: z.literal("numeric_1_10"),
    verdict: z.number().int().min(1).max(10),
    passed: z.boolean(),
    reason: z.string(),
  }),
  z.object({ scale: z.literal("descriptive"), verdict: DescriptiveVerdict, passed: z.boolean(), reason: z.string() }),
]);
export type SuccessEvaluation = z.infer<typeof SuccessEvaluation>;

/** Whether a verdict counts as a success (the filter's yes/no). */
export function verdictPassed(evaluation: Pick<SuccessEvaluation, "scale" | "verdict">): boolean {
  switch (evaluation.scale) {
    case "pass_fail":
      return evaluation.verdict === "pass";
    case "numeric_1_10":
      return typeof evaluation.verdict === "number" && evaluation.verdict >= NUMERIC_PASS_SCORE;
    case "descriptive":
      return evaluation.verdict === "excellent" || evaluation.verdict === "good";
  }
}

/**
 * A call's analysis. Parts the assistant did not ask for are null. `failed` keeps the parts that
 * were done and says why the rest was not.
 */
export const CallAnalysis = z.object({
  status: AnalysisStatus,
  summary: z.string().nullable(),
  success: SuccessEvaluation.nullable(),
  structured_data: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  completed_at: z.string().nullable(),
});
export type CallAnalysis = z.infer<typeof CallAnalysis>;

/** GET /call-logs filters on the analysis. */
export const SuccessFilter = z.enum(["pass", "fail"]);
export type SuccessFilter = z.infer<typeof SuccessFilter>;

/**
 * Whether a call needs post-call analysis, decided from its assistant's settings alone. Calls that
 * do get their call.ended webhook and their metering from the analysis job once it has finished
 * (the analysis's tokens are part of the call's cost); others at once.
 *
 * Typed structurally so that any assistant-shaped value (contract Assistant, a stored row, a
 * call's snapshot of its assistant) can be passed without conversion.
 */
export interface AnalysisToggles {
  analysis?: {
    summary?: { enabled?: boolean } | null;
    success_evaluation?: { enabled?: boolean } | null;
    structured_data?: { enabled?: boolean } | null;
  } | null;
}

export function needsPostCallAnalysis(config: AnalysisToggles | null | undefined): boolean {
  const analysis = config?.analysis;
  if (!analysis) return false;
  return Boolean(
    analysis.summary?.enabled || analysis.success_evaluation?.enabled || analysis.structured_data?.enabled,
  );
}
