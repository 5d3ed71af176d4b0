import type { Expectation } from "@parley/contract";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { AppError, type FieldError } from "../../lib/app-error.ts";

/**
 * JSON Schemas of `tool_called` expectations (draft 2020-12, what the contract promises). Not
 * strict: a schema copied from a tool's definition may carry keywords ajv does not know
 * (`description` on a property is fine anyway; vendor extensions are too).
 */
const ajv = new Ajv2020({ strict: false, allErrors: true });

/**
 * The schema compiled, or why it cannot be. ajv keeps what it compiles keyed by the schema object;
 * every request brings a new object, so it is dropped from ajv's cache at once (the function stays usable).
 */
export function compileArgumentsSchema(schema: Record<string, unknown>): ValidateFunction | { error: string } {
  try {
    return ajv.compile(schema);
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err) };
  } finally {
    ajv.removeSchema(schema);
  }
}

/** Every `tool_called` expectation's schema must compile (422 naming the expectation otherwise). */
export function checkArgumentsSchemas(expectations: Expectation[] | undefined): void {
  const errors: FieldError[] = [];
  for (const [index, expectation] of (expectations ?? []).entries()) {
    if (expectation.type !== "tool_called" || !expectation.arguments_schema) continue;
    const compiled = compileArgumentsSchema(expectation.arguments_schema);
    if ("error" in compiled) {
      errors.push({
        field: `expectations.${index}.arguments_schema`,
        message: `The arguments schema of "${expectation.name}" is not a valid JSON Schema: ${compiled.error}`,
      });
    }
  }
  const [first] = errors;
  if (first) throw new AppError("validation", first.message, {}, errors);
}
