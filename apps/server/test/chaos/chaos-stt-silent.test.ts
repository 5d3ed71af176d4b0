import { describe, expect, it } from "vitest";
import { callInBrowser } from "../support/chaos-caller.ts";
import {
  CALLER_LINE,
  CLOUD_STT,
  chaosAssistant,
  expectFault,
  greetingHeard,
  heardUntilSettled,
  MAX_GAP_MS,
  REPLY,
  reportCase,
  useChaosWorld,
} from "../support/chaos-world.ts";
import { closedCallLog } from "../support/realtime-calls.ts";

/**
 * Issue 27's chaos suite, transcriber stage, browser channel: a Deepgram recogniser that takes the
 * caller's audio and never answers (not even a Finalize). The caller hears the recovery line within
 * 4 s of their turn; the recogniser is replaced, and when the caller says it again the backup hears
 * them and the assistant answers within 4 s.
 */

const world = useChaosWorld();

describe("a silent transcriber with a backup recogniser", () => {
  it("silent (takes audio, never answers): the recovery line comes in time, then the backup hears the caller", async () => {
    const { token, agentId } = await chaosAssistant(world, {
      stt: { type: "silent" },
      fallbacks: { stt: [CLOUD_STT] },
    });
    const caller = await callInBrowser(world.app, token, agentId);
    await greetingHeard(caller.ear);
    const firstTurn = await caller.say(CALLER_LINE);
    const recovered = await heardUntilSettled(caller.ear, firstTurn, "the recovery line");
    const gap = caller.ear.longestGap(firstTurn, recovered);
    // The caller's words were lost with the silent recogniser: they say them again and are answered.
    const secondTurn = await caller.say(CALLER_LINE);
    const answered = await heardUntilSettled(caller.ear, secondTurn, "the answer");
    const secondGap = caller.ear.longestGap(secondTurn, answered);
    await caller.hangUp();
    const log = await closedCallLog(world.app, token, caller.callId);
    reportCase("stt silent, backup recogniser, browser (first turn)", gap, log);
    reportCase("stt silent, backup recogniser, browser (second turn)", secondGap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expect(secondGap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", kind: "silent" });
    expect(log.transcript.filter((l) => l.role === "user")).toHaveLength(1);
    expect(log.transcript.at(-1)).toMatchObject({ role: "assistant", text: REPLY });
    expect(log.end_reason).toBe("fallback_used");
  }, 120_000);
});
