import { CloneService, VOICE_CLONE_MAX_FILE_BYTES, VOICE_CLONE_MAX_FILES, VoiceCloneFields } from "@parley/contract";
import type { FastifyRequest } from "fastify";
import { AppError } from "../../lib/app-error.ts";
import { validationFailed } from "../../lib/field-errors.ts";

export interface UploadedAudio {
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface CloneUpload {
  fields: VoiceCloneFields;
  files: UploadedAudio[];
}

const AUDIO_EXTENSIONS = /\.(wav|mp3|m4a|mp4|aac|ogg|oga|opus|webm|flac)$/i;

/** An error with its own 4xx status, answered as `{detail}` by the error handler. */
function clientError(status: number, message: string): Error {
  return Object.assign(new Error(message), { statusCode: status });
}

const FILES_TEXT = `Upload between 1 and ${VOICE_CLONE_MAX_FILES} audio files.`;
const SIZE_TEXT = `Each audio file must be ${VOICE_CLONE_MAX_FILE_BYTES / (1024 * 1024)} MB or smaller.`;

function isAudio(file: { filename: string; mimetype: string }): boolean {
  return file.mimetype.startsWith("audio/") || AUDIO_EXTENSIONS.test(file.filename);
}

/** Maps the multipart plugin's limit errors to texts a person can act on. */
function explain(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code === "FST_REQ_FILE_TOO_LARGE") return clientError(413, SIZE_TEXT);
  if (code === "FST_FILES_LIMIT") return new AppError("validation", FILES_TEXT);
  if (code === "FST_PARTS_LIMIT" || code === "FST_FIELDS_LIMIT")
    return new AppError("validation", "Too many form fields.");
  return error;
}

function parseFields(raw: Record<string, string>): VoiceCloneFields {
  const result = VoiceCloneFields.safeParse(raw);
  if (result.success) return result.data;
  throw validationFailed(result.error.issues);
}

/**
 * Reads POST /clones: the text fields and 1–5 audio files of at most 10 MB each, all in memory
 * (they go straight on to the vendor and are never stored here).
 */
export async function readCloneUpload(
  request: FastifyRequest,
  /** Runs once the fields name the vendor and before any audio is read (a missing key ends it there). */
  beforeFiles?: (service: CloneService) => Promise<void>,
): Promise<CloneUpload> {
  if (!request.isMultipart()) {
    throw clientError(415, "Send the clone as multipart/form-data: name, service_name and 1–5 audio files.");
  }
  const raw: Record<string, string> = {};
  const files: UploadedAudio[] = [];
  try {
    const parts = request.parts({
      limits: { fileSize: VOICE_CLONE_MAX_FILE_BYTES, files: VOICE_CLONE_MAX_FILES, fields: 20, parts: 30 },
    });
    let checked = false;
    for await (const part of parts) {
      if (part.type === "file") {
        const service = CloneService.safeParse(raw.service_name);
        if (!checked && beforeFiles && service.success) {
          checked = true;
          await beforeFiles(service.data).catch((error: unknown) => {
            part.file.resume();
            throw error;
          });
        }
        if (!isAudio(part)) {
          part.file.resume();
          throw new AppError("validation", `${part.filename || "A file"} is not an audio file.`);
        }
        files.push({ filename: part.filename, mimeType: part.mimetype, data: await part.toBuffer() });
      } else {
        raw[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    throw explain(error);
  }
  const fields = parseFields(raw);
  if (files.length === 0) throw new AppError("validation", FILES_TEXT);
  return { fields, files };
}
