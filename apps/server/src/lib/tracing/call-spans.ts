import type { Context, Span, Tracer } from "@opentelemetry/api";
import type { CallEvent, TurnMetrics } from "@parley/engine";
import type { OtelApi } from "./otel-api.ts";
import type { CallIdentity, CallSpans } from "./tracing-types.ts";

/** Wall-clock milliseconds with sub-millisecond precision (spans are built from stored figures). */
const nowMs = () => performance.timeOrigin + performance.now();

/**
 * The parts of a turn, in the order the caller waited for them, each named by the call log's field
 * (`parley.metric`) so a trace reads against the stored turn_metrics.
 */
type TurnPart = { name: string; metric: string; ms: number };

function turnParts(metrics: TurnMetrics): { sequential: TurnPart[]; voice: TurnPart | null } {
  const parts = [
    { name: "transcriber final", metric: "stt_ms", ms: metrics.sttMs },
    { name: "end-of-turn wait", metric: "end_of_turn_wait_ms", ms: metrics.endOfTurnWaitMs },
    { name: "model first token", metric: "llm_ttft_ms", ms: metrics.llmTtftMs },
  ];
  const sequential = parts.filter((part): part is TurnPart => part.ms !== null);
  const voice =
    metrics.ttsTtfbMs === null ? null : { name: "voice first audio", metric: "tts_ttfb_ms", ms: metrics.ttsTtfbMs };
  return { sequential, voice };
}

/**
 * One call's trace: a root span "call", a "turn <n>" span per answered caller turn whose children
 * are the turn's stored figures, a span per tool call, and the faults as events on the call span.
 */
class OtelCallSpans implements CallSpans {
  private readonly root: Span;
  private readonly context: Context;
  private ended = false;

  constructor(
    private readonly api: OtelApi,
    private readonly tracer: Tracer,
    call: CallIdentity,
  ) {
    this.root = tracer.startSpan("call", {
      root: true,
      startTime: nowMs(),
      attributes: {
        "parley.call_id": call.callId,
        "parley.workspace_id": call.workspaceId,
        "parley.agent_id": call.agentId,
        "parley.channel": call.channel,
      },
    });
    this.context = api.trace.setSpan(api.ROOT_CONTEXT, this.root);
  }

  event(event: CallEvent): void {
    if (this.ended) return;
    switch (event.type) {
      case "turn_metrics":
        this.turn(event.metrics);
        return;
      case "tool_call":
        this.tool(event.name, event.ok, event.durationMs);
        return;
      case "fault":
        this.root.addEvent("fault", {
          "parley.fault.stage": event.stage,
          "parley.fault.provider": event.provider,
          "parley.fault.kind": event.kind,
          "parley.fault.action": event.action,
          "parley.fault.error": event.error,
        });
        if (event.action === "gave_up")
          this.root.setStatus({
            code: this.api.SpanStatusCode.ERROR,
            message: `${event.stage} ${event.provider}: ${event.kind}`,
          });
        return;
      case "tool_skipped":
        this.root.addEvent("tool skipped", { "parley.tool.name": event.name, "parley.tool.reason": event.reason });
        return;
      case "provider_fallback":
        this.root.addEvent("provider fallback", {
          "parley.fault.stage": event.stage,
          "parley.fallback.from": event.from,
          "parley.fallback.to": event.to,
        });
        return;
      case "interruption":
        this.root.addEvent("interruption");
        return;
      case "transfer":
        this.root.addEvent("transfer");
        return;
      default:
        // Transcripts stay out of traces: what callers say is theirs, not the collector's.
        return;
    }
  }

  /**
   * The engine reports a turn's figures the moment its first answer audio goes out, so that moment
   * ends the turn span and the figures place its parts: the caller's wait from the end of speech
   * (voice-to-voice), recognition and the end-of-turn wait from its start, then the model's first
   * token, and the voice's first audio just before the audio went out.
   */
  private turn(metrics: TurnMetrics): void {
    const end = nowMs();
    const { sequential, voice } = turnParts(metrics);
    const waited = sequential.reduce((sum, part) => sum + part.ms, 0) + (voice?.ms ?? 0);
    const start = end - (metrics.voiceToVoiceMs ?? waited);
    const span = this.tracer.startSpan(
      `turn ${metrics.turn}`,
      {
        startTime: start,
        attributes: {
          "parley.turn": metrics.turn,
          "parley.turn.audible": metrics.voiceToVoiceMs !== null,
          ...(metrics.endOfTurnRule ? { "parley.turn.end_of_turn_rule": metrics.endOfTurnRule } : {}),
          ...figure("parley.turn.voice_to_voice_ms", metrics.voiceToVoiceMs),
          ...figure("parley.turn.engine_overhead_ms", metrics.engineOverheadMs),
          ...figure("parley.turn.stt_ms", metrics.sttMs),
          ...figure("parley.turn.end_of_turn_wait_ms", metrics.endOfTurnWaitMs),
          ...figure("parley.turn.llm_ttft_ms", metrics.llmTtftMs),
          ...figure("parley.turn.tts_ttfb_ms", metrics.ttsTtfbMs),
        },
      },
      this.context,
    );
    const inTurn = this.api.trace.setSpan(this.context, span);
    let at = start;
    for (const part of sequential) {
      this.part(part, at, inTurn);
      at += part.ms;
    }
    if (voice) this.part(voice, end - voice.ms, inTurn);
    span.end(end);
  }

  private part(part: TurnPart, start: number, parent: Context): void {
    const span = this.tracer.startSpan(
      part.name,
      { startTime: start, attributes: { "parley.metric": part.metric, [`parley.turn.${part.metric}`]: part.ms } },
      parent,
    );
    span.end(start + part.ms);
  }

  /** The engine reports a tool call once it returned: it ran for `durationMs` up to now. */
  private tool(name: string, ok: boolean, durationMs: number): void {
    const end = nowMs();
    const span = this.tracer.startSpan(
      `tool ${name}`,
      {
        startTime: end - durationMs,
        attributes: { "parley.tool.name": name, "parley.tool.ok": ok, "parley.tool.duration_ms": durationMs },
      },
      this.context,
    );
    if (!ok) span.setStatus({ code: this.api.SpanStatusCode.ERROR, message: `${name} failed` });
    span.end(end);
  }

  end(outcome: { reason: string; status: string; durationMs: number }): void {
    if (this.ended) return;
    this.ended = true;
    this.root.setAttributes({
      "parley.call.end_reason": outcome.reason,
      "parley.call.status": outcome.status,
      "parley.call.duration_ms": outcome.durationMs,
    });
    if (outcome.status === "failed")
      this.root.setStatus({ code: this.api.SpanStatusCode.ERROR, message: outcome.reason });
    this.root.end(nowMs());
  }
}

const figure = (key: string, ms: number | null) => (ms === null ? {} : { [key]: ms });

/** A trace per live call, recorded with `tracer`. */
export function otelCallSpans(api: OtelApi, tracer: Tracer): { startCall(call: CallIdentity): CallSpans } {
  return { startCall: (call) => new OtelCallSpans(api, tracer, call) };
}
