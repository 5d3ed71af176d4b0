import type { CallLog, CallLogPage, CallLogSummary, CallLogsQuery } from "@parley/contract";
import { desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { pagedRows, pageOf, pageWindow } from "../../lib/paging.ts";
import { requireRow } from "../../lib/scoped-rows.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { callVersionsOf } from "../assistants/call-assistant.ts";
import { openRecordingFile, removeRecordingFile } from "./recording-files.ts";
import { type CallLogRow, callLogs, callRecordings } from "./schema.ts";

export type CallLogFilters = Omit<CallLogsQuery, "page" | "items_per_page"> & { page: number; items_per_page: number };

const CALL_NOT_FOUND = "Call log not found.";
/** LIKE wildcards in a user's search are literal characters. */
const likePattern = (search: string) => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const isBareDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** A bare date as an upper bound means the whole of that UTC day. */
function upperBound(value: string): Date {
  const date = new Date(isBareDate(value) ? `${value}T00:00:00Z` : value);
  if (isBareDate(value)) date.setUTCDate(date.getUTCDate() + 1);
  return date;
}

const lowerBound = (value: string) => new Date(isBareDate(value) ? `${value}T00:00:00Z` : value);

export function toCallLogSummary(row: CallLogRow): CallLogSummary {
  return {
    id: row.id,
    agent_id: row.agentId,
    agent_name: row.agentName,
    channel: row.channel,
    direction: row.direction,
    from_number: row.fromNumber,
    to_number: row.toNumber,
    batch_call_id: row.batchCallId,
    test_run_id: row.testRunId,
    origin: row.origin,
    status: row.status,
    end_reason: row.endReason,
    started_at: row.startedAt.toISOString(),
    ended_at: row.endedAt?.toISOString() ?? null,
    duration_seconds: row.durationSeconds,
    cost: row.cost,
  };
}

function toCallLog(row: CallLogRow): CallLog {
  return {
    ...toCallLogSummary(row),
    transcript: row.transcript,
    tool_calls: row.toolCalls,
    turn_metrics: row.turnMetrics,
    events: row.events,
    has_recording: row.hasRecording,
    cost_breakdown: row.costBreakdown,
    analysis: row.analysis ?? null,
    workflow: row.workflow ?? null,
    segments: row.segments ?? null,
  };
}

function whereOf(tenant: TenantScope, q: CallLogFilters): SQL | undefined {
  const filters: (SQL | undefined)[] = [];
  if (q.agent_id) filters.push(eq(callLogs.agentId, q.agent_id));
  if (q.status) filters.push(eq(callLogs.status, q.status));
  if (q.channel) filters.push(eq(callLogs.channel, q.channel));
  if (q.batch_call_id) filters.push(eq(callLogs.batchCallId, q.batch_call_id));
  if (q.test_run_id) filters.push(eq(callLogs.testRunId, q.test_run_id));
  // Post-call analysis (modules/call-analysis) is a JSON column; `passed` is its verdict as a yes/no.
  if (q.success)
    filters.push(sql`(${callLogs.analysis}->'success'->>'passed') = ${q.success === "pass" ? "true" : "false"}`);
  if (q.analysis_status) filters.push(sql`${callLogs.analysis}->>'status' = ${q.analysis_status}`);
  if (q.date_from) filters.push(gte(callLogs.startedAt, lowerBound(q.date_from)));
  if (q.date_to) filters.push(lt(callLogs.startedAt, upperBound(q.date_to)));
  const term = q.search?.trim();
  if (term) {
    const pattern = likePattern(term);
    filters.push(
      or(
        ilike(callLogs.transcriptText, pattern),
        ilike(callLogs.agentName, pattern),
        ilike(callLogs.fromNumber, pattern),
        ilike(callLogs.toNumber, pattern),
      ),
    );
  }
  return scoped(callLogs, tenant).where(...filters);
}

/** Call logs of the workspace matching the filters, newest first, one page. */
export async function listCallLogs(db: Executor, tenant: TenantScope, q: CallLogFilters): Promise<CallLogPage> {
  const where = whereOf(tenant, q);
  const { rows, total } = await pagedRows(
    db,
    callLogs,
    where,
    [desc(callLogs.startedAt), desc(callLogs.id)],
    pageWindow(q),
  );
  // The versions are the assistants module's record (one query for the page), not a column here.
  const versions = await callVersionsOf(
    db,
    tenant,
    rows.map((row) => row.id),
  );
  return pageOf(
    rows.map((row) => ({ ...toCallLogSummary(row), agent_version: versions.get(row.id)?.version ?? null })),
    total,
    q,
  );
}

/** Several calls' logs in two queries (those found; any order): for work that follows many calls at once. */
export async function getCallLogs(db: Executor, tenant: TenantScope, ids: readonly string[]): Promise<CallLog[]> {
  if (ids.length === 0) return [];
  const [rows, versions] = await Promise.all([
    db
      .select()
      .from(callLogs)
      .where(scoped(callLogs, tenant).where(inArray(callLogs.id, [...ids]))),
    callVersionsOf(db, tenant, [...ids]),
  ]);
  return rows.map((row) => ({ ...toCallLog(row), agent_version: versions.get(row.id)?.version ?? null }));
}

export async function getCallLog(db: Executor, tenant: TenantScope, id: string): Promise<CallLog> {
  const [row, versions] = await Promise.all([
    requireRow(db, callLogs, tenant, id, CALL_NOT_FOUND),
    callVersionsOf(db, tenant, [id]),
  ]);
  return { ...toCallLog(row), agent_version: versions.get(id)?.version ?? null };
}

/** What metering reads of a finished call: whose it was, when, how long, and its usage lines. */
export type CallUsage = Pick<
  CallLog,
  "id" | "agent_id" | "agent_name" | "channel" | "started_at" | "duration_seconds" | "cost_breakdown"
>;

/**
 * A call's usage, without its transcript and events (getCallLog reads and parses them all): metering
 * runs for every call that ends. Null when the log (or its workspace) is gone.
 */
export async function findCallUsage(db: Executor, tenant: TenantScope, id: string): Promise<CallUsage | null> {
  const [row] = await db
    .select({
      id: callLogs.id,
      agentId: callLogs.agentId,
      agentName: callLogs.agentName,
      channel: callLogs.channel,
      startedAt: callLogs.startedAt,
      durationSeconds: callLogs.durationSeconds,
      costBreakdown: callLogs.costBreakdown,
    })
    .from(callLogs)
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id)));
  if (!row) return null;
  return {
    id: row.id,
    agent_id: row.agentId,
    agent_name: row.agentName,
    channel: row.channel,
    started_at: row.startedAt.toISOString(),
    duration_seconds: row.durationSeconds,
    cost_breakdown: row.costBreakdown,
  };
}

