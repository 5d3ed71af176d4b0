import { describe, expect, it } from "vitest";
import { callInBrowser } from "../support/chaos-caller.ts";
import type { SttFault } from "../support/chaos-stt.ts";
import {
  CALLER_LINE,
  CLOUD_STT,
  chaosAssistant,
  expectFault,
  faultEvents,
  greetingHeard,
  heardUntilSettled,
  MAX_GAP_MS,
  useChaosWorld,
} from "../support/chaos-world.ts";
import { closedCallLog } from "../support/realtime-calls.ts";

/**
 * Issue 27's chaos suite, transcriber stage, on the browser channel: the assistant listens with
 * Deepgram (a double told to fail) and speaks with a working Deepgram voice. With a backup
 * recogniser the caller's turn is still heard and answered; without one the call says its goodbye
 * and ends as `transcriber_error`. Either way the caller never hears more than 4 s of silence after
 * their turn, measured on the wire.
 */

const world = useChaosWorld();

function report(name: string, gap: { ms: number }, log: { end_reason: string | null; events: unknown[] }) {
  const faults = faultEvents(log as Parameters<typeof faultEvents>[0]);
  console.info(
    `[chaos stt] ${name}: longest gap ${Math.round(gap.ms)} ms, ${log.end_reason}, ${JSON.stringify(faults)}`,
  );
}

/** One call with a backup recogniser: greeting, the caller's line, the answer; the longest silence after the turn and the log. */
async function callWithBackup(fault: SttFault) {
  const { token, agentId } = await chaosAssistant(world, { stt: fault, fallbacks: { stt: [CLOUD_STT] } });
  const caller = await callInBrowser(world.app, token, agentId);
  await greetingHeard(caller.ear);
  const turnEnded = await caller.say(CALLER_LINE);
  const settled = await heardUntilSettled(caller.ear, turnEnded, "the answer");
  const gap = caller.ear.longestGap(turnEnded, settled);
  await caller.hangUp();
  const log = await closedCallLog(world.app, token, caller.callId);
  return { gap, log, caller };
}

/** One call without a backup: the caller speaks (when the call lets them) and the call hangs up on its own. */
async function callWithoutBackup(fault: SttFault) {
  const { token, agentId } = await chaosAssistant(world, { stt: fault });
  const caller = await callInBrowser(world.app, token, agentId);
  const joined = performance.now();
  let from = joined;
  if (fault.type !== "refuse" && fault.type !== "unauthorized") {
    await greetingHeard(caller.ear);
    from = await caller.say(CALLER_LINE);
  }
  await caller.closed;
  const last = caller.ear.sounds.at(-1);
  const gap = caller.ear.longestGap(from, last?.to ?? performance.now());
  const log = await closedCallLog(world.app, token, caller.callId);
  return { gap, log, caller, from };
}

describe.concurrent("a failing transcriber with a backup recogniser", () => {
  it("refused at open: the backup hears the caller, the call ends as fallback_used", async () => {
    const { gap, log, caller } = await callWithBackup({ type: "refuse" });
    report("refused, backup", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", kind: "unreachable", action: "fallback" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
    expect(log.transcript.map((l) => l.role)).toEqual(["assistant", "user", "assistant"]);
    expect(caller.faults()).toContainEqual(expect.objectContaining({ stage: "stt", action: "fallback" }));
  }, 120_000);

  it("401 on the upgrade: the backup takes over at once, the call ends as fallback_used", async () => {
    const { gap, log } = await callWithBackup({ type: "unauthorized" });
    report("401, backup", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", kind: "rejected", action: "fallback" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
  }, 120_000);

  it("dropped mid-utterance and gone: the backup hears the rest, the call ends as fallback_used", async () => {
    const fault: SttFault = { type: "drop", afterSpeechMessages: 40, afterwards: "down" };
    const { gap, log } = await callWithBackup(fault);
    report("dropped, backup", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", action: "fallback" });
    expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
    expect(log.transcript.map((l) => l.role)).toEqual(["assistant", "user", "assistant"]);
  }, 120_000);

  it("silent (takes audio, never answers): the caller hears the recovery line, the call names the fault", async () => {
    const { gap, log } = await callWithBackup({ type: "silent" });
    report("silent, backup", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", kind: "silent" });
    expect(["fallback_used", "transcriber_error"]).toContain(log.end_reason);
  }, 120_000);
});

describe.concurrent("a failing transcriber with no backup", () => {
  it("refused at open: the caller hears the goodbye, the call ends as transcriber_error", async () => {
    const { gap, log } = await callWithoutBackup({ type: "refuse" });
    report("refused, no backup", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", kind: "unreachable", action: "gave_up" });
    expect(log).toMatchObject({ status: "failed", end_reason: "transcriber_error" });
  }, 120_000);

  it("dropped mid-utterance and gone: the caller hears the goodbye, the call ends as transcriber_error", async () => {
    const { gap, log } = await callWithoutBackup({ type: "drop", afterSpeechMessages: 40, afterwards: "down" });
    report("dropped, no backup", gap, log);
    expect(gap.ms).toBeLessThanOrEqual(MAX_GAP_MS);
    expectFault(log, { stage: "stt", provider: "deepgram", action: "gave_up" });
    expect(log).toMatchObject({ status: "failed", end_reason: "transcriber_error" });
  }, 120_000);
});
