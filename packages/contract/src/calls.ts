import { z } from "zod";
import { UsageLine } from "./billing.ts";
import { AnalysisStatus, CallAnalysis, SuccessFilter } from "./call-analysis.ts";
import { paged } from "./common.ts";
import { FaultAction, FaultKind, FaultStage } from "./fault-policy.ts";
import { pageQuery } from "./page-query.ts";
import { RealtimeTokens } from "./realtime.ts";
import { CallSegment } from "./squads.ts";
import { CallWorkflowRecord } from "./workflows.ts";

/**
 * Live calls (spec §3 active-call room, §4 start order, §7 rooms and room tokens) and the call
 * logs they leave behind. The realtime socket speaks JSON text messages plus binary frames of
 * 16-bit little-endian mono PCM at 16 kHz in both directions.
 */

export const REALTIME_PATH = "/api/v1/realtime";
/** Lifetime of a room token: long enough to open the socket, short enough not to be worth stealing. */
export const ROOM_TOKEN_TTL_SECONDS = 60;
export const REALTIME_SAMPLE_RATE = 16000;
export const CALL_LOGS_PAGE_SIZE = 20;
export const CALL_LOGS_MAX_PAGE_SIZE = 100;

/** WebSocket close codes the server uses besides 1000 (normal end). */
export const REALTIME_CLOSE_CODES = {
  /** Token missing, expired, already used or for another room. */
  unauthorized: 4401,
  /** Origin of a browser connection is not this Parley. */
  forbiddenOrigin: 4403,
  /** The room no longer exists (call already ended). */
  roomGone: 4404,
  /** A caller is already connected to this room. */
  roomBusy: 4409,
  /** The call could not start (provider or configuration failure). */
  startFailed: 4500,
} as const;

/**
 * phone: a vendor number over its media stream; sip: an extension or trunk; whatsapp: a WhatsApp
 * voice call; test: a test suite's simulated caller (test-suites.ts).
 */
export const CallChannel = z.enum(["web", "phone", "sip", "whatsapp", "widget", "test"]);
export type CallChannel = z.infer<typeof CallChannel>;
export const CallDirection = z.enum(["inbound", "outbound"]);
export type CallDirection = z.infer<typeof CallDirection>;
export const CallStatus = z.enum(["queued", "in_progress", "completed", "failed"]);
export type CallStatus = z.infer<typeof CallStatus>;
export const CallEndReason = z.enum([
  "caller_hangup",
  "assistant_ended",
  "end_phrase",
  "silence_timeout",
  "max_duration",
  "transferred",
  "voicemail",
  "removed",
  "error",
  /** The room was created but nobody joined before it expired. */
  "not_joined",
  /** The server shut down while the call was live. */
  "server_shutdown",
  /**
   * Fault outcomes (the fault policy): the call ended because its model, transcriber or voice
   * failed past every retry and backup (status failed); or it went on to a normal end after a
   * backup provider took over, a tool timed out or failed, so its log says so (status completed).
   * The call's `events` name the stage, provider and error of each fault.
   */
  "assistant_error",
  "transcriber_error",
  "voice_error",
  "tool_timeout",
  "tool_error",
  "fallback_used",
]);
export type CallEndReason = z.infer<typeof CallEndReason>;

// ── rooms ───────────────────────────────────────────────────────────────────

/** POST /agents/{id}/call → 201. */
export const StartCallResponse = z.object({
  room: z.object({ name: z.string(), agent_id: z.string(), created_at: z.string() }),
  call_id: z.string(),
});
export type StartCallResponse = z.infer<typeof StartCallResponse>;

export const RoomTokenQuery = z.object({
  room_name: z.string().trim().min(1).max(100),
  user_identity: z.string().trim().min(1).max(100),
  name: z.string().trim().max(100).optional(),
});
export type RoomTokenQuery = z.infer<typeof RoomTokenQuery>;

/** GET /agents/room/generate_room_token; `url` is the WebSocket path to open with `?token=`. */
export const RoomTokenResponse = z.object({
  accessToken: z.string(),
  result: z.enum(["success", "error"]),
  message: z.string(),
  url: z.string(),
});
export type RoomTokenResponse = z.infer<typeof RoomTokenResponse>;

export const ParticipantKind = z.enum(["caller", "agent"]);
export const RoomParticipant = z.object({
  identity: z.string(),
  name: z.string(),
  kind: ParticipantKind,
  joined_at: z.string(),
});
export type RoomParticipant = z.infer<typeof RoomParticipant>;

export const ActiveRoom = z.object({
  name: z.string(),
  agent_id: z.string(),
  agent_name: z.string(),
  call_id: z.string(),
  started_at: z.string(),
  participants: z.array(RoomParticipant),
});
export type ActiveRoom = z.infer<typeof ActiveRoom>;

