import { describe, expect, it } from "vitest";
import { FakeTts } from "../../testing/fake-providers.ts";
import { VirtualClock } from "../../testing/virtual-clock.ts";
import { systemClock } from "../clock/system-clock.ts";
import { SAMPLES_PER_FRAME } from "../constants.ts";
import type { AudioChunk } from "../providers/types.ts";
import { createLine, createLineMeter } from "./line.ts";
import {
  ASSISTANT_DONE_SILENCE_MS,
  createSimulatedCaller,
  DTMF_GAP_MS,
  DTMF_TO_SPEECH_MS,
  REPLY_TIMEOUT_MS,
  SILENT_TURN_TIMEOUT_MS,
} from "./simulated-caller.ts";
import { startCall } from "./test-support/run-call.ts";

/** Times on the caller's own 20 ms frame clock land within a frame of the rule. */
const FRAME = 20;

describe("a scripted caller", () => {
  it("takes each turn once the assistant's reply has been heard to its end and the line's wait has passed", async () => {
    const call = startCall({
      plan: {
        script: [
          { text: "I would like a table", wait_ms: 400 },
          { text: "for two please", wait_ms: 250 },
        ],
      },
      assistant: { greetingMs: 1000, replyMs: 1200, replyDelayMs: 500 },
    });
    const report = await call.finish();
    const [greeting, reply1, reply2] = call.assistant.assistantBursts();
    const [turn1, turn2] = report.turns;
    expect(report.end).toBe("finished");
    expect(report.error).toBeNull();
    expect(turn1?.startedAtMs).toBeCloseTo((greeting?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS + 400, -1.5);
    expect(turn2?.startedAtMs).toBeCloseTo((reply1?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS + 250, -1.5);
    expect(report.turns.map((t) => [t.text, t.interrupted, t.silent])).toEqual([
      ["I would like a table", false, false],
      ["for two please", false, false],
    ]);
    // The caller's speech as the assistant received it matches the record.
    const [speech1, speech2] = call.assistant.callerBursts();
    expect(speech1?.end).toBe(turn1?.speechEndedAtMs);
    expect(speech2?.end).toBe(turn2?.speechEndedAtMs);
    // After the last line, the caller hears the reply out and hangs up.
    expect(call.assistant.hungUpAt).toBeCloseTo((reply2?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS, -1.5);
  });

  it("starts at once, after the line's wait, when the assistant waits for the caller", async () => {
    const call = startCall({ plan: { script: [{ text: "hello", wait_ms: 500 }] }, assistant: { greetingMs: 0 } });
    const report = await call.finish();
    expect(report.turns[0]?.startedAtMs).toBeCloseTo(500, -1.5);
  });

  it("interrupts the greeting interrupt_after_ms after it became audible", async () => {
    const call = startCall({
      plan: {
        script: [{ text: "sorry to cut in", wait_ms: 400 }],
        behaviours: { interrupts_greeting: true, interrupt_after_ms: 800 },
      },
      assistant: { greetingMs: 4000, bargeIn: true },
    });
    const report = await call.finish();
    const greeting = call.assistant.assistantBursts()[0];
    const turn = report.turns[0];
    expect(turn?.interrupted).toBe(true);
    // The contract's interrupt_after_ms: how far into the assistant's speech the turn starts (no wait_ms).
    expect(turn?.startedAtMs).toBeCloseTo((greeting?.start ?? 0) + 800, -1.5);
    // The assistant was still talking when the caller's voice reached it, and stopped for it.
    const speech = call.assistant.callerBursts()[0];
    expect(speech?.start).toBeLessThanOrEqual(greeting?.end ?? 0);
    expect(greeting?.end).toBeLessThan(4000);
    expect(report.end).toBe("finished");
  });

  it("speaks over the reply on a speaks_over turn", async () => {
    const call = startCall({
      plan: {
        script: [
          { text: "what are your hours", wait_ms: 400 },
          { text: "and on sunday", wait_ms: 400 },
        ],
        behaviours: { speaks_over_turns: [2], interrupt_after_ms: 500 },
      },
      assistant: { greetingMs: 600, replyMs: 3000 },
    });
    const report = await call.finish();
    const reply1 = call.assistant.assistantBursts()[1];
    const turn2 = report.turns[1];
    expect(turn2?.interrupted).toBe(true);
    expect(turn2?.startedAtMs).toBeCloseTo((reply1?.start ?? 0) + 500, -1.5);
    expect(call.assistant.callerBursts()[1]?.start).toBeLessThan(reply1?.end ?? 0);
    expect(report.turns[0]?.interrupted).toBe(false);
  });

  it("presses a turn's keys in order, spaced like a person, before speaking", async () => {
    const call = startCall({
      plan: {
        script: [
          { text: "billing please", wait_ms: 300 },
          { text: "", wait_ms: 300 },
        ],
        behaviours: {
          dtmf: [
            { turn: 1, digits: "12#" },
            { turn: 2, digits: "9" },
          ],
        },
      },
      assistant: { greetingMs: 600, repliesToDtmf: true },
    });
    const report = await call.finish();
    const digits = call.assistant.digits;
    expect(digits.map((d) => d.digit)).toEqual(["1", "2", "#", "9"]);
    const [first, second, third] = digits.map((d) => d.at);
    expect((second ?? 0) - (first ?? 0)).toBeCloseTo(DTMF_GAP_MS, -1.5);
    expect((third ?? 0) - (second ?? 0)).toBeCloseTo(DTMF_GAP_MS, -1.5);
    expect((call.assistant.callerBursts()[0]?.start ?? 0) - (third ?? 0)).toBeCloseTo(DTMF_TO_SPEECH_MS, -1.5);
    // A keys-only turn: pressed, nothing said, and the assistant's answer to the key is awaited.
    expect(report.turns.map((t) => [t.dtmf, t.text, t.silent, t.speechEndedAtMs === null])).toEqual([
      ["12#", "billing please", false, false],
      ["9", "", false, true],
    ]);
    // The greeting, the reply to the first turn (its keys' answer cut short by the words), the answer to "9".
    expect(call.assistant.assistantBursts()).toHaveLength(3);
  });

  it("pauses mid-sentence: two bursts of speech split at the middle word, with the pause between", async () => {
    const tts = new FakeTts({ msPerWord: 200 });
    const call = startCall({
      plan: { script: [{ text: "my order number is", wait_ms: 400 }], behaviours: { pause_mid_sentence_ms: 700 } },
      assistant: { greetingMs: 600, endOfTurnMs: 1500 },
      tts,
    });
    await call.finish();
    expect(tts.texts).toEqual(["my order", "number is"]);
    const [first, second] = call.assistant.callerBursts();
    expect(call.assistant.callerBursts()).toHaveLength(2);
    // The gap between the last frame of one half and the first of the other is the pause (plus the frame).
    expect((second?.start ?? 0) - (first?.end ?? 0)).toBeCloseTo(700 + FRAME, -1.5);
  });

  it("stays silent on a silent turn until the assistant has spoken and finished, then goes on", async () => {
    const call = startCall({
      plan: {
        script: [
          { text: "hello", wait_ms: 300 },
          { text: "", wait_ms: 300 },
          { text: "still here", wait_ms: 300 },
        ],
        behaviours: { silent_turns: [2] },
      },
      assistant: { greetingMs: 600, replyMs: 800, silencePromptAfterMs: 4000 },
    });
    const report = await call.finish();
    const [, reply1, prompt] = call.assistant.assistantBursts();
    const [, silent, after] = report.turns;
    expect(silent).toMatchObject({ silent: true, text: "", dtmf: "", speechEndedAtMs: null });
    expect(silent?.startedAtMs).toBeCloseTo((reply1?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS + 300, -1.5);
    // The assistant's silence prompt is what the caller waited for.
    expect(prompt?.start).toBeGreaterThanOrEqual((reply1?.end ?? 0) + 4000);
    expect(after?.startedAtMs).toBeCloseTo((prompt?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS + 300, -1.5);
    expect(call.assistant.callerBursts()).toHaveLength(2);
  });

  it("goes on without an answer: after a silent turn in 30 s, after a spoken one in 15 s", async () => {
    const call = startCall({
      plan: {
        script: [
          { text: "", wait_ms: 0 },
          { text: "hello", wait_ms: 0 },
        ],
      },
      assistant: { greetingMs: 0, replyMs: 0 },
    });
    const report = await call.finish();
    expect(report.turns[0]?.silent).toBe(true);
    expect(report.turns[1]?.startedAtMs).toBeCloseTo(SILENT_TURN_TIMEOUT_MS, -1.5);
    expect(call.assistant.hungUpAt).toBeCloseTo((report.turns[1]?.speechEndedAtMs ?? 0) + REPLY_TIMEOUT_MS, -1.5);
    expect(report.end).toBe("finished");
  });

  it("keeps its timing behind a lossy, noisy phone line, and the meter sees the waits", async () => {
    const clock = new VirtualClock();
    const line = createLine({ profile: "phone", noiseDbfs: -60, packetLossPercent: 10, seed: "result-7" });
    const meter = createLineMeter(clock);
    const call = startCall({
      plan: {
        script: [
          { text: "I would like a table", wait_ms: 400 },
          { text: "for two please", wait_ms: 400 },
        ],
      },
      assistant: { greetingMs: 1000, replyMs: 1200, replyDelayMs: 500 },
      clock,
      line: { line, meter },
    });
    const report = await call.finish();
    const [greeting, reply1] = call.assistant.assistantBursts();
    expect(report.end).toBe("finished");
    // A lost packet at the end of a burst moves what the caller heard by a frame or two.
    expect(
      Math.abs((report.turns[0]?.startedAtMs ?? 0) - ((greeting?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS + 400)),
    ).toBeLessThanOrEqual(60);
    expect(
      Math.abs((report.turns[1]?.startedAtMs ?? 0) - ((reply1?.end ?? 0) + ASSISTANT_DONE_SILENCE_MS + 400)),
    ).toBeLessThanOrEqual(60);
    const { waitsMs, longestSilenceMs } = meter.report();
    expect(waitsMs).toHaveLength(2);
    for (const wait of waitsMs) expect(wait).toBeGreaterThanOrEqual(480);
    for (const wait of waitsMs) expect(wait).toBeLessThanOrEqual(600);
    expect(longestSilenceMs).toBeGreaterThanOrEqual(ASSISTANT_DONE_SILENCE_MS + 400 - 60);
  });

  it("times the greeting and its turns from start() on a clock that did not start at zero", async () => {
    const clock = new VirtualClock();
    await clock.advance(100_000);
    const call = startCall({ assistant: { greetingMs: 1000 }, clock });
    const report = await call.finish();
    const greeting = call.assistant.assistantBursts()[0];
    expect(report.turns[0]?.startedAtMs).toBeCloseTo(
      (greeting?.end ?? 0) - 100_000 + ASSISTANT_DONE_SILENCE_MS + 400,
      -1.5,
    );
  });

  it("fails, hanging up, when its voice fails, with the secret redacted", async () => {
    class BrokenVoice extends FakeTts {
      override synthesize(): AsyncIterable<AudioChunk> {
        throw new Error("401 from the voice: Bearer sk-live-abcdefghijklmnopqrstuvwxyz");
      }
    }
    const call = startCall({ tts: new BrokenVoice(), assistant: { greetingMs: 600 } });
    const report = await call.finish();
    expect(report.end).toBe("failed");
    expect(report.error).toContain("The caller's voice failed");
    expect(report.error).not.toContain("abcdefghijklmnop");
    expect(call.assistant.hungUpAt).not.toBeNull();
  });

  it("stops mid-line when the call ends under it, and sends nothing after", async () => {
    const call = startCall({
      plan: { script: [{ text: "this is a rather long line that takes a while to say", wait_ms: 0 }] },
      assistant: { greetingMs: 0 },
    });
    await call.clock.until(() => call.assistant.callerFrames.some((f) => f.audible));
    call.caller.stop();
    const frames = call.assistant.callerFrames.length;
    const report = await call.finish();
    await call.clock.advance(2000);
    expect(report.end).toBe("stopped");
    expect(call.assistant.callerFrames.length).toBe(frames);
    expect(call.assistant.hungUpAt).toBeNull();
    // Stopping again, or late audio and words, change nothing.
    call.caller.stop();
    call.caller.hearAudio(new Int16Array(SAMPLES_PER_FRAME));
    call.caller.hearWords("anything");
    expect(await call.caller.done).toBe(report);
  });
});

describe("the caller's audio stream", () => {
  it("sends one 20 ms frame per 20 ms, catching up when its timer fires late", async () => {
    const virtual = new VirtualClock();
    // Every timer fires 50 ms late, as on a busy machine.
    const late = { ...bind(virtual), setTimeout: (fn: () => void, ms: number) => virtual.setTimeout(fn, ms + 50) };
    const caller = createSimulatedCaller({
      plan: {
        mode: "script",
        persona: "",
        script: [{ text: "hello", wait_ms: 0 }],
        maxTurns: 8,
        language: "en",
        behaviours: { ...defaults() },
      },
      tts: new FakeTts(),
      llm: null,
      assistantSpeaksFirst: true,
      clock: late,
    });
    const frames: Int16Array[] = [];
    caller.onAudio((pcm) => frames.push(pcm));
    caller.start();
    await virtual.advance(2000);
    caller.stop();
    expect(Math.abs(frames.length - 100)).toBeLessThanOrEqual(4);
    expect(frames.every((f) => f.length === SAMPLES_PER_FRAME)).toBe(true);
  });

  it("does not keep the process alive on the real clock", () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timers();
    const caller = createSimulatedCaller({
      plan: {
        mode: "script",
        persona: "",
        script: [{ text: "hi", wait_ms: 0 }],
        maxTurns: 1,
        language: "en",
        behaviours: defaults(),
      },
      tts: new FakeTts(),
      llm: null,
      assistantSpeaksFirst: true,
      clock: systemClock,
    });
    caller.start();
    expect(timers()).toBe(before);
    caller.stop();
  });
});

function bind(clock: VirtualClock) {
  return {
    now: () => clock.now(),
    setTimeout: (fn: () => void, ms: number) => clock.setTimeout(fn, ms),
    clearTimeout: (handle: unknown) => clock.clearTimeout(handle),
    setInterval: (fn: () => void, ms: number) => clock.setInterval(fn, ms),
    clearInterval: (handle: unknown) => clock.clearInterval(handle),
  };
}

function defaults() {
  return {
    interrupts_greeting: false,
    speaks_over_turns: [],
    interrupt_after_ms: 800,
    pause_mid_sentence_ms: null,
    dtmf: [],
    silent_turns: [],
  };
}