const NO_RECORDING = "This call has no recording.";

/**
 * A call's recording: its file under DATA_DIR, streamed, or for calls recorded before recordings
 * went to files, the WAV kept in the database.
 */
export async function getCallRecording(
  db: Executor,
  dataDir: string,
  tenant: TenantScope,
  id: string,
): Promise<{ body: Buffer | NodeJS.ReadableStream; size: number }> {
  const [log] = await db
    .select({ path: callLogs.recordingPath })
    .from(callLogs)
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id)));
  const path = found(log, NO_RECORDING).path;
  if (path) {
    const file = found((await openRecordingFile(dataDir, path)) ?? undefined, NO_RECORDING);
    return { body: file.stream, size: file.size };
  }
  const [row] = await db
    .select({ wav: callRecordings.wav })
    .from(callRecordings)
    .where(scoped(callRecordings, tenant).where(eq(callRecordings.callId, id)));
  const { wav } = found(row, NO_RECORDING);
  return { body: wav, size: wav.length };
}

/** Deletes a finished call's log and recording; a live call's log stays until it ends. */
export async function deleteCallLog(db: Executor, dataDir: string, tenant: TenantScope, id: string): Promise<void> {
  const scope = scoped(callLogs, tenant).where(eq(callLogs.id, id));
  const [row] = await db.select({ status: callLogs.status, path: callLogs.recordingPath }).from(callLogs).where(scope);
  const { status, path } = found(row, CALL_NOT_FOUND);
  if (status === "queued" || status === "in_progress") {
    throw new AppError("conflict", "This call is still in progress; end it before deleting its log.");
  }
  await db.delete(callLogs).where(scope);
  if (path) await removeRecordingFile(dataDir, path);
}

/** The workspace's latest calls, whatever their outcome (Home lists them). */
export async function recentCalls(db: Executor, tenant: TenantScope, limit = 5): Promise<CallLogSummary[]> {
  const rows = await db
    .select()
    .from(callLogs)
    .where(scoped(callLogs, tenant).where())
    .orderBy(desc(callLogs.startedAt), desc(callLogs.id))
    .limit(limit);
  return rows.map(toCallLogSummary);
}
