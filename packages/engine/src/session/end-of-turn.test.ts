import { describe, expect, it } from "vitest";
import { CallHarness, type CallHarnessOptions } from "../../testing/call-harness.ts";
import { noise, silence } from "../../testing/signals.ts";
import { ruleFor } from "./end-of-turn.ts";

/** A caller-first call with instant providers on the virtual clock. */
async function callerFirst(options: CallHarnessOptions = {}): Promise<CallHarness> {
  const call = new CallHarness({ ...options, assistant: { first_speaker: "user", ...options.assistant } });
  await call.start();
  return call;
}

/**
 * The caller speaks for `ms`, then stays silent for up to `silentMs` (20 ms at a time); returns
 * how long after the end of their speech the first assistant audio came out, or null.
 */
/** The harness hands each frame in as its 20 ms begin, so a measured wait may read one frame short. */
const FRAME = 20;

async function speakThenListen(call: CallHarness, ms: number, silentMs: number): Promise<number | null> {
  await call.feed(noise(ms, 16_000, 0.3, call.events.length + 1));
  const endedAt = call.clock.now();
  for (let waited = 0; waited < silentMs; waited += 20) {
    await call.feed(silence(20));
    if (call.speaking()) return call.clock.now() - endedAt;
  }
  return null;
}

const userLines = (call: CallHarness) => call.transcript().filter((line) => line.startsWith("user: "));
const metrics = (call: CallHarness) => call.of("turn_metrics").map((e) => e.metrics);

/**
 * The caller says `heard` for 600 ms and goes quiet: the answer starts `waitMs` later (no more than a
 * frame early, less than 200 ms late), and the turn's metrics name `rule` as what ended it.
 */
async function expectAnswerAfterRule(heard: string, waitMs: number, rule: string): Promise<void> {
  const call = await callerFirst({ heard: [heard] });
  const answered = await speakThenListen(call, 600, 3000);
  expect(answered).toBeGreaterThanOrEqual(waitMs - FRAME);
  expect(answered).toBeLessThan(waitMs + 200);
  expect(metrics(call)[0]).toMatchObject({ endOfTurnRule: rule });
  await call.session.hangup("caller_hangup");
}

describe("end of turn", () => {
  it("answers a finished sentence within 300 ms of the end of speech, and says which rule ended it", async () => {
    const call = await callerFirst({ heard: ["I'd like to book a table.", "For two people, please."] });
    const first = await speakThenListen(call, 800, 2000);
    await call.untilListening();
    const second = await speakThenListen(call, 600, 2000);
    expect(first).not.toBeNull();
    expect(first).toBeLessThanOrEqual(300);
    expect(second).toBeLessThanOrEqual(300);
    const [m] = metrics(call);
    expect(m).toMatchObject({ endOfTurnRule: "punctuation" });
    // Voice-to-voice counts from the end of speech, the detector's pause and the rule's wait included.
    expect(m?.voiceToVoiceMs).toBeGreaterThanOrEqual(200);
    expect(m?.voiceToVoiceMs).toBeLessThanOrEqual(300);
    await call.session.hangup("caller_hangup");
  });

  it("does not cut off a caller who pauses mid-sentence for 400 ms", async () => {
    const call = await callerFirst({ heard: ["I'd like to book a table for", "two people tonight."] });
    expect(await speakThenListen(call, 800, 400)).toBeNull();
    const answered = await speakThenListen(call, 600, 2000);
    expect(answered).toBeLessThanOrEqual(300);
    expect(userLines(call)).toEqual(["user: I'd like to book a table for two people tonight."]);
    expect(call.llm.requests).toHaveLength(1);
    await call.session.hangup("caller_hangup");
  });

  it("waits the no-punctuation time for a phrase left open", async () => {
    await expectAnswerAfterRule("so I was wondering", 1500, "no_punctuation");
  });

  it("waits the number time when the caller ends on digits being read out", async () => {
    await expectAnswerAfterRule("my number is 555 0123.", 500, "number");
  });

  it("ends at once on the recogniser's own end-of-turn event, unless the assistant turns that off", async () => {
    for (const vendorEvents of [true, false]) {
      const call = await callerFirst({
        heard: ["so I was thinking"],
        assistant: { end_of_turn_vendor_events: vendorEvents },
      });
      await call.feed(noise(600));
      await call.feed(silence(300));
      call.stt.emit({ type: "utterance_end", endOfTurn: true });
      await call.feed(silence(200));
      expect(call.llm.requests.length).toBe(vendorEvents ? 1 : 0);
      await call.feed(silence(1600));
      expect(call.llm.requests).toHaveLength(1);
      expect(metrics(call)[0]?.endOfTurnRule).toBe(vendorEvents ? "vendor" : "no_punctuation");
      await call.session.hangup("caller_hangup");
    }
  });

  it("follows the assistant's own waits", async () => {
    const call = await callerFirst({ heard: ["Hello there."], assistant: { end_of_turn_punctuation_ms: 900 } });
    const answered = await speakThenListen(call, 600, 2000);
    expect(answered).toBeGreaterThanOrEqual(900 - FRAME);
    expect(answered).toBeLessThan(1100);
    await call.session.hangup("caller_hangup");
  });
});

describe("end-of-turn rules", () => {
  it("reads a finished sentence, an open phrase, a number, and a recogniser without punctuation", () => {
    expect(ruleFor("Can you help me?", true)).toBe("punctuation");
    expect(ruleFor("I need it by Friday!", true)).toBe("punctuation");
    expect(ruleFor("I was going to say,", true)).toBe("no_punctuation");
    expect(ruleFor("book a table for", true)).toBe("no_punctuation");
    expect(ruleFor("it's 4 5 6.", true)).toBe("number");
    expect(ruleFor("room twenty", true)).toBe("number");
    expect(ruleFor("book a table for", false)).toBe("silence");
    expect(ruleFor("my pin is one two", false)).toBe("number");
  });
});