/** GET /agents/room/workspace_rooms. */
export const WorkspaceRoomsResponse = z.object({ rooms: z.array(ActiveRoom) });
export type WorkspaceRoomsResponse = z.infer<typeof WorkspaceRoomsResponse>;

export const RemoveParticipantQuery = z.object({ participant_identity: z.string().trim().min(1).max(100) });

// ── call logs ───────────────────────────────────────────────────────────────

export const CallLogSummary = z.object({
  id: z.string(),
  agent_id: z.string().nullable(),
  agent_name: z.string(),
  channel: CallChannel,
  direction: CallDirection,
  from_number: z.string().nullable(),
  to_number: z.string().nullable(),
  batch_call_id: z.string().nullable(),
  /** The test-suite run whose simulated caller placed it (channel `test`); null otherwise. */
  test_run_id: z.string().nullable(),
  /** The page origin a widget call was placed from (https://shop.example); null on other channels. */
  origin: z.string().nullable(),
  status: CallStatus,
  end_reason: z.string().nullable(),
  started_at: z.string(),
  ended_at: z.string().nullable(),
  duration_seconds: z.number(),
  /** USD. */
  cost: z.number(),
  /**
   * The assistant version the call ran (issue 30); null for a call opened before versions were
   * recorded. Present in the call-logs list and detail.
   */
  agent_version: z.number().int().nullable().optional(),
});
export type CallLogSummary = z.infer<typeof CallLogSummary>;

export const TranscriptEntry = z.object({
  role: z.enum(["user", "assistant"]),
  text: z.string(),
  at_ms: z.number(),
});
export type TranscriptEntry = z.infer<typeof TranscriptEntry>;

export const ToolCallEntry = z.object({
  name: z.string(),
  arguments: z.string(),
  result: z.string(),
  ok: z.boolean(),
  duration_ms: z.number(),
  at_ms: z.number(),
});
export type ToolCallEntry = z.infer<typeof ToolCallEntry>;

/** Which rule ended a caller's turn: punctuation, an open phrase, a number, plain silence, the recogniser's own event, or nothing more heard. */
export const EndOfTurnRule = z.enum(["punctuation", "no_punctuation", "number", "silence", "vendor", "timeout"]);
export type EndOfTurnRule = z.infer<typeof EndOfTurnRule>;

/** Per-turn latencies in milliseconds (null when a stage did not run in that turn). */
export const TurnMetricsEntry = z.object({
  turn: z.number().int(),
  stt_ms: z.number().nullable(),
  llm_ttft_ms: z.number().nullable(),
  tts_ttfb_ms: z.number().nullable(),
  /**
   * What the caller waited, whichever end-of-turn rule ended the turn and on every channel: from
   * the end of the last frame of their speech with sound in it, dated when it arrived on the
   * socket, to the first frame of the reply audible on their line (about -50 dBFS, judged at 8 kHz
   * on phone and SIP lines) as it is written to the transport. The end-of-turn wait and a
   * recogniser's late answer are in it; null when the reply was never heard (cut short, silent).
   */
  voice_to_voice_ms: z.number().nullable(),
  engine_overhead_ms: z.number().nullable(),
  /** Absent on calls logged before end-of-turn rules were recorded. */
  end_of_turn_rule: EndOfTurnRule.nullable().optional(),
  end_of_turn_wait_ms: z.number().nullable().optional(),
});
export type TurnMetricsEntry = z.infer<typeof TurnMetricsEntry>;

/** Timeline events besides transcript and tool calls. */
export const CallLogEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("interruption"), heard_text: z.string(), at_ms: z.number() }),
  z.object({
    type: z.literal("transfer"),
    destination: z.object({ name: z.string(), number: z.string() }),
    at_ms: z.number(),
  }),
  z.object({
    type: z.literal("provider_fallback"),
    stage: z.enum(["stt", "llm", "tts"]),
    from: z.string(),
    to: z.string(),
    error: z.string(),
    at_ms: z.number(),
  }),
  z.object({ type: z.literal("dtmf"), direction: z.enum(["in", "out"]), digits: z.string(), at_ms: z.number() }),
  z.object({ type: z.literal("error"), message: z.string(), at_ms: z.number() }),
  /** A stage failed (fault policy): what failed, how, and what the call did about it. */
  z.object({
    type: z.literal("fault"),
    stage: FaultStage,
    provider: z.string(),
    kind: FaultKind,
    action: FaultAction,
    /** The vendor's answer or the failure, with secrets redacted. */
    error: z.string(),
    at_ms: z.number(),
  }),
  /** A tool call the model asked for in a reply the caller cut short before it was heard: not run. */
  z.object({ type: z.literal("tool_skipped"), name: z.string(), reason: z.string(), at_ms: z.number() }),
  /** How the call itself ended when its end reason reports a fault instead (caller_hangup, …). */
  z.object({ type: z.literal("ended"), reason: z.string(), at_ms: z.number() }),
  /** A squad's member handed the call to another (issue 31), with the reason its model gave. */
  z.object({ type: z.literal("handoff"), from: z.string(), to: z.string(), reason: z.string(), at_ms: z.number() }),
]);
export type CallLogEvent = z.infer<typeof CallLogEvent>;

