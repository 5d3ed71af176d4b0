import type { AnalysisObjectSchema, AnalysisProperty } from "@parley/contract";

/**
 * Checking what the model extracted against the user's schema (the subset the contract admits:
 * typed properties, string enums, arrays of one type, nested objects, required). The problems are
 * written for the model: when its first answer does not fit, they go back to it once.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Where each problem is (a JSON path such as `items[2].name`) and what it is; empty when the data fits. */
export function dataIssues(value: unknown, schema: AnalysisObjectSchema): string[] {
  const issues: string[] = [];
  checkValue(value, schema, "$", issues);
  return issues;
}

function checkValue(value: unknown, schema: AnalysisProperty, path: string, issues: string[]): void {
  switch (schema.type) {
    case "string":
      if (typeof value !== "string") issues.push(`${path} must be a string`);
      else if (schema.enum && !schema.enum.includes(value)) {
        issues.push(`${path} must be one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
      }
      return;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) issues.push(`${path} must be a number`);
      return;
    case "integer":
      if (!Number.isInteger(value)) issues.push(`${path} must be an integer`);
      return;
    case "boolean":
      if (typeof value !== "boolean") issues.push(`${path} must be true or false`);
      return;
    case "array":
      if (!Array.isArray(value)) issues.push(`${path} must be an array`);
      else if (schema.items) {
        const items = schema.items;
        for (const [i, item] of value.entries()) checkValue(item, items, `${path}[${i}]`, issues);
      }
      return;
    case "object":
      checkObject(value, schema, path, issues);
      return;
  }
}

function checkObject(value: unknown, schema: AnalysisProperty, path: string, issues: string[]): void {
  if (!isRecord(value)) {
    issues.push(`${path} must be an object`);
    return;
  }
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? []) {
    if (value[name] === undefined || value[name] === null) issues.push(`${path}.${name} is required`);
  }
  for (const [name, item] of Object.entries(value)) {
    const property = properties[name];
    if (!property) {
      issues.push(`${path}.${name} is not in the schema`);
      continue;
    }
    // An optional property the call did not reveal may be null.
    if (item === null && !(schema.required ?? []).includes(name)) continue;
    checkValue(item, property, `${path}.${name}`, issues);
  }
}

/**
 * The JSON value in a model's answer: models asked for JSON alone still wrap it in a code fence or
 * a sentence now and then, so the outermost object is taken. Undefined when there is none.
 */
export function jsonInAnswer(answer: string): unknown {
  const fenced = answer.match(/```(?:json)?\s*([\s\S]*?)```/i)?.[1];
  const text = (fenced ?? answer).trim();
  for (const candidate of [text, outermostObject(text)]) {
    if (candidate === undefined) continue;
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // try the next reading
    }
  }
  return undefined;
}

function outermostObject(text: string): string | undefined {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  return start >= 0 && end > start ? text.slice(start, end + 1) : undefined;
}
