// End of caller speech → first assistant audio, per end-of-turn rule (issue 18 items 1 and 4), with
// instant providers, the real Silero VAD and the real clock. The caller's words are eSpeak speech;
// the recogniser double answers each pause with a line that ends the way the rule reads it.
import { performance } from "node:perf_hooks";
import {
  type CallEvent,
  callSettingsOf,
  concatPcm,
  createCallSession,
  ESPEAK_SAMPLE_RATE,
  EspeakTts,
  resample,
  SAMPLES_PER_FRAME,
} from "@parley/engine";
import { FakeTts, ScriptedLlm, ScriptedStt, testAssistant } from "@parley/engine/testing";
import type { BenchResult } from "./run.ts";

const TURNS = Number(process.env.END_OF_TURN_BENCH_TURNS ?? 12);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** A recogniser double that does not punctuate, like the local one. */
class UnpunctuatedStt extends ScriptedStt {
  readonly punctuates = false;
}

const RULES = [
  { rule: "punctuation", line: "I would like to book a table.", stt: ScriptedStt },
  { rule: "number", line: "my number is 555 0123", stt: ScriptedStt },
  { rule: "no_punctuation", line: "I would like to book a table", stt: ScriptedStt },
  { rule: "silence (no punctuation from the recogniser)", line: "i would like to book a table", stt: UnpunctuatedStt },
] as const;

async function callerUtterance(): Promise<Int16Array> {
  const tts = new EspeakTts({ model: "espeak-ng", voice: "en-us", speed: 1, sampleRate: 16_000 });
  const chunks: Int16Array[] = [];
  for await (const c of tts.synthesize("I would like to book a table.")) chunks.push(c.pcm);
  const pcm = resample(concatPcm(chunks), ESPEAK_SAMPLE_RATE, 16_000);
  // Up to the last voiced sample: the end of speech is where the words stop, not eSpeak's tail.
  let end = pcm.length;
  while (end > 0 && Math.abs(pcm[end - 1] ?? 0) < 300) end--;
  return pcm.subarray(0, end);
}

async function measureRule(entry: (typeof RULES)[number], utterance: Int16Array) {
  const events: CallEvent[] = [];
  let firstAudioAt: number | null = null;
  const session = createCallSession({
    settings: callSettingsOf(testAssistant({ first_speaker: "user", timeout_seconds: 600, max_call_duration: 3600 })),
    stt: new entry.stt(Array.from({ length: 1000 }, () => entry.line)),
    llm: new ScriptedLlm([], { fallback: "Sure, for what time?" }),
    tts: new FakeTts({ msPerWord: 50 }),
    sink: { onEvent: (e) => events.push(e) },
  });
  session.onAudio((pcm) => {
    if (firstAudioAt === null && pcm.some((s) => s !== 0)) firstAudioAt = performance.now();
  });
  await session.start();
  const measured: number[] = [];
  const silentFrame = new Int16Array(SAMPLES_PER_FRAME);
  for (let turn = 0; turn < TURNS; turn++) {
    // The words in real time, then silence in real time until the answer starts.
    const start = performance.now();
    for (let i = 0; i < utterance.length; i += SAMPLES_PER_FRAME) {
      const due = start + (i / SAMPLES_PER_FRAME) * 20;
      if (due > performance.now()) await sleep(due - performance.now());
      session.pushAudio(utterance.subarray(i, i + SAMPLES_PER_FRAME));
    }
    const endedAt = performance.now();
    firstAudioAt = null;
    for (let frame = 0; firstAudioAt === null && frame < 200; frame++) {
      await sleep(Math.max(0, endedAt + frame * 20 - performance.now()));
      session.pushAudio(silentFrame);
    }
    if (firstAudioAt !== null) measured.push((firstAudioAt as number) - endedAt);
    // Let the answer finish and the call go back to listening.
    for (let frame = 0; frame < 60; frame++) {
      await sleep(20);
      session.pushAudio(silentFrame);
    }
  }
  await session.hangup("caller_hangup");
  const metrics = events.flatMap((e) => (e.type === "turn_metrics" ? [e.metrics] : []));
  return {
    rule: entry.rule,
    turns: measured.length,
    end_of_speech_to_audio_p50_ms: +percentile(measured, 50).toFixed(1),
    end_of_speech_to_audio_p95_ms: +percentile(measured, 95).toFixed(1),
    logged_voice_to_voice_p50_ms: +percentile(
      metrics.map((m) => m.voiceToVoiceMs ?? Number.NaN),
      50,
    ).toFixed(1),
    rules_seen: [...new Set(metrics.map((m) => m.endOfTurnRule))].join(","),
  };
}

export async function run(): Promise<BenchResult> {
  const utterance = await callerUtterance();
  const rows: Record<string, string | number>[] = [];
  for (const entry of RULES) rows.push(await measureRule(entry, utterance));
  rows.push({ rule: "target", end_of_speech_to_audio_p50_ms: "punctuation <= 300" });
  return { name: "end-of-turn", rows };
}
