import { describe, expect, it } from "vitest";
import { CallHarness, type CallHarnessOptions } from "../../testing/call-harness.ts";
import type { FakeTts } from "../../testing/fake-providers.ts";
import { noise, silence } from "../../testing/signals.ts";
import { rms } from "../audio/pcm.ts";
import type { TtsProvider } from "../providers/types.ts";
import type { TurnMetrics } from "./types.ts";

/**
 * Voice-to-voice is what the caller waited, whichever end-of-turn rule ended the turn: from the end
 * of their last voiced audio to the first assistant frame they can hear, as it goes out. The voice
 * here leads each sentence with 300 ms of silence (as real voices do) and the model takes 40 ms a
 * word, so neither the start of the playout nor the commit of the turn can pass for the answer.
 */

const LEAD_MS = 300;
const RATE = 24_000;
/** The harness hands each frame in as its 20 ms begin: a figure may differ by one frame. */
const FRAME = 20;

function withLeadingSilence(fake: FakeTts): TtsProvider {
  return {
    id: fake.id,
    model: fake.model,
    voice: fake.voice,
    async *synthesize(text, options) {
      yield { pcm: new Int16Array((LEAD_MS / 1000) * RATE), sampleRate: RATE };
      yield* fake.synthesize(text, options);
    },
  };
}

interface Measured {
  metrics: TurnMetrics;
  /** End of the caller's speech → first audible assistant frame, on the harness clock. */
  waitedMs: number;
}

/**
 * A caller-first call: `speak` runs the caller's part and returns when their speech ended; the clock
 * then runs until the first audible answer, and the turn's figures are compared with that wait.
 */
async function measure(
  options: CallHarnessOptions,
  speak: (call: CallHarness) => Promise<number>,
  prepare: (call: CallHarness) => void = () => {},
): Promise<Measured> {
  const call = new CallHarness({
    llmTokenDelayMs: 40,
    ...options,
    assistant: { first_speaker: "user", ...options.assistant },
    wrapTts: withLeadingSilence,
  });
  prepare(call);
  let heardAt: number | null = null;
  call.session.onAudio((pcm) => {
    if (heardAt === null && rms(pcm) >= 300) heardAt = call.clock.now();
  });
  await call.start();
  const speechEndedAt = await speak(call);
  // The caller stays silent (the line carries silence) until the answer is heard and measured.
  for (let waited = 0; waited < 20_000; waited += 20) {
    if (heardAt !== null && call.of("turn_metrics").length > 0) break;
    await call.feed(silence(20));
  }
  const metrics = call.of("turn_metrics")[0]?.metrics;
  await call.session.hangup("caller_hangup");
  if (!metrics || heardAt === null) throw new Error("the turn was never answered");
  return { metrics, waitedMs: heardAt - speechEndedAt };
}

/** The caller speaks for 600 ms, then is silent for `silentMs`; returns when their speech ended. */
async function speakThenSilence(call: CallHarness, silentMs = 0): Promise<number> {
  await call.feed(noise(600, 16_000, 0.3, 7));
  const endedAt = call.clock.now();
  if (silentMs > 0) await call.feed(silence(silentMs));
  return endedAt;
}

function expectHonest({ metrics, waitedMs }: Measured, rule: string): void {
  expect(metrics.endOfTurnRule).toBe(rule);
  expect(metrics.voiceToVoiceMs).not.toBeNull();
  expect(Math.abs((metrics.voiceToVoiceMs ?? 0) - waitedMs)).toBeLessThanOrEqual(FRAME);
  // The parts shown beside it never claim more than the whole (the model's share is the rest).
  const parts =
    (metrics.sttMs ?? 0) + (metrics.endOfTurnWaitMs ?? 0) + (metrics.ttsTtfbMs ?? 0) + (metrics.engineOverheadMs ?? 0);
  expect(parts).toBeLessThanOrEqual((metrics.voiceToVoiceMs ?? 0) + 1);
}

describe("voice-to-voice spans last caller speech → first audible answer", () => {
  it("for the punctuation rule", async () => {
    expectHonest(
      await measure({ heard: ["I'd like to book a table."] }, (call) => speakThenSilence(call)),
      "punctuation",
    );
  });

  it("for the open-phrase rule", async () => {
    expectHonest(await measure({ heard: ["so I was wondering"] }, (call) => speakThenSilence(call)), "no_punctuation");
  });

  it("for the number rule", async () => {
    expectHonest(await measure({ heard: ["my number is 555 0123."] }, (call) => speakThenSilence(call)), "number");
  });

  it("for the silence rule (a recogniser without punctuation)", async () => {
    const measured = await measure(
      { heard: ["book a table please"] },
      (call) => speakThenSilence(call),
      (call) => Object.assign(call.stt, { punctuates: false }),
    );
    expectHonest(measured, "silence");
  });

  it("for the recogniser's own end-of-turn event", async () => {
    const measured = await measure({ heard: ["so I was thinking"] }, async (call) => {
      const endedAt = await speakThenSilence(call, 300);
      call.stt.emit({ type: "utterance_end", endOfTurn: true });
      return endedAt;
    });
    expectHonest(measured, "vendor");
  });

  it("for the timeout rule: the words came after the final wait, the caller waited from their speech", async () => {
    const measured = await measure({ heard: [] }, async (call) => {
      // The recogniser answers 2.6 s after the pause, past the 2 s final wait.
      const endedAt = await speakThenSilence(call, 2600);
      call.stt.emit({ type: "final", text: "book a table for two" });
      return endedAt;
    });
    expectHonest(measured, "timeout");
    expect(measured.waitedMs).toBeGreaterThan(2600);
    // Recognition is the share that took the time, not the engine.
    expect(measured.metrics.sttMs).toBeGreaterThanOrEqual(2600 - FRAME);
  });
});
