import { describe, expect, it } from "vitest";
import { ENGINE_SAMPLE_RATE, FRAME_MS, SAMPLES_PER_FRAME } from "./constants.ts";

describe("engine audio format", () => {
  it("moves 20 ms frames of 16 kHz audio: 320 samples each", () => {
    expect(ENGINE_SAMPLE_RATE).toBe(16_000);
    expect(FRAME_MS).toBe(20);
    expect(SAMPLES_PER_FRAME).toBe(320);
  });
});
