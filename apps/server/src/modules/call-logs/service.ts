import type {
  CallAnalysis,
  CallChannel,
  CallCostBreakdown,
  CallDirection,
  CallLogEvent,
  CallSegment,
  CallWorkflowRecord,
  ToolCallEntry,
  TranscriptEntry,
  TurnMetricsEntry,
} from "@parley/contract";
import { count, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { CallCarrier, CallRecord } from "../../lib/call-runtime.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type CallLogRow, callLogs, usedRoomTokens } from "./schema.ts";

export { createRecordingFile, inMemoryData, type RecordingFile } from "./recording-files.ts";

/**
 * Writing call logs: other modules (live calls, telephony, campaigns) open a log when a call is
 * placed or a room is created, keep its heartbeat while it is open, save what was said as it is
 * said, and close it with its timeline.
 */

/** A call log in one of these is a call that has not ended. */
export const OPEN_STATUSES = ["queued", "in_progress"] as const;

export interface NewCallLog {
  /** Chosen by the caller when it must know the id before the row exists (a room names its call). */
  id?: string;
  agentId: string;
  agentName: string;
  channel: CallChannel;
  direction: CallDirection;
  fromNumber?: string | null;
  toNumber?: string | null;
  batchCallId?: string | null;
  /** The test-suite run that placed it (channel `test`). */
  testRunId?: string | null;
  /** The page a widget call was placed from. */
  origin?: string | null;
  /** Who carries a phone call, when it is known as the log opens (an answered call). */
  carrier?: CallCarrier | null;
  startedAt?: Date;
}

/** Opens a call's log; `now` (the caller's clock) is its first heartbeat. */
export async function createCallLog(
  db: Executor,
  tenant: TenantScope,
  input: NewCallLog,
  now = new Date(),
): Promise<CallLogRow> {
  const [row] = await db
    .insert(callLogs)
    .values(
      scoped(callLogs, tenant).values({
        ...(input.id ? { id: input.id } : {}),
        agentId: input.agentId,
        agentName: input.agentName,
        channel: input.channel,
        direction: input.direction,
        fromNumber: input.fromNumber ?? null,
        toNumber: input.toNumber ?? null,
        batchCallId: input.batchCallId ?? null,
        testRunId: input.testRunId ?? null,
        origin: input.origin ?? null,
        ...(input.carrier ? carrierColumns(input.carrier) : {}),
        status: "queued",
        heartbeatAt: now,
        ...(input.startedAt ? { startedAt: input.startedAt } : {}),
      }),
    )
    .returning();
  if (!row) throw new Error("insert into call_logs returned no row");
  return row;
}

/**
 * Opens a call's log unless the workspace already has `limit` open calls (queued or in progress,
 * with a heartbeat since `aliveSince`): the count and the insert run under one workspace lock, so
 * neither two requests nor two server processes can both take the last slot. Null when full.
 */
export async function createCallLogWithinLimit(
  db: Executor,
  tenant: TenantScope,
  input: NewCallLog,
  limit: number,
  aliveSince: Date,
): Promise<CallLogRow | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`call-slots:${tenant.workspaceId}`}))`);
    const [open] = await tx
      .select({ n: count() })
      .from(callLogs)
      .where(
        scoped(callLogs, tenant).where(
          inArray(callLogs.status, [...OPEN_STATUSES]),
          gte(callLogs.heartbeatAt, aliveSince),
        ),
      );
    if (Number(open?.n ?? 0) >= limit) return null;
    return createCallLog(tx, tenant, input, input.startedAt);
  });
}

/** Marks a room token used, for every process; false when it already was. */
export async function claimRoomToken(db: Executor, tokenId: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db.delete(usedRoomTokens).where(lt(usedRoomTokens.expiresAt, now));
  const rows = await db
    .insert(usedRoomTokens)
    .values({ tokenId, expiresAt })
    .onConflictDoNothing()
    .returning({ tokenId: usedRoomTokens.tokenId });
  return rows.length > 0;
}

/** What was said so far, saved as the call runs so a crash keeps it. */
export async function saveCallProgress(
  db: Executor,
  tenant: TenantScope,
  id: string,
  progress: { transcript: TranscriptEntry[]; toolCalls: ToolCallEntry[]; at: Date },
) {
  await db
    .update(callLogs)
    .set({
      transcript: progress.transcript,
      transcriptText: progress.transcript.map((t) => t.text).join("\n"),
      toolCalls: progress.toolCalls,
      heartbeatAt: progress.at,
    })
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id), inArray(callLogs.status, [...OPEN_STATUSES])));
}

/** Media is flowing: the call's clock starts now. */
export async function markCallInProgress(db: Executor, tenant: TenantScope, id: string, startedAt: Date) {
  await db
    .update(callLogs)
    .set({ status: "in_progress", startedAt })
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id)));
}

export interface CallOutcome {
  status: "completed" | "failed";
  endReason: string;
  endedAt: Date;
  durationSeconds: number;
  cost: number;
  costBreakdown: CallCostBreakdown | null;
  transcript: TranscriptEntry[];
  toolCalls: ToolCallEntry[];
  turnMetrics: TurnMetricsEntry[];
  events: CallLogEvent[];
  /** The recording's file relative to DATA_DIR (recording-files.ts), or null when there is none. */
  recordingPath: string | null;
  /** The workflow the call ran (issue 15); absent or null when it ran none. */
  workflow?: CallWorkflowRecord | null;
  /** A squad's call: its segments (issue 31); absent or null for a call of one assistant. */
  segments?: CallSegment[] | null;
}

/** The outcome of a call that failed before anything was said (nobody joined, the server stopped). */
export function failedBeforeStart(endReason: string, endedAt: Date): CallOutcome {
  return {
    status: "failed",
    endReason,
    endedAt,
    durationSeconds: 0,
    cost: 0,
    costBreakdown: null,
    transcript: [],
    toolCalls: [],
    turnMetrics: [],
    events: [],
    recordingPath: null,
  };
}

/**
 * Call logs closed at the same moment (50 calls hanging up together) take at most this many pooled
 * connections; the pool's other connections stay free for requests, which would otherwise queue
 * behind every closing write (the pool serves its waiters in order).
 */
const MAX_CLOSING_WRITES = 3;
let closingWrites = 0;
const waitingToClose: (() => void)[] = [];

/** Closes a call's log with its timeline and, when there is one, its recording's file. */
export async function finishCallLog(db: Executor, tenant: TenantScope, id: string, outcome: CallOutcome) {
  // A finishing write hands its slot straight to the next waiter, so the count never overshoots.
  if (closingWrites < MAX_CLOSING_WRITES) closingWrites += 1;
  else await new Promise<void>((resolve) => waitingToClose.push(resolve));
  try {
    await writeCallOutcome(db, tenant, id, outcome);
  } finally {
    const next = waitingToClose.shift();
    if (next) next();
    else closingWrites -= 1;
  }
}

async function writeCallOutcome(db: Executor, tenant: TenantScope, id: string, outcome: CallOutcome) {
  const billed = billedPart(outcome);
  await db
    .update(callLogs)
    .set({
      status: outcome.status,
      endReason: outcome.endReason,
      endedAt: outcome.endedAt,
      ...billed,
      transcript: outcome.transcript,
      transcriptText: outcome.transcript.map((t) => t.text).join("\n"),
      toolCalls: outcome.toolCalls,
      turnMetrics: outcome.turnMetrics,
      events: outcome.events,
      hasRecording: outcome.recordingPath !== null,
      recordingPath: outcome.recordingPath,
      workflow: outcome.workflow ?? null,
      segments: outcome.segments ?? null,
    })
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id)));
}

/**
 * The duration and cost a closing call is written with. A call that fails while its log is still
 * queued never connected (its session never started: refused by the plan's minutes on joining, a
 * provider that could not start, …): an attempt, closed with 0 s and no cost, so nothing bills or
 * counts it (billing/counted-calls.ts). Decided in the statement itself, from the status the log has
 * as it closes.
 */
function billedPart(outcome: CallOutcome) {
  if (outcome.status !== "failed") {
    return { durationSeconds: outcome.durationSeconds, cost: outcome.cost, costBreakdown: outcome.costBreakdown };
  }
  const stillQueued = sql`${callLogs.status} = 'queued'`;
  const breakdown =
    outcome.costBreakdown === null ? sql`null::jsonb` : sql`${JSON.stringify(outcome.costBreakdown)}::jsonb`;
  return {
    durationSeconds: sql<number>`case when ${stillQueued} then 0 else ${outcome.durationSeconds}::double precision end`,
    cost: sql<number>`case when ${stillQueued} then 0 else ${outcome.cost}::double precision end`,
    costBreakdown: sql<CallCostBreakdown | null>`case when ${stillQueued} then null::jsonb else ${breakdown} end`,
  };
}

/** Replaces a finished call's cost and its breakdown (post-call analysis adds its model's tokens). */
export async function saveCallCost(
  db: Executor,
  tenant: TenantScope,
  id: string,
  cost: { cost: number; breakdown: CallCostBreakdown | null },
): Promise<void> {
  await db
    .update(callLogs)
    .set({ cost: cost.cost, costBreakdown: cost.breakdown })
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id)));
}

/** Writes a call's post-call analysis (modules/call-analysis); false when the call log is gone. */
export async function saveCallAnalysis(
  db: Executor,
  tenant: TenantScope,
  id: string,
  analysis: CallAnalysis,
): Promise<boolean> {
  const rows = await db
    .update(callLogs)
    .set({ analysis })
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id)))
    .returning({ id: callLogs.id });
  return rows.length > 0;
}

// ── phone calls ─────────────────────────────────────────────────────────────

const carrierColumns = (carrier: CallCarrier) => ({
  provider: carrier.provider,
  providerCallId: carrier.providerCallId,
  phoneNumberId: carrier.phoneNumberId,
});

/** Records who carries a call once the carrier has named it (a placed call's id, an answered webhook's). */
export async function setCallCarrier(db: Executor, tenant: TenantScope, id: string, carrier: CallCarrier) {
  await db
    .update(callLogs)
    .set(carrierColumns(carrier))
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id)));
}

/** What a channel reads of a call: who carries it, from where to where, for which assistant. */
export const recordColumns = {
  id: callLogs.id,
  workspaceId: callLogs.workspaceId,
  status: callLogs.status,
  agentId: callLogs.agentId,
  direction: callLogs.direction,
  fromNumber: callLogs.fromNumber,
  toNumber: callLogs.toNumber,
  provider: callLogs.provider,
  providerCallId: callLogs.providerCallId,
  phoneNumberId: callLogs.phoneNumberId,
};

export async function findCallRecord(db: Executor, tenant: TenantScope, id: string): Promise<CallRecord | null> {
  const [row] = await db
    .select(recordColumns)
    .from(callLogs)
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id)));
  return row ?? null;
}

/**
 * A call that never reached its assistant (busy, no answer, failed at the carrier, an answering
 * machine hung up on): closed with the carrier's reason, only while it is still queued, so a late
 * callback never rewrites a call that ran. True when it closed the call.
 */
export async function closeUnconnectedCall(
  db: Executor,
  tenant: TenantScope,
  id: string,
  outcome: { status: "completed" | "failed"; endReason: string; endedAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(callLogs)
    .set({ status: outcome.status, endReason: outcome.endReason, endedAt: outcome.endedAt, durationSeconds: 0 })
    .where(scoped(callLogs, tenant).where(eq(callLogs.id, id), eq(callLogs.status, "queued")))
    .returning({ id: callLogs.id });
  return rows.length > 0;
}
