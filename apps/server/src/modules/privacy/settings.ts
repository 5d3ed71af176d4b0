import type { PrivacySettings, PrivacySettingsInput } from "@parley/contract";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type PrivacySettingsRow, privacySettings } from "./schema.ts";

/** Until an owner chooses, everything is kept, zero-retention is off and nothing is redacted. */
export const KEEP_EVERYTHING: PrivacySettings = {
  retention: {
    recordings: null,
    transcripts: null,
    tool_calls: null,
    analysis: null,
    webhook_bodies: null,
    document_files: null,
  },
  zero_retention: false,
  pii_redaction: "off",
};

export function toPrivacySettings(row: PrivacySettingsRow | undefined): PrivacySettings {
  if (!row) return KEEP_EVERYTHING;
  return {
    retention: {
      recordings: row.recordingsDays,
      transcripts: row.transcriptsDays,
      tool_calls: row.toolCallsDays,
      analysis: row.analysisDays,
      webhook_bodies: row.webhookBodiesDays,
      document_files: row.documentFilesDays,
    },
    zero_retention: row.zeroRetention,
    pii_redaction: row.piiRedaction,
  };
}

export async function getPrivacySettings(db: Executor, tenant: TenantScope): Promise<PrivacySettings> {
  const [row] = await db.select().from(privacySettings).where(scoped(privacySettings, tenant).where());
  return toPrivacySettings(row);
}

export async function savePrivacySettings(
  db: Executor,
  tenant: TenantScope,
  input: PrivacySettingsInput,
  now: Date,
): Promise<PrivacySettings> {
  const columns = {
    recordingsDays: input.retention.recordings,
    transcriptsDays: input.retention.transcripts,
    toolCallsDays: input.retention.tool_calls,
    analysisDays: input.retention.analysis,
    webhookBodiesDays: input.retention.webhook_bodies,
    documentFilesDays: input.retention.document_files,
    zeroRetention: input.zero_retention,
    piiRedaction: input.pii_redaction ?? "off",
    updatedAt: now,
  };
  await db
    .insert(privacySettings)
    .values(scoped(privacySettings, tenant).values(columns))
    .onConflictDoUpdate({ target: privacySettings.workspaceId, set: columns });
  return getPrivacySettings(db, tenant);
}

/** What changed, for the audit entry: `recordings: keep → 30`. */
export function settingsChanges(before: PrivacySettings, after: PrivacySettings): Record<string, string> {
  const changes: Record<string, string> = {};
  const shown = (days: number | null) => (days === null ? "keep" : String(days));
  for (const [kind, days] of Object.entries(after.retention) as [keyof PrivacySettings["retention"], number | null][]) {
    if (before.retention[kind] !== days) changes[kind] = `${shown(before.retention[kind])} → ${shown(days)}`;
  }
  if (before.zero_retention !== after.zero_retention) {
    changes.zero_retention = `${before.zero_retention} → ${after.zero_retention}`;
  }
  if (before.pii_redaction !== after.pii_redaction) {
    changes.pii_redaction = `${before.pii_redaction} → ${after.pii_redaction}`;
  }
  return changes;
}
