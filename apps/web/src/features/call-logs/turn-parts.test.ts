import { describe, expect, it } from "vitest";
import { turnParts } from "./turn-parts.ts";

describe("turnParts", () => {
  it("stacks a turn's parts to what the caller waited, the end-of-turn wait included", () => {
    const parts = turnParts({
      turn: 1,
      stt_ms: 120,
      end_of_turn_wait_ms: 700,
      llm_ttft_ms: 40,
      tts_ttfb_ms: 50,
      voice_to_voice_ms: 928,
      engine_overhead_ms: 18,
      end_of_turn_rule: "no_punctuation",
    });
    expect(parts).toEqual({
      stt_ms: 120,
      end_of_turn_wait_ms: 700,
      llm_ttft_ms: 40,
      tts_ttfb_ms: 50,
      rest_ms: 18,
      total: 928,
    });
  });

  it("never stacks past the total, and sums the parts of a turn measured in pieces only", () => {
    const clipped = turnParts({
      turn: 2,
      stt_ms: 3000,
      end_of_turn_wait_ms: 400,
      llm_ttft_ms: 40,
      tts_ttfb_ms: 200,
      voice_to_voice_ms: 3500,
      engine_overhead_ms: 0,
    });
    expect(
      clipped.stt_ms + clipped.end_of_turn_wait_ms + clipped.llm_ttft_ms + clipped.tts_ttfb_ms + clipped.rest_ms,
    ).toBe(3500);
    expect(clipped.tts_ttfb_ms).toBe(60);
    const unmeasured = turnParts({
      turn: 3,
      stt_ms: null,
      llm_ttft_ms: 300,
      tts_ttfb_ms: 100,
      voice_to_voice_ms: null,
      engine_overhead_ms: null,
    });
    expect(unmeasured).toMatchObject({ total: 400, rest_ms: 0 });
  });
});
