import { type CloneService, providerLabel, type VoiceClone } from "@parley/contract";
import { createVoiceClone, deleteVoiceClone, requireField } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { failureFields } from "../../lib/log-options.ts";
import { found, type TenantScope } from "../../lib/tenant-scope.ts";
import { missingKeyConflict, resolveCredentials } from "../integrations/credentials.ts";
import type { CloneUpload } from "./clone-upload.ts";
import { deleteCloneRow, findClone, insertClone } from "./service.ts";

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Creates the clone at the vendor first and saves the row only once the vendor has the voice, so
 * a failed upload leaves nothing behind.
 */
/** A 409 naming the vendor's missing key, checked before the audio samples are read from the upload. */
export async function requireCloneKey(ctx: AppContext, tenant: TenantScope, service: CloneService): Promise<void> {
  try {
    requireField(service, await resolveCredentials(ctx, tenant.workspaceId, service), "api_key");
  } catch (error) {
    throw missingKeyConflict(error) ?? error;
  }
}

export async function createClone(ctx: AppContext, tenant: TenantScope, upload: CloneUpload): Promise<VoiceClone> {
  const { fields, files } = upload;
  const service = fields.service_name;
  const credentials = await resolveCredentials(ctx, tenant.workspaceId, service);
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
    const missingKey = missingKeyConflict(error);
    if (!missingKey) {
      ctx.calls.log.warn(
        { workspaceId: tenant.workspaceId, provider: service, ...failureFields(error) },
        "the voice vendor could not create a voice clone",
      );
    }
    throw (
      missingKey ??
      new AppError("validation", `${providerLabel(service)} could not create the voice clone: ${messageOf(error)}`)
    );
  }
  return insertClone(ctx.db, tenant, {
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
export async function removeClone(ctx: AppContext, tenant: TenantScope, id: string): Promise<void> {
  const row = found(await findClone(ctx.db, tenant, id), "Voice clone not found.");
  const credentials = await resolveCredentials(ctx, tenant.workspaceId, row.serviceName);
  if (credentials) {
    try {
      await deleteVoiceClone(row.serviceName, credentials, row.serviceVoiceId, ctx.network);
    } catch (error) {
      const status = (error as { status?: number }).status;
      ctx.calls.log.warn(
        { workspaceId: tenant.workspaceId, provider: row.serviceName, cloneId: id, ...failureFields(error) },
        "the voice vendor could not delete a voice clone",
      );
      // 404 is already handled by the engine; 401/403 mean the key can no longer reach that voice.
      if (status !== 401 && status !== 403) {
        throw new AppError(
          "unavailable",
          `${providerLabel(row.serviceName)} could not delete the voice: ${messageOf(error)}`,
        );
      }
    }
  }
  await deleteCloneRow(ctx.db, tenant, id);
}
