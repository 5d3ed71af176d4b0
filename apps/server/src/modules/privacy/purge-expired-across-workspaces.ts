import type { RetentionKind } from "@parley/contract";
import { type SQL, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import { recordAudit, SYSTEM_ACTOR } from "../../lib/audit-log-across-workspaces.ts";
import { removeRecordingFile } from "../call-logs/recording-files.ts";
import { type PrivacySettingsRow, privacySettings } from "./schema.ts";

/**
 * What the retention pass removes, per workspace. The tables are other modules' (call logs, webhook
 * deliveries, documents); they are reached by their SQL names, each statement filtered by the
 * workspace, because one pass clears every kind at once and those modules have no purge of their own
 * yet (docs/privacy.md). Only the columns that hold what was said or sent are cleared: a call's
 * time, duration, cost and end reason — and so billing — stay.
 */

export type PurgeCounts = Record<RetentionKind, number>;

const DAY_MS = 86_400_000;
/** Kinds zero-retention clears as soon as a call has ended. */
const CALL_CONTENT: RetentionKind[] = ["recordings", "transcripts", "tool_calls", "analysis", "webhook_bodies"];

const daysOf = (row: PrivacySettingsRow): Record<RetentionKind, number | null> => ({
  recordings: row.recordingsDays,
  transcripts: row.transcriptsDays,
  tool_calls: row.toolCallsDays,
  analysis: row.analysisDays,
  webhook_bodies: row.webhookBodiesDays,
  document_files: row.documentFilesDays,
});

/** The moment before which a kind's data goes, or null when the workspace keeps it. */
export function cutoffOf(row: PrivacySettingsRow, kind: RetentionKind, now: Date): Date | null {
  if (row.zeroRetention && CALL_CONTENT.includes(kind)) return now;
  const days = daysOf(row)[kind];
  return days === null ? null : new Date(now.getTime() - days * DAY_MS);
}

type Rows<T> = { rows: T[] };

async function idsOf(ctx: AppContext, statement: SQL): Promise<string[]> {
  const result = (await ctx.db.execute(statement)) as unknown as Rows<{ id: string }>;
  return result.rows.map((r) => r.id);
}

const endedBefore = (workspaceId: string, cutoff: Date) =>
  sql`workspace_id = ${workspaceId} and ended_at is not null and ended_at <= ${cutoff.toISOString()}::timestamptz`;

/** Recording files first, then the log's pointer: a file that cannot be removed is tried again next pass. */
async function purgeRecordings(ctx: AppContext, log: FastifyBaseLogger, workspaceId: string, cutoff: Date) {
  const found = (await ctx.db.execute(
    sql`select id, recording_path from call_logs where ${endedBefore(workspaceId, cutoff)} and has_recording`,
  )) as unknown as Rows<{ id: string; recording_path: string | null }>;
  const removed: string[] = [];
  for (const row of found.rows) {
    try {
      if (row.recording_path) await removeRecordingFile(ctx.config.dataDir, row.recording_path);
      removed.push(row.id);
    } catch (err) {
      log.warn({ err, workspaceId, callId: row.id }, "retention could not remove a recording file");
    }
  }
  if (removed.length === 0) return 0;
  const ids = sql.join(
    removed.map((id) => sql`${id}`),
    sql`, `,
  );
  await ctx.db.execute(sql`delete from call_recordings where workspace_id = ${workspaceId} and call_id in (${ids})`);
  await ctx.db.execute(
    sql`update call_logs set has_recording = false, recording_path = null where workspace_id = ${workspaceId} and id in (${ids})`,
  );
  return removed.length;
}

/** One statement per kind; each answers with the ids it changed, so the count is what went. */
function clearStatement(kind: Exclude<RetentionKind, "recordings">, workspaceId: string, cutoff: Date): SQL {
  const ended = endedBefore(workspaceId, cutoff);
  const at = cutoff.toISOString();
  switch (kind) {
    case "transcripts":
      return sql`update call_logs set transcript = '[]'::jsonb, transcript_text = ''
        where ${ended} and (transcript <> '[]'::jsonb or transcript_text <> '') returning id`;
    case "tool_calls":
      return sql`update call_logs set tool_calls = '[]'::jsonb where ${ended} and tool_calls <> '[]'::jsonb returning id`;
    case "analysis":
      // A pending analysis is still being written; it goes at the next pass.
      return sql`update call_logs set analysis = null
        where ${ended} and analysis is not null and analysis->>'status' <> 'pending' returning id`;
    case "webhook_bodies":
      return sql`update webhook_deliveries set payload = '{}'::jsonb
        where workspace_id = ${workspaceId} and status <> 'pending' and created_at <= ${at}::timestamptz
        and payload <> '{}'::jsonb returning id`;
    case "document_files":
      return sql`delete from document_files f using documents d
        where d.id = f.document_id and f.workspace_id = ${workspaceId} and d.created_at <= ${at}::timestamptz
        returning f.document_id as id`;
  }
}

/** Clears one workspace's data past its retention; returns how much of each kind went. */
export async function purgeWorkspace(
  ctx: AppContext,
  log: FastifyBaseLogger,
  row: PrivacySettingsRow,
  now: Date,
): Promise<PurgeCounts> {
  const counts: PurgeCounts = {
    recordings: 0,
    transcripts: 0,
    tool_calls: 0,
    analysis: 0,
    webhook_bodies: 0,
    document_files: 0,
  };
  for (const kind of Object.keys(counts) as RetentionKind[]) {
    const cutoff = cutoffOf(row, kind, now);
    if (!cutoff) continue;
    counts[kind] =
      kind === "recordings"
        ? await purgeRecordings(ctx, log, row.workspaceId, cutoff)
        : (await idsOf(ctx, clearStatement(kind, row.workspaceId, cutoff))).length;
  }
  return counts;
}

/**
 * One pass over every workspace that set a retention or zero-retention; each workspace that lost
 * something gets a `retention.purged` entry with the counts. Answers whether any workspace is in
 * zero-retention (the pass then comes again within minutes).
 */
export async function purgeExpired(ctx: AppContext, log: FastifyBaseLogger): Promise<{ zeroRetention: boolean }> {
  const rows = await ctx.db.select().from(privacySettings);
  const now = ctx.now();
  for (const row of rows) {
    let counts: Awaited<ReturnType<typeof purgeWorkspace>>;
    try {
      counts = await purgeWorkspace(ctx, log, row, now);
    } catch (err) {
      log.error({ err, workspaceId: row.workspaceId }, "retention could not purge a workspace's expired data");
      continue;
    }
    if (Object.values(counts).every((n) => n === 0)) continue;
    log.info({ workspaceId: row.workspaceId, ...counts }, "retention removed expired data");
    const entry = { workspaceId: row.workspaceId, action: "retention.purged" as const, actor: SYSTEM_ACTOR };
    await recordAudit(ctx.db, { ...entry, details: counts, at: now }).catch((err: unknown) => {
      // The data is gone either way: the counts stay in this line for the operator.
      log.error(
        { err, workspaceId: row.workspaceId, ...counts },
        "retention purged data but could not write its audit entry",
      );
    });
  }
  return { zeroRetention: rows.some((r) => r.zeroRetention) };
}
