import { DOCUMENT_MAX_FILE_BYTES, DOCUMENT_MAX_FILES, DOCUMENT_SIZE_TEXT } from "@parley/contract";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../lib/app-error.ts";
import { sniffKind } from "./extract/index.ts";

export interface UploadedFile {
  name: string;
  mimeType: string;
  data: Buffer;
}

/** An error with its own 4xx status, answered as `{detail}` by the error handler. */
function clientError(status: number, message: string): Error {
  return Object.assign(new Error(message), { statusCode: status });
}

const FILES_TEXT = `Upload between 1 and ${DOCUMENT_MAX_FILES} files at a time.`;

/** Maps the multipart plugin's limit errors to texts a person can act on. */
function explain(error: unknown): unknown {
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  if (code === "FST_REQ_FILE_TOO_LARGE") return clientError(413, DOCUMENT_SIZE_TEXT);
  if (code === "FST_FILES_LIMIT") return new AppError("validation", FILES_TEXT);
  if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
    return new AppError("validation", "Too many form fields.");
  return error;
}

/**
 * Reads POST /documents/upload: 1–10 files of at most 10 MB each, every one read in full before
 * anything is stored, so one oversized or unsupported file stores none of them.
 */
export async function readDocumentUpload(request: FastifyRequest): Promise<UploadedFile[]> {
  if (!request.isMultipart()) throw clientError(415, "Send the files as multipart/form-data.");
  const files: UploadedFile[] = [];
  try {
    const parts = request.parts({
      limits: { fileSize: DOCUMENT_MAX_FILE_BYTES, files: DOCUMENT_MAX_FILES, fields: 10, parts: 30 },
    });
    for await (const part of parts) {
      if (part.type !== "file") continue;
      const data = await part.toBuffer();
      files.push({ name: part.filename || "document", mimeType: part.mimetype, data });
    }
  } catch (error) {
    throw explain(error);
  }
  if (files.length === 0) throw new AppError("validation", FILES_TEXT);
  for (const file of files) {
    if (file.data.length === 0) throw new AppError("validation", `${file.name} is empty.`);
    if (!sniffKind(file.data)) {
      throw clientError(
        415,
        `${file.name}: this file type is not supported. Upload PDF, Word (DOCX), text, Markdown, HTML or CSV.`,
      );
    }
  }
  return files;
}
