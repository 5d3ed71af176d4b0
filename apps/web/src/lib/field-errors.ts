import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError } from "./api-error.ts";

/**
 * Puts a 422's field errors on the form's own fields, so each complaint shows beside the field it
 * is about. `fields` maps an API field name to the form's field where they differ; API fields
 * the form does not have are left out. Returns what was not placed — the caller shows it as the
 * form's general error — or undefined when everything found a field (or the error has no field errors).
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  formFields: readonly Path<T>[],
  fields: Partial<Record<string, Path<T>>> = {},
): string | undefined {
  if (!(error instanceof ApiError) || error.fieldErrors.length === 0) {
    return error instanceof Error ? error.message : String(error);
  }
  const unplaced: string[] = [];
  let focused = false;
  for (const { field, message } of error.fieldErrors) {
    const target = fields[field] ?? formFields.find((name) => name === field);
    if (!target) {
      unplaced.push(message);
      continue;
    }
    setError(target, { type: "server", message }, { shouldFocus: !focused });
    focused = true;
  }
  return unplaced.length > 0 ? [...new Set(unplaced)].join(" ") : undefined;
}
