import type { VoiceClone } from "@parley/contract";
import { createVoiceClone, deleteVoiceClone } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { AppError, notFound } from "../../lib/app-error.ts";
import { resolveCredentials } from "../integrations/credentials.ts";
import type { CloneUpload } from "./clone-upload.ts";
import { deleteCloneRow, findClone, insertClone } from "./service.ts";

const LABELS = { elevenlabs: "ElevenLabs", cartesia: "Cartesia" } as const;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Creates the clone at the vendor first and saves the row only once the vendor has the voice, so
 * a failed upload leaves nothing behind.
 */
export async function createClone(ctx: AppContext, workspaceId: string, upload: CloneUpload): Promise<VoiceClone> {
  const { fields, files } = upload;
  const service = fields.service_name;
  const credentials = await resolveCredentials(ctx, workspaceId, service);
  if (!credentials) {
    throw new AppError("validation", `No ${LABELS[service]} API key. Add one on the Integrations page first.`);
  }
  let serviceVoiceId: string;
  try {
    ({ serviceVoiceId } = await createVoiceClone(
      service,
      credentials,
      {
        name: fields.name,
        description: fields.description,
        language: fields.language,
        files: files.map((f) => ({ filename: f.filename, contentType: f.mimeType, data: f.data })),
      },
      ctx.network,
    ));
  } catch (error) {
    throw new AppError("validation", `${LABELS[service]} could not create the voice clone: ${messageOf(error)}`);
  }
  return insertClone(ctx.db, {
    workspaceId,
    name: fields.name,
    description: fields.description,
    language: fields.language,
    serviceName: service,
    serviceVoiceId,
  });
}

/**
 * Deletes the voice at the vendor, then the row. A vendor that no longer knows the voice, or a
 * workspace whose key is gone, does not keep a dead row alive: the row is removed regardless,
 * and only a failure on a voice the vendor still has is reported.
 */
export async function removeClone(ctx: AppContext, workspaceId: string, id: string): Promise<void> {
  const row = await findClone(ctx.db, workspaceId, id);
  if (!row) throw notFound("Voice clone not found.");
  const credentials = await resolveCredentials(ctx, workspaceId, row.serviceName);
  if (credentials) {
    try {
      await deleteVoiceClone(row.serviceName, credentials, row.serviceVoiceId, ctx.network);
    } catch (error) {
      const status = (error as { status?: number }).status;
      // 404 is already handled by the engine; 401/403 mean the key can no longer reach that voice.
      if (status !== 401 && status !== 403) {
        throw new AppError("unavailable", `${LABELS[row.serviceName]} could not delete the voice: ${messageOf(error)}`);
      }
    }
  }
  await deleteCloneRow(ctx.db, workspaceId, id);
}
