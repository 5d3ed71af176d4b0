import { describe, expect, it } from "vitest";
import { callInBrowser } from "../support/chaos-caller.ts";
import {
  CALLER_LINE,
  chaosAssistant,
  closedOutcome,
  expectFault,
  greetingHeard,
  heardUntilSettled,
  LOCAL_VOICE,
  MAX_GAP_MS,
  oneTurnCall,
  REPLY,
  reportCase,
  useChaosWorld,
} from "../support/chaos-world.ts";

/**
 * Issue 27's chaos suite, voice stage, on the browser channel and on a Twilio media stream (8 kHz
 * μ-law): the assistant hears with a working Deepgram recogniser and speaks with Deepgram Aura (a
 * double that says the greeting, then refuses the reply). A backup voice — the assistant's own, or
 * the offline last-resort voice the server adds — says the reply with no more than 4 s of silence
 * after the caller's turn, measured on the wire; with no voice left the call ends as `voice_error`
 * instead of leaving the caller on a silent line. The call log and its call.ended webhook carry the
 * outcome.
 */

// One call at a time: the offline voice's synthesis holds the event loop the other calls share.
const world = useChaosWorld({ phone: { number: "+14155550132" }, callsAtOnce: 1 });

describe.concurrent("a voice refusing the reply, with a backup", () => {
  it("answering 500: the offline last-resort voice says the reply, the call ends as fallback_used", async () => {
    const { gap, log, key } = await oneTurnCall(world, {
      tts: { fault: { type: "status", status: 500 }, fromRequest: 2 },
    });
    reportCase("voice 500, last-resort voice, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expect(world.tts.stats(key).failed).toBeGreaterThanOrEqual(1);
    expectFault(log, { stage: "tts", provider: "deepgram", kind: "server_error", action: "fallback" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
    expect(log.transcript.at(-1)).toMatchObject({ role: "assistant", text: REPLY });
  }, 120_000);

  it("answering 401: the backup voice says the reply, the call ends as fallback_used", async () => {
    const { gap, log } = await oneTurnCall(world, {
      tts: { fault: { type: "status", status: 401 }, fromRequest: 2 },
      fallbacks: { tts: [LOCAL_VOICE] },
    });
    reportCase("voice 401, backup voice, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "tts", provider: "deepgram", kind: "rejected", action: "fallback" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
  }, 120_000);

  it("cut mid-sentence: the sentence is said again by the backup voice within the bound, the log says stream_cut", async () => {
    const { gap, log } = await oneTurnCall(world, {
      tts: { fault: { type: "cut", afterMs: 400 }, fromRequest: 2 },
      fallbacks: { tts: [LOCAL_VOICE] },
    });
    reportCase("voice cut mid-sentence, backup voice, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "tts", provider: "deepgram", kind: "stream_cut" });
    expect(log.transcript.at(-1)).toMatchObject({ role: "assistant", text: REPLY });
    // The call went on: it reports the voice's fault (voice_error) or the backup that said the sentence.
    expect(log.status).toBe("completed");
    expect(["fallback_used", "voice_error"]).toContain(log.end_reason);
  }, 120_000);

  it("every sentence refused and no last resort: the call ends as voice_error instead of staying silent", async () => {
    const { token, agentId } = await chaosAssistant(world, {
      tts: { fault: { type: "status", status: 503 } },
      faultPolicy: { last_resort_voice: false },
    });
    const { caller, endedAfter, log } = await world.slots.run(async () => {
      const caller = await callInBrowser(world.app, token, agentId);
      // Nothing can be heard; the caller speaks once the greeting has failed.
      await caller.client.waitFor("fault", (m) => m.stage === "tts", 30_000);
      const turnEnded = await caller.say(CALLER_LINE);
      await caller.closed;
      const endedAfter = performance.now() - turnEnded;
      return { caller, endedAfter, log: await closedOutcome(world, token, caller.callId) };
    });
    reportCase("voice 503, no voice at all, browser (gap = until the call ended)", { ms: endedAfter }, log);
    expect(caller.ear.sounds).toEqual([]);
    // The third sentence is refused, or (its retries outlasting the first-audio deadline) late.
    expectFault(log, { stage: "tts", provider: "deepgram", kind: ["server_error", "timeout"], action: "gave_up" });
    expect(log).toMatchObject({ status: "failed", end_reason: "voice_error" });
    // Not left on a silent line: the call ends within a few recovery gaps of the caller's turn.
    expect(endedAfter).toBeLessThanOrEqual(15_000);
  }, 120_000);
});

describe("a failing voice on a Twilio media stream", () => {
  it("answering 500: the last-resort voice says the reply, the call ends as fallback_used", async () => {
    const from = "+14155559932";
    const phone = world.phone;
    if (!phone) throw new Error("the file's world has no phone line");
    const { gap, log } = await world.slots.run(async () => {
      const caller = await phone.ring(from, { tts: { fault: { type: "status", status: 500 }, fromRequest: 2 } });
      await greetingHeard(caller.ear);
      const turnEnded = await caller.say(CALLER_LINE);
      const settled = await heardUntilSettled(caller.ear, turnEnded, "the reply");
      const gap = caller.ear.longestGap(turnEnded, settled);
      await caller.hangUp();
      return { gap, log: await closedOutcome(world, phone.world.token, await phone.callIdOf(from)) };
    });
    reportCase("voice 500, last-resort voice, twilio", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "tts", provider: "deepgram", kind: "server_error", action: "fallback" });
    expect(log).toMatchObject({ channel: "phone", status: "completed", end_reason: "fallback_used" });
  }, 120_000);
});
