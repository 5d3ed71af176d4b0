import * as api from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { otelCallSpans } from "./call-spans.ts";

const msOf = (time: [number, number]) => time[0] * 1000 + time[1] / 1e6;

function recordedCall() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const trace = otelCallSpans(api, provider.getTracer("test")).startCall({
    callId: "call-1",
    workspaceId: "ws-1",
    agentId: "agent-1",
    channel: "phone",
  });
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => spans().find((span) => span.name === name);
  return { trace, spans, named };
}

describe("a call's trace", () => {
  it("lays a turn's stored figures out as its children, the voice's first audio ending the turn", () => {
    const { trace, spans, named } = recordedCall();
    trace.event({
      type: "turn_metrics",
      metrics: {
        turn: 1,
        endOfTurnRule: "silence",
        sttMs: 210.5,
        endOfTurnWaitMs: 300,
        llmTtftMs: 420.25,
        ttsTtfbMs: 180,
        voiceToVoiceMs: 1400,
        engineOverheadMs: 20,
      },
    });
    trace.end({ reason: "caller_hangup", status: "completed", durationMs: 5000 });

    const turn = named("turn 1");
    const call = named("call");
    expect(turn?.parentSpanContext?.spanId).toBe(call?.spanContext().spanId);
    expect(new Set(spans().map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(msOf(turn?.duration ?? [0, 0])).toBeCloseTo(1400, 1);
    const parts = spans().filter((span) => span.parentSpanContext?.spanId === turn?.spanContext().spanId);
    const layout = parts.map((span) => [
      span.name,
      span.attributes["parley.metric"],
      Math.round(msOf(span.duration) * 100) / 100,
      Math.round((msOf(span.startTime) - msOf(turn?.startTime ?? [0, 0])) * 100) / 100,
    ]);
    expect(layout).toEqual([
      ["transcriber final", "stt_ms", 210.5, 0],
      ["end-of-turn wait", "end_of_turn_wait_ms", 300, 210.5],
      ["model first token", "llm_ttft_ms", 420.25, 510.5],
      ["voice first audio", "tts_ttfb_ms", 180, 1220],
    ]);
    expect(turn?.attributes).toMatchObject({ "parley.turn": 1, "parley.turn.end_of_turn_rule": "silence" });
    expect(call?.attributes).toMatchObject({
      "parley.call_id": "call-1",
      "parley.workspace_id": "ws-1",
      "parley.agent_id": "agent-1",
      "parley.channel": "phone",
      "parley.call.end_reason": "caller_hangup",
      "parley.call.status": "completed",
    });
    expect(call?.status.code).toBe(api.SpanStatusCode.UNSET);
  });

  it("records faults as events, a stage given up as an error, and tools as spans", () => {
    const { trace, named } = recordedCall();
    const fault = {
      type: "fault",
      stage: "llm",
      provider: "openai-compatible",
      kind: "unreachable",
      error: "ENOTFOUND",
    } as const;
    trace.event({ ...fault, action: "fallback", atMs: 100 });
    trace.event({
      type: "tool_call",
      name: "book",
      arguments: "{}",
      result: "timeout",
      ok: false,
      durationMs: 250,
      atMs: 900,
    });
    trace.event({ type: "transcript", role: "user", text: "my card number is 4111", final: true, atMs: 1000 });
    trace.event({ ...fault, action: "gave_up", atMs: 2000 });
    trace.end({ reason: "assistant_error", status: "failed", durationMs: 3000 });
    trace.event({ ...fault, action: "retried", atMs: 4000 });

    const call = named("call");
    expect(call?.events.map((event) => [event.name, event.attributes?.["parley.fault.action"]])).toEqual([
      ["fault", "fallback"],
      ["fault", "gave_up"],
    ]);
    expect(call?.events[0]?.attributes).toMatchObject({
      "parley.fault.stage": "llm",
      "parley.fault.provider": "openai-compatible",
      "parley.fault.kind": "unreachable",
    });
    expect(call?.status.code).toBe(api.SpanStatusCode.ERROR);
    expect(JSON.stringify(call?.attributes)).not.toContain("4111");
    const tool = named("tool book");
    expect(tool?.attributes).toMatchObject({ "parley.tool.name": "book", "parley.tool.ok": false });
    expect(msOf(tool?.duration ?? [0, 0])).toBeCloseTo(250, 1);
    expect(tool?.status.code).toBe(api.SpanStatusCode.ERROR);
  });
});
