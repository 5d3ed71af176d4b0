import { describe, expect, it } from "vitest";
import { CallTimeline } from "./call-timeline.ts";

describe("CallTimeline", () => {
  it("keeps final lines only and joins one reply's sentences", () => {
    const timeline = new CallTimeline(() => 0);
    timeline.add({ type: "transcript", role: "assistant", text: "Hello.", final: true, atMs: 0 });
    timeline.add({ type: "transcript", role: "assistant", text: "How can I help?", final: true, atMs: 900 });
    timeline.add({ type: "state", state: "listening" });
    timeline.add({ type: "transcript", role: "user", text: "book a", final: false, atMs: 2000 });
    timeline.add({ type: "transcript", role: "user", text: "Book a table", final: true, atMs: 2500 });
    timeline.add({ type: "transcript", role: "assistant", text: "Sure.", final: true, atMs: 3000 });
    timeline.add({ type: "state", state: "listening" });
    timeline.add({ type: "transcript", role: "assistant", text: "Are you still there?", final: true, atMs: 9000 });
    expect(timeline.transcript).toEqual([
      { role: "assistant", text: "Hello. How can I help?", at_ms: 0 },
      { role: "user", text: "Book a table", at_ms: 2500 },
      { role: "assistant", text: "Sure.", at_ms: 3000 },
      { role: "assistant", text: "Are you still there?", at_ms: 9000 },
    ]);
  });

  it("records tool calls, turn metrics in snake_case and the other events", () => {
    const timeline = new CallTimeline(() => 4200);
    timeline.add({
      type: "tool_call",
      name: "check_hours",
      arguments: "{}",
      result: '{"open":"9am"}',
      ok: true,
      durationMs: 35,
      atMs: 1000,
    });
    timeline.add({
      type: "turn_metrics",
      metrics: {
        turn: 1,
        endOfTurnRule: "punctuation",
        endOfTurnWaitMs: 40,
        sttMs: 100,
        llmTtftMs: 250,
        ttsTtfbMs: 80,
        voiceToVoiceMs: 600,
        engineOverheadMs: 20,
      },
    });
    timeline.add({ type: "interruption", heardText: "We open", atMs: 1500 });
    timeline.add({ type: "provider_fallback", stage: "tts", from: "cartesia", to: "local", error: "503" });
    timeline.add({ type: "dtmf_in", digit: "5", atMs: 2000 });
    timeline.add({ type: "error", message: "boom" });
    expect(timeline.toolCalls).toEqual([
      { name: "check_hours", arguments: "{}", result: '{"open":"9am"}', ok: true, duration_ms: 35, at_ms: 1000 },
    ]);
    expect(timeline.turnMetrics).toEqual([
      {
        turn: 1,
        stt_ms: 100,
        llm_ttft_ms: 250,
        tts_ttfb_ms: 80,
        voice_to_voice_ms: 600,
        engine_overhead_ms: 20,
        end_of_turn_rule: "punctuation",
        end_of_turn_wait_ms: 40,
      },
    ]);
    expect(timeline.events).toEqual([
      { type: "interruption", heard_text: "We open", at_ms: 1500 },
      { type: "provider_fallback", stage: "tts", from: "cartesia", to: "local", error: "503", at_ms: 4200 },
      { type: "dtmf", direction: "in", digits: "5", at_ms: 2000 },
      { type: "error", message: "boom", at_ms: 4200 },
    ]);
  });
});
