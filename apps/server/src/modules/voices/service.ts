import type { CloneService, VoiceClone } from "@parley/contract";
import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
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
export async function listClones(db: Executor, workspaceId: string, service?: CloneService): Promise<VoiceClone[]> {
  const filters = [eq(voiceClones.workspaceId, workspaceId)];
  if (service) filters.push(eq(voiceClones.serviceName, service));
  const rows = await db
    .select()
    .from(voiceClones)
    .where(and(...filters))
    .orderBy(desc(voiceClones.createdAt), desc(voiceClones.id));
  return rows.map(toVoiceClone);
}

export async function findClone(db: Executor, workspaceId: string, id: string): Promise<VoiceCloneRow | undefined> {
  const [row] = await db
    .select()
    .from(voiceClones)
    .where(and(eq(voiceClones.workspaceId, workspaceId), eq(voiceClones.id, id)));
  return row;
}

export async function insertClone(
  db: Executor,
  values: {
    workspaceId: string;
    name: string;
    description: string;
    language: string;
    serviceName: CloneService;
    serviceVoiceId: string;
  },
): Promise<VoiceClone> {
  const [row] = await db.insert(voiceClones).values(values).returning();
  if (!row) throw new Error("insert into voice_clones returned no row");
  return toVoiceClone(row);
}

export async function deleteCloneRow(db: Executor, workspaceId: string, id: string): Promise<void> {
  await db.delete(voiceClones).where(and(eq(voiceClones.workspaceId, workspaceId), eq(voiceClones.id, id)));
}
