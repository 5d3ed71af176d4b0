import type { CallLogEvent, ToolCallEntry, TranscriptEntry, TurnMetricsEntry } from "@parley/contract";
import type { CallEvent, TurnMetrics } from "@parley/engine";

/** The engine's per-turn figures in the API's snake_case. */
export function toTurnMetricsEntry(m: TurnMetrics): TurnMetricsEntry {
  return {
    turn: m.turn,
    stt_ms: m.sttMs,
    llm_ttft_ms: m.llmTtftMs,
    tts_ttfb_ms: m.ttsTtfbMs,
    voice_to_voice_ms: m.voiceToVoiceMs,
    engine_overhead_ms: m.engineOverheadMs,
    end_of_turn_rule: m.endOfTurnRule,
    end_of_turn_wait_ms: m.endOfTurnWaitMs,
  };
}

/**
 * Folds a call's events into what its log keeps: final transcript lines (an assistant reply's
 * sentences joined into one line), tool calls, turn metrics and the other timeline events.
 * Partial transcripts and state changes are live-only.
 */
export class CallTimeline {
  readonly transcript: TranscriptEntry[] = [];
  readonly toolCalls: ToolCallEntry[] = [];
  readonly turnMetrics: TurnMetricsEntry[] = [];
  readonly events: CallLogEvent[] = [];
  /** Whether the last transcript line is an assistant reply still being spoken. */
  private replyOpen = false;

  constructor(private readonly elapsedMs: () => number) {}

  add(event: CallEvent): void {
    switch (event.type) {
      case "state":
        // A new reply starts a new line even without a caller turn between (e.g. a silence prompt).
        if (event.state === "listening") this.replyOpen = false;
        return;
      case "transcript":
        if (event.final) this.addTranscript(event.role, event.text, event.atMs);
        return;
      case "tool_call":
        this.toolCalls.push({
          name: event.name,
          arguments: event.arguments,
          result: event.result,
          ok: event.ok,
          duration_ms: event.durationMs,
          at_ms: event.atMs,
        });
        return;
      case "turn_metrics":
        this.turnMetrics.push(toTurnMetricsEntry(event.metrics));
        return;
      case "interruption":
        // No transcript edit: the engine's final for a cut reply already holds only what was heard.
        this.events.push({ type: "interruption", heard_text: event.heardText, at_ms: event.atMs });
        return;
      case "transfer":
        this.events.push({ type: "transfer", destination: event.destination, at_ms: event.atMs });
        return;
      case "dtmf_in":
        this.events.push({ type: "dtmf", direction: "in", digits: event.digit, at_ms: event.atMs });
        return;
      case "dtmf_out":
        this.events.push({ type: "dtmf", direction: "out", digits: event.digits, at_ms: event.atMs });
        return;
      case "provider_fallback":
        this.events.push({ ...event, at_ms: this.elapsedMs() });
        return;
      case "error":
        this.events.push({ type: "error", message: event.message, at_ms: this.elapsedMs() });
        return;
      case "fault":
        this.events.push({
          type: "fault",
          stage: event.stage,
          provider: event.provider,
          kind: event.kind,
          action: event.action,
          error: event.error,
          at_ms: event.atMs,
        });
        return;
      case "tool_skipped":
        this.events.push({ type: "tool_skipped", name: event.name, reason: event.reason, at_ms: event.atMs });
        return;
      case "handoff":
        this.events.push({ type: "handoff", from: event.from, to: event.to, reason: event.reason, at_ms: event.atMs });
        return;
      default:
        return;
    }
  }

  private addTranscript(role: TranscriptEntry["role"], raw: string, atMs: number): void {
    const text = raw.trim();
    if (!text) return;
    const last = this.transcript.at(-1);
    if (role === "assistant" && this.replyOpen && last?.role === "assistant") {
      last.text = `${last.text} ${text}`;
      return;
    }
    this.transcript.push({ role, text, at_ms: atMs });
    this.replyOpen = role === "assistant";
  }
}
