import type {
  CallAnalysis,
  CallChannel,
  CallCostBreakdown,
  CallDirection,
  CallLogEvent,
  CallSegment,
  CallStatus,
  CallWorkflowRecord,
  ToolCallEntry,
  TranscriptEntry,
  TurnMetricsEntry,
} from "@parley/contract";
import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt } from "../../lib/table-columns.ts";
import { agents } from "../assistants/schema.ts";
import { workspaceIdColumn, workspaceRecordKey } from "../workspaces/owned-columns.ts";

/** Raw bytes; node-postgres hands back a Buffer, PGlite a Uint8Array. */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * One row per call, from the moment its room is created (queued) to its end. The transcript and
 * tool calls are written as the call runs (so a crash keeps what was said), the rest of the timeline
 * when it ends. The assistant's name is copied so a log still reads well after the assistant is
 * deleted. An open call (queued or in progress) whose process stops renewing `heartbeat_at` is
 * closed as `server_crash`; open calls with a fresh heartbeat are what the concurrency limit counts.
 */
export const callLogs = pgTable(
  "call_logs",
  {
    ...workspaceRecordKey(),
    agentId: uuid("agent_id").references(() => agents.id, { onDelete: "set null" }),
    agentName: text("agent_name").notNull(),
    channel: text("channel").$type<CallChannel>().notNull(),
    direction: text("direction").$type<CallDirection>().notNull(),
    fromNumber: text("from_number"),
    toNumber: text("to_number"),
    batchCallId: uuid("batch_call_id"),
    /** The test-suite run whose simulated caller placed the call (channel `test`); no FK: runs are deleted with their suite's history. */
    testRunId: uuid("test_run_id"),
    /** Who carried a phone call (a vendor id, sip_trunk, …) and its id there (one log per id); null for browser calls. */
    provider: text("provider"),
    providerCallId: text("provider_call_id"),
    /** The phone number (phone_numbers.id) the call came in on or went out from; no FK: the number may be deleted. */
    phoneNumberId: uuid("phone_number_id"),
    /** The page origin of a widget call (the Origin its browser sent); null on other channels. */
    origin: text("origin"),
    status: text("status").$type<CallStatus>().notNull(),
    endReason: text("end_reason"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    durationSeconds: doublePrecision("duration_seconds").notNull().default(0),
    cost: doublePrecision("cost").notNull().default(0),
    costBreakdown: jsonb("cost_breakdown").$type<CallCostBreakdown>(),
    transcript: jsonb("transcript").$type<TranscriptEntry[]>().notNull().default([]),
    /** The transcript's words as plain text, for search. */
    transcriptText: text("transcript_text").notNull().default(""),
    toolCalls: jsonb("tool_calls").$type<ToolCallEntry[]>().notNull().default([]),
    turnMetrics: jsonb("turn_metrics").$type<TurnMetricsEntry[]>().notNull().default([]),
    events: jsonb("events").$type<CallLogEvent[]>().notNull().default([]),
    hasRecording: boolean("has_recording").notNull().default(false),
    /** The recording's WAV file, relative to DATA_DIR; null for recordings kept in call_recordings. */
    recordingPath: text("recording_path"),
    /** Post-call analysis (modules/call-analysis): null when the assistant asks for none. */
    analysis: jsonb("analysis").$type<CallAnalysis>(),
    /** The workflow the call ran (issue 15): its path through the graph and the variables collected; null: none. */
    workflow: jsonb("workflow").$type<CallWorkflowRecord>(),
    /** Which assistant ran which stretch of a squad's call (issue 31); null for a call of one assistant. */
    segments: jsonb("segments").$type<CallSegment[]>(),
    /** Renewed by the process running the call while it is open. */
    heartbeatAt: timestamp("heartbeat_at", { withTimezone: true }),
  },
  (t) => [
    index("call_logs_workspace_started_idx").on(t.workspaceId, t.startedAt.desc()),
    index("call_logs_agent_idx").on(t.workspaceId, t.agentId),
    index("call_logs_batch_idx").on(t.workspaceId, t.batchCallId).where(sql`${t.batchCallId} is not null`),
    index("call_logs_test_run_idx").on(t.workspaceId, t.testRunId).where(sql`${t.testRunId} is not null`),
    // Status callbacks find their call by the vendor's id (they carry no workspace); unique, so a
    // replayed voice webhook cannot open a second call for one carrier call, on any process.
    uniqueIndex("call_logs_provider_call_idx")
      .on(t.provider, t.providerCallId)
      .where(sql`${t.providerCallId} is not null`),
    index("call_logs_open_idx").on(t.workspaceId, t.heartbeatAt).where(sql`${t.status} in ('queued', 'in_progress')`),
  ],
);

/**
 * The stereo WAV of a call, as calls before file recordings kept it (new calls write a file under
 * DATA_DIR); kept apart so listing logs never reads audio.
 */
export const callRecordings = pgTable("call_recordings", {
  callId: uuid("call_id")
    .primaryKey()
    .references(() => callLogs.id, { onDelete: "cascade" }),
  workspaceId: workspaceIdColumn(),
  wav: bytea("wav").notNull(),
  createdAt: createdAt(),
});

export type CallLogRow = typeof callLogs.$inferSelect;

/** Room tokens already used (a token opens one connection), shared by every server process. */
export const usedRoomTokens = pgTable("used_room_tokens", {
  tokenId: text("token_id").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
});
