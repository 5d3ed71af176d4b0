import type { CloneService, VoiceClone } from "@parley/contract";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { newestFirst } from "../../lib/paging.ts";
import { findRow } from "../../lib/scoped-rows.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type VoiceCloneRow, voiceClones } from "./schema.ts";

export function toVoiceClone(row: VoiceCloneRow): VoiceClone {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    language: row.language,
    is_public: row.isPublic,
    service_name: row.serviceName,
    service_voice_id: row.serviceVoiceId,
    created_at: row.createdAt.toISOString(),
  };
}

/** The workspace's clones, newest first; optionally only those made at one vendor. */
export async function listClones(db: Executor, tenant: TenantScope, service?: CloneService): Promise<VoiceClone[]> {
  const rows = await db
    .select()
    .from(voiceClones)
    .where(scoped(voiceClones, tenant).where(service ? eq(voiceClones.serviceName, service) : undefined))
    .orderBy(...newestFirst(voiceClones));
  return rows.map(toVoiceClone);
}

export async function findClone(db: Executor, tenant: TenantScope, id: string): Promise<VoiceCloneRow | undefined> {
  return findRow(db, voiceClones, tenant, id);
}

export async function insertClone(
  db: Executor,
  tenant: TenantScope,
  values: {
    name: string;
    description: string;
    language: string;
    serviceName: CloneService;
    serviceVoiceId: string;
  },
): Promise<VoiceClone> {
  const [row] = await db.insert(voiceClones).values(scoped(voiceClones, tenant).values(values)).returning();
  if (!row) throw new Error("insert into voice_clones returned no row");
  return toVoiceClone(row);
}

export async function deleteCloneRow(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  await db.delete(voiceClones).where(scoped(voiceClones, tenant).where(eq(voiceClones.id, id)));
}
