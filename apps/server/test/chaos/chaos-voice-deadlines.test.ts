import { describe, expect, it } from "vitest";
import {
  expectFault,
  LOCAL_VOICE,
  MAX_GAP_MS,
  oneTurnCall,
  reportCase,
  useChaosWorld,
} from "../support/chaos-world.ts";

/**
 * Issue 27's chaos suite, voice stage, browser channel: a Deepgram Aura voice that says the greeting
 * and then hangs before the reply's first audio byte, or cuts the reply's audio mid-sentence. The
 * backup voice takes over with no more than 4 s of silence after the caller's turn, and the log
 * names the fault and the backup.
 */

const world = useChaosWorld({ callsAtOnce: 1 });

describe.concurrent("a voice failing mid-reply, with a backup voice", () => {
  it("hanging before the first audio byte: the backup voice takes over within the bound, fallback_used", async () => {
    const { gap, log } = await oneTurnCall(world, {
      tts: { fault: { type: "hang" }, fromRequest: 2 },
      fallbacks: { tts: [LOCAL_VOICE] },
    });
    reportCase("voice hangs before audio, backup voice, browser", gap, log);
    expectFault(log, { stage: "tts", provider: "deepgram", kind: "timeout", action: "fallback" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
  }, 120_000);

  it("cut mid-sentence: the backup voice says the sentence again, the log says stream_cut and fallback_used", async () => {
    const { gap, log } = await oneTurnCall(world, {
      tts: { fault: { type: "cut", afterMs: 400 }, fromRequest: 2 },
      fallbacks: { tts: [LOCAL_VOICE] },
    });
    reportCase("voice cut mid-sentence, backup voice, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "tts", provider: "deepgram", kind: "stream_cut" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
  }, 120_000);
});
