import { describe, expect, it } from "vitest";
import { callInBrowser } from "../support/chaos-caller.ts";
import type { SttFault } from "../support/chaos-stt.ts";
import {
  CALLER_LINE,
  CLOUD_STT,
  chaosAssistant,
  closedOutcome,
  expectFault,
  greetingHeard,
  heardUntilSettled,
  MAX_GAP_MS,
  oneTurnCall,
  RECOVERY,
  reportCase,
  useChaosWorld,
} from "../support/chaos-world.ts";

/**
 * Issue 27's chaos suite, transcriber stage, on the browser channel and on a Twilio media stream
 * (8 kHz μ-law): the assistant listens with Deepgram (a double told to fail) and speaks with a
 * working Deepgram voice. With a backup recogniser the caller's turn is still heard and answered;
 * without one the call says its goodbye and ends as `transcriber_error`. Either way the caller
 * never hears more than 4 s of silence after their turn, measured on the wire, and the call log and
 * its call.ended webhook carry the outcome.
 */

const world = useChaosWorld({
  phone: { number: "+14155550131", assistant: { fallback_providers: { llm: [], stt: [CLOUD_STT], tts: [] } } },
});

/**
 * One call without a backup, which hangs up on its own. The silence is measured from the caller's
 * turn, or — when the recogniser fails as the call starts — from the call being ready.
 */
async function callWithoutBackup(fault: SttFault, callerSpeaks: boolean) {
  const { token, agentId } = await chaosAssistant(world, { stt: fault });
  return world.slots.run(async () => {
    const caller = await callInBrowser(world.app, token, agentId);
    await caller.client.waitFor("ready");
    let from = caller.messageAt("ready") ?? performance.now();
    if (callerSpeaks) {
      await greetingHeard(caller.ear);
      from = await caller.say(CALLER_LINE);
    }
    await caller.closed;
    const gap = caller.ear.longestGap(from, caller.ear.sounds.at(-1)?.to ?? performance.now());
    const log = await closedOutcome(world, token, caller.callId);
    return { gap, log, caller, heard: caller.ear.sounds.length > 0 };
  });
}

describe.concurrent("a failing transcriber with a backup recogniser", () => {
  it("refused at open: the backup hears the caller, the call ends as fallback_used", async () => {
    const { gap, log, caller } = await oneTurnCall(world, { stt: { type: "refuse" }, fallbacks: { stt: [CLOUD_STT] } });
    reportCase("stt refused at open, backup recogniser, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", kind: "unreachable", action: "fallback" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
    expect(log.transcript.map((l) => l.role)).toEqual(["assistant", "user", "assistant"]);
    expect(caller.faults()).toContainEqual(expect.objectContaining({ stage: "stt", action: "fallback" }));
  }, 120_000);

  it("401 on the upgrade: the backup takes over at once, the call ends as fallback_used", async () => {
    const { gap, log } = await oneTurnCall(world, { stt: { type: "unauthorized" }, fallbacks: { stt: [CLOUD_STT] } });
    reportCase("stt 401 on upgrade, backup recogniser, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", kind: "rejected", action: "fallback" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
  }, 120_000);

  it("dropped mid-utterance and gone: the backup hears the rest, the call ends as fallback_used", async () => {
    const fault: SttFault = { type: "drop", afterSpeechMs: 800, afterwards: "down" };
    const { gap, log } = await oneTurnCall(world, { stt: fault, fallbacks: { stt: [CLOUD_STT] } });
    reportCase("stt dropped mid-utterance then down, backup recogniser, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", action: "fallback" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
    expect(log.transcript.map((l) => l.role)).toEqual(["assistant", "user", "assistant"]);
  }, 120_000);

  it("dropped once mid-utterance, vendor still up: it reconnects, the log records the retried fault", async () => {
    const { gap, log } = await oneTurnCall(world, {
      stt: { type: "drop", afterSpeechMs: 800, afterwards: "up" },
      fallbacks: { stt: [CLOUD_STT] },
    });
    reportCase("stt dropped mid-utterance, vendor still up, backup recogniser, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    // The audio queued while it reconnected still reached it: the caller's words were heard.
    expect(log.transcript.map((l) => l.role)).toEqual(["assistant", "user", "assistant"]);
    expectFault(log, { stage: "stt", provider: "deepgram", action: "retried" });
    expect(log).toMatchObject({ status: "completed", end_reason: "transcriber_error" });
  }, 120_000);

  it("silent (takes audio, never answers): the caller hears the recovery line within the bound", async () => {
    const { gap, log } = await oneTurnCall(world, { stt: { type: "silent" }, fallbacks: { stt: [CLOUD_STT] } });
    reportCase("stt silent, backup recogniser, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", kind: "silent" });
    const said = log.transcript.filter((l) => l.role === "assistant").map((l) => l.text);
    expect(
      said.some((text) => text.includes(RECOVERY)),
      `the recovery line in ${JSON.stringify(said)}`,
    ).toBe(true);
    // The call went on after the fault: it names the transcriber, or the backup that took over.
    expect(log.status).toBe("completed");
    expect(["fallback_used", "transcriber_error"]).toContain(log.end_reason);
  }, 120_000);
});

describe.concurrent("a failing transcriber with no backup", () => {
  it("refused at open: the caller hears the goodbye, the call ends as transcriber_error", async () => {
    const { gap, log, heard } = await callWithoutBackup({ type: "refuse" }, false);
    expect(heard).toBe(true);
    reportCase("stt refused at open, no backup, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", kind: "unreachable", action: "gave_up" });
    expect(log).toMatchObject({ status: "failed", end_reason: "transcriber_error" });
  }, 120_000);

  it("dropped mid-utterance and gone: the caller hears the goodbye, the call ends as transcriber_error", async () => {
    const fault: SttFault = { type: "drop", afterSpeechMs: 800, afterwards: "down" };
    const { gap, log, heard } = await callWithoutBackup(fault, true);
    expect(heard).toBe(true);
    reportCase("stt dropped mid-utterance then down, no backup, browser", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", action: "gave_up" });
    expect(log).toMatchObject({ status: "failed", end_reason: "transcriber_error" });
  }, 120_000);
});

describe("a failing transcriber on a Twilio media stream", () => {
  it("dropped mid-utterance and gone: the backup hears the caller, the call ends as fallback_used", async () => {
    const from = "+14155559931";
    const phone = world.phone;
    if (!phone) throw new Error("the file's world has no phone line");
    const { gap, log } = await world.slots.run(async () => {
      const caller = await phone.ring(from, { stt: { type: "drop", afterSpeechMs: 800, afterwards: "down" } });
      await greetingHeard(caller.ear);
      const turnEnded = await caller.say(CALLER_LINE);
      const settled = await heardUntilSettled(caller.ear, turnEnded, "the answer");
      const gap = caller.ear.longestGap(turnEnded, settled);
      await caller.hangUp();
      return { gap, log: await closedOutcome(world, phone.world.token, await phone.callIdOf(from)) };
    });
    reportCase("stt dropped mid-utterance then down, backup recogniser, twilio", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", action: "fallback" });
    expect(log).toMatchObject({ channel: "phone", status: "completed", end_reason: "fallback_used" });
    expect(log.transcript.map((l) => l.role)).toEqual(["assistant", "user", "assistant"]);
  }, 120_000);
});
