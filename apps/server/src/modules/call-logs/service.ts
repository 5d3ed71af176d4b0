import type {
  CallChannel,
  CallCostBreakdown,
  CallDirection,
  CallLogEvent,
  ToolCallEntry,
  TranscriptEntry,
  TurnMetricsEntry,
} from "@parley/contract";
import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { type CallLogRow, callLogs, callRecordings } from "./schema.ts";

/**
 * Writing call logs: other modules (live calls, telephony, campaigns) open a log when a call is
 * placed or a room is created, mark it live when media flows, and close it with its timeline.
 */

export interface NewCallLog {
  /** Chosen by the caller when it must know the id before the row exists (a room names its call). */
  id?: string;
  workspaceId: string;
  agentId: string;
  agentName: string;
  channel: CallChannel;
  direction: CallDirection;
  fromNumber?: string | null;
  toNumber?: string | null;
  batchCallId?: string | null;
  startedAt?: Date;
}

export async function createCallLog(db: Executor, input: NewCallLog): Promise<CallLogRow> {
  const [row] = await db
    .insert(callLogs)
    .values({
      ...(input.id ? { id: input.id } : {}),
      workspaceId: input.workspaceId,
      agentId: input.agentId,
      agentName: input.agentName,
      channel: input.channel,
      direction: input.direction,
      fromNumber: input.fromNumber ?? null,
      toNumber: input.toNumber ?? null,
      batchCallId: input.batchCallId ?? null,
      status: "queued",
      ...(input.startedAt ? { startedAt: input.startedAt } : {}),
    })
    .returning();
  if (!row) throw new Error("insert into call_logs returned no row");
  return row;
}

/** Media is flowing: the call's clock starts now. */
export async function markCallInProgress(db: Executor, workspaceId: string, id: string, startedAt: Date) {
  await db
    .update(callLogs)
    .set({ status: "in_progress", startedAt })
    .where(and(eq(callLogs.workspaceId, workspaceId), eq(callLogs.id, id)));
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
  /** Stereo WAV, or null when the assistant does not record. */
  recording: Buffer | null;
}

/** Closes a call's log with its timeline and, when there is one, its recording. */
export async function finishCallLog(db: Executor, workspaceId: string, id: string, outcome: CallOutcome) {
  const recording = outcome.recording && outcome.recording.length > 0 ? outcome.recording : null;
  await db.transaction(async (tx) => {
    await tx
      .update(callLogs)
      .set({
        status: outcome.status,
        endReason: outcome.endReason,
        endedAt: outcome.endedAt,
        durationSeconds: outcome.durationSeconds,
        cost: outcome.cost,
        costBreakdown: outcome.costBreakdown,
        transcript: outcome.transcript,
        transcriptText: outcome.transcript.map((t) => t.text).join("\n"),
        toolCalls: outcome.toolCalls,
        turnMetrics: outcome.turnMetrics,
        events: outcome.events,
        hasRecording: recording !== null,
      })
      .where(and(eq(callLogs.workspaceId, workspaceId), eq(callLogs.id, id)));
    if (recording) {
      await tx
        .insert(callRecordings)
        .values({ callId: id, workspaceId, wav: recording })
        .onConflictDoUpdate({ target: callRecordings.callId, set: { wav: recording } });
    }
  });
}
