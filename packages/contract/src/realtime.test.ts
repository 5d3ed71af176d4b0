import { describe, expect, it } from "vitest";
import { AssistantFields } from "./assistants.ts";
import { providerLabel, REALTIME_DESCRIPTORS, REALTIME_PROVIDERS } from "./providers/index.ts";
import {
  RealtimeConfig,
  realtimeCostPerMinute,
  realtimeIntegration,
  realtimePrice,
  realtimeTokenCost,
} from "./realtime.ts";

describe("realtime settings", () => {
  it("leave every assistant on the pipeline unless it chooses realtime", () => {
    const fields = AssistantFields.parse({ name: "A" });
    expect(fields.engine_mode).toBe("pipeline");
    expect(fields.realtime).toMatchObject({ provider: "openai-realtime", model: "gpt-realtime", voice: "marin" });
  });

  it("fill a provider's defaults and keep the turn detection's own fields", () => {
    const config = RealtimeConfig.parse({ provider: "openai-realtime", turn_detection: { type: "server_vad" } });
    expect(config).toMatchObject({
      turn_detection: { type: "server_vad", threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 },
    });
    expect(RealtimeConfig.parse({ provider: "gemini-live" })).toMatchObject({
      voice: "Puck",
      input_transcription: true,
    });
    expect(RealtimeConfig.safeParse({ provider: "nope" }).success).toBe(false);
  });

  it("list each vendor's realtime stage under its own provider id, reached with the vendor's key", () => {
    expect(REALTIME_PROVIDERS).toEqual(REALTIME_DESCRIPTORS.map((d) => d.realtime.id));
    expect(REALTIME_PROVIDERS.map(realtimeIntegration)).toEqual(REALTIME_DESCRIPTORS.map((d) => d.id));
    expect(REALTIME_PROVIDERS.map(providerLabel)).toEqual(["OpenAI Realtime", "Gemini Live"]);
  });
});

describe("realtime prices", () => {
  it("price audio, text and cached tokens apart at the model's list prices", () => {
    const price = realtimePrice("openai-realtime", "gpt-realtime");
    const cost = realtimeTokenCost(price, {
      input_text: 1_000_000,
      input_audio: 1_000_000,
      cached_input: 500_000,
      output_text: 1_000_000,
      output_audio: 1_000_000,
    });
    // 0.5M audio at 32 + 0.5M cached at 0.4 + 1M text at 4; output 16 + 64.
    expect(cost).toEqual({ input: 16 + 0.2 + 4, output: 80 });
  });

  it("estimates a minute from the talk shares", () => {
    const full = realtimeCostPerMinute({ provider: "openai-realtime", model: "gpt-realtime" });
    const mini = realtimeCostPerMinute({ provider: "openai-realtime", model: "gpt-realtime-mini" });
    expect(full.total).toBeGreaterThan(mini.total);
    // The model's audio alone: 600 tokens at $64 per 1M.
    expect(full.output).toBeCloseTo(0.0384, 6);
  });
});
