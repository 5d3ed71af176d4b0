import { describe, expect, it } from "vitest";
import { BackgroundMixer, backgroundLoop } from "./background.ts";
import { levelDb } from "./pcm.ts";

describe("background ambience", () => {
  it.each(["office", "cafe"] as const)("generates the %s loop deterministically at a quiet level", (id) => {
    const loop = backgroundLoop(id);
    expect(loop.length).toBe(8 * 16_000);
    const level = levelDb(loop);
    expect(level).toBeGreaterThan(-36);
    expect(level).toBeLessThan(-24);
    expect(backgroundLoop(id)).toBe(loop);
  });

  it("mixes at the configured volume", () => {
    const quiet = new Int16Array(16_000);
    const loud = new Int16Array(16_000);
    new BackgroundMixer("cafe", 0.25).mixInto(quiet);
    new BackgroundMixer("cafe", 1).mixInto(loud);
    expect(levelDb(loud) - levelDb(quiet)).toBeCloseTo(12, 0);
  });
});