export const CallCostBreakdown = z.object({
  per_minute: z.number(),
  minutes: z.number(),
  stt: z.number(),
  llm: z.number(),
  tts: z.number(),
  telephony: z.number(),
  platform: z.number(),
  currency: z.literal("USD"),
  /** What the call used per component, priced (calls before metering have none). */
  usage: z.array(UsageLine).optional(),
  /** A speech-to-speech call's tokens by modality (its model lines price them); absent on pipeline calls. */
  realtime_tokens: RealtimeTokens.optional(),
});
export type CallCostBreakdown = z.infer<typeof CallCostBreakdown>;

export const CallLog = CallLogSummary.extend({
  transcript: z.array(TranscriptEntry),
  tool_calls: z.array(ToolCallEntry),
  turn_metrics: z.array(TurnMetricsEntry),
  events: z.array(CallLogEvent),
  has_recording: z.boolean(),
  cost_breakdown: CallCostBreakdown.nullable(),
  /** Post-call analysis; null when the assistant asked for none. */
  analysis: CallAnalysis.nullable(),
  /** The workflow the call ran: its path through the graph and the variables collected; null: none. */
  workflow: CallWorkflowRecord.nullable(),
  /** A squad's call (issue 31): which assistant ran which stretch, why, its cost and latency; null otherwise. */
  segments: z.array(CallSegment).nullable().optional(),
});
export type CallLog = z.infer<typeof CallLog>;

export const CallLogPage = paged(CallLogSummary);
export type CallLogPage = z.infer<typeof CallLogPage>;

/** GET /call-logs query; dates are ISO 8601 (a bare date means that UTC day). */
export const CallLogsQuery = z.object({
  ...pageQuery(CALL_LOGS_MAX_PAGE_SIZE, CALL_LOGS_PAGE_SIZE),
  agent_id: z.uuid().optional(),
  status: CallStatus.optional(),
  channel: CallChannel.optional(),
  batch_call_id: z.uuid().optional(),
  test_run_id: z.uuid().optional(),
  date_from: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  date_to: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
  search: z.string().trim().max(200).optional(),
  /** Calls whose post-call success evaluation passed, or failed. */
  success: SuccessFilter.optional(),
  analysis_status: AnalysisStatus.optional(),
});
export type CallLogsQuery = z.input<typeof CallLogsQuery>;

/** GET /call-logs/stats: this calendar month (UTC) and right now. */
export const CallStatsResponse = z.object({
  calls_this_month: z.number().int(),
  minutes_this_month: z.number(),
  active_calls: z.number().int(),
  recent_calls: z.array(CallLogSummary),
});
export type CallStatsResponse = z.infer<typeof CallStatsResponse>;

// ── realtime socket messages ────────────────────────────────────────────────

export const RealtimeClientMessage = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string().trim().min(1).max(2000) }),
  z.object({ type: z.literal("dtmf"), digit: z.string().regex(/^[0-9*#]$/) }),
  z.object({ type: z.literal("mute"), muted: z.boolean() }),
  z.object({ type: z.literal("hangup") }),
]);
export type RealtimeClientMessage = z.infer<typeof RealtimeClientMessage>;

export type RealtimeServerMessage =
  | { type: "ready"; call_id: string }
  | { type: "state"; state: "listening" | "thinking" | "speaking" }
  | { type: "transcript"; role: "user" | "assistant"; text: string; final: boolean; at_ms: number }
  | { type: "tool_call"; name: string; ok: boolean }
  | ({ type: "turn_metrics" } & TurnMetricsEntry)
  | { type: "interruption"; heard_text: string }
  | { type: "error"; message: string }
  /** A stage failed and the call is recovering (a backup, a spoken recovery) or giving up. */
  | { type: "fault"; stage: FaultStage; provider: string; kind: FaultKind; action: FaultAction }
  /** A squad's call passed to another member (issue 31): `to` speaks from now on. */
  | { type: "handoff"; from: string; to: string; reason: string }
  | { type: "end"; reason: string };
