import { BATCH_CALL_TEXTS, BATCH_CSV_MAX_BYTES } from "@parley/contract";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../lib/app-error.ts";

export interface CsvUpload {
  data: Buffer;
  /** Form fields sent with the file (default_country, dry_run, reason). */
  fields: Record<string, string>;
}

/** An error with its own 4xx status, answered as `{detail}` by the error handler. */
function clientError(status: number, message: string): Error {
  return Object.assign(new Error(message), { statusCode: status });
}

/** Reads a multipart CSV upload: one file (10 MB at most) and a few text fields. */
export async function readCsvUpload(request: FastifyRequest): Promise<CsvUpload> {
  if (!request.isMultipart()) throw clientError(415, BATCH_CALL_TEXTS.csvMissing);
  let data: Buffer | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({
      limits: { fileSize: BATCH_CSV_MAX_BYTES, files: 1, fields: 10, parts: 12 },
    })) {
      if (part.type === "file") data = await part.toBuffer();
      else if (typeof part.value === "string") fields[part.fieldname] = part.value;
    }
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw clientError(413, BATCH_CALL_TEXTS.csvTooLarge);
    if (code === "FST_FILES_LIMIT" || code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
      throw new AppError("validation", BATCH_CALL_TEXTS.csvMissing);
    throw error;
  }
  if (!data) throw new AppError("validation", BATCH_CALL_TEXTS.csvMissing);
  if (data.length === 0) throw new AppError("validation", BATCH_CALL_TEXTS.csvEmpty);
  return { data, fields };
}

/** A form's country field: two letters, upper-cased; anything else is no country. */
export function countryField(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? "";
  return /^[A-Za-z]{2}$/.test(trimmed) ? trimmed.toUpperCase() : null;
}
