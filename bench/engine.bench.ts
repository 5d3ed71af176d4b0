// Voice engine benchmark, all local: the engine's own share of voice-to-voice latency with instant
// providers (real Silero VAD, real clock), how many simultaneous calls one process sustains
// before that share's p95 passes 50 ms, and memory per call. Caller audio is eSpeak speech, so
// Silero does real work on every 32 ms window of every call.
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import { ASSISTANT_DEFAULTS } from "@parley/contract";
import {
  type CallEvent,
  type CallSession,
  callSettingsOf,
  concatPcm,
  createCallSession,
  ESPEAK_SAMPLE_RATE,
  EspeakTts,
  RECORDING_BYTES_PER_SECOND,
  resample,
  SAMPLES_PER_FRAME,
} from "@parley/engine";
import { FakeTts, ScriptedLlm, ScriptedStt, silence, testAssistant } from "@parley/engine/testing";
import type { BenchResult } from "./run.ts";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const OVERHEAD_TURNS = 100;
const LEVEL_SECONDS = 10;
const LEVELS = process.env.ENGINE_BENCH_LEVELS
  ? process.env.ENGINE_BENCH_LEVELS.split(",").map(Number)
  : [10, 25, 50, 100, 150, 200, 300];
const P95_LIMIT_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function callerUtterance(): Promise<Int16Array> {
  const tts = new EspeakTts({ model: "espeak-ng", voice: "en-us", speed: 1, sampleRate: 16_000 });
  const chunks: Int16Array[] = [];
  for await (const c of tts.synthesize("Hello, I would like to book a table for two tonight.")) chunks.push(c.pcm);
  return resample(concatPcm(chunks), ESPEAK_SAMPLE_RATE, 16_000);
}

/** A call whose providers answer at once: whatever latency remains is the engine's. */
function instantCall(events: CallEvent[]): CallSession {
  return createCallSession({
    settings: callSettingsOf(testAssistant({ first_speaker: "user", timeout_seconds: 600, max_call_duration: 3600 })),
    stt: new ScriptedStt(Array.from({ length: 10_000 }, () => "I would like to book a table.")),
    llm: new ScriptedLlm([], { fallback: "Sure, for what time?" }),
    tts: new FakeTts({ msPerWord: 50 }),
    sink: { onEvent: (e) => events.push(e) },
  });
}

const overheads = (events: CallEvent[]) =>
  events.flatMap((e) =>
    e.type === "turn_metrics" && e.metrics.engineOverheadMs !== null ? [e.metrics.engineOverheadMs] : [],
  );

async function waitFor(done: () => boolean, limitMs: number): Promise<void> {
  const until = performance.now() + limitMs;
  while (!done()) {
    if (performance.now() > until) throw new Error("benchmark turn did not complete");
    await sleep(2);
  }
}

/** One call, turn after turn: the caller's whole utterance arrives, then we wait for the reply. */
async function measureOverhead(utterance: Int16Array) {
  const events: CallEvent[] = [];
  const call = instantCall(events);
  await call.start();
  const pause = silence(900);
  for (let turn = 1; turn <= OVERHEAD_TURNS; turn++) {
    // The words arrive at once (the detector catches up meanwhile); the pause that ends the turn
    // arrives in real time, so the end of speech is stamped when its last frame really came in.
    call.pushAudio(utterance);
    await sleep(400);
    await feedRealTime(call, pause);
    await waitFor(() => overheads(events).length >= turn, 10_000);
    await waitFor(() => isListening(events), 10_000);
  }
  await call.hangup("caller_hangup");
  const values = overheads(events);
  const v2v = events.flatMap((e) => (e.type === "turn_metrics" ? [e.metrics.voiceToVoiceMs ?? 0] : []));
  return {
    measure: "engine overhead, instant providers",
    turns: values.length,
    p50_ms: +percentile(values, 50).toFixed(2),
    p95_ms: +percentile(values, 95).toFixed(2),
    voice_to_voice_p50_ms: +percentile(v2v, 50).toFixed(2),
  };
}

async function feedRealTime(call: CallSession, pcm: Int16Array): Promise<void> {
  const start = performance.now();
  for (let i = 0; i < pcm.length; i += SAMPLES_PER_FRAME) {
    const due = start + (i / SAMPLES_PER_FRAME) * 20;
    if (due > performance.now()) await sleep(due - performance.now());
    call.pushAudio(pcm.subarray(i, i + SAMPLES_PER_FRAME));
  }
}

function isListening(events: CallEvent[]): boolean {
  const last = events.findLast((e) => e.type === "state");
  return last?.type === "state" && last.state === "listening";
}

function memoryMb(): number {
  gc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / 1024 / 1024;
}

/** `n` simultaneous calls fed real-time caller speech for LEVEL_SECONDS. */
async function loadLevel(n: number, utterance: Int16Array) {
  const script = concatPcm([utterance, silence(1500)]);
  await sleep(2000); // let the previous level's calls drain and be collected
  const memBefore = memoryMb();
  const rssBefore = process.memoryUsage().rss;
  const calls: { session: CallSession; events: CallEvent[]; pos: number }[] = [];
  for (let i = 0; i < n; i++) {
    const events: CallEvent[] = [];
    const session = instantCall(events);
    await session.start();
    const phase = Math.floor((i / n) * (script.length / SAMPLES_PER_FRAME)) * SAMPLES_PER_FRAME;
    calls.push({ session, events, pos: phase });
  }
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  let sent = 0;
  const ticker = setInterval(() => {
    const due = Math.floor((performance.now() - start) / 20) - sent;
    for (let k = 0; k < due; k++, sent++) {
      for (const c of calls) {
        c.session.pushAudio(script.subarray(c.pos, c.pos + SAMPLES_PER_FRAME));
        c.pos = (c.pos + SAMPLES_PER_FRAME) % script.length;
      }
    }
  }, 20);
  await sleep(LEVEL_SECONDS * 1000);
  clearInterval(ticker);
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  const memDuring = memoryMb();
  const rssDuring = process.memoryUsage().rss;
  const values = calls.flatMap((c) => overheads(c.events));
  await Promise.all(calls.map((c) => c.session.hangup("caller_hangup")));
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return {
    measure: `${n} simultaneous calls`,
    turns: values.length,
    p50_ms: +percentile(values, 50).toFixed(2),
    p95_ms: +percentile(values, 95).toFixed(2),
    cpu_cores_used: +(cpuMs / wall).toFixed(2),
    cpu_ms_per_call_second: +(cpuMs / n / (wall / 1000)).toFixed(2),
    mb_per_call: +((memDuring - memBefore) / n).toFixed(2),
    rss_mb_per_call: +((rssDuring - rssBefore) / 1024 / 1024 / n).toFixed(2),
  };
}

export async function run(): Promise<BenchResult> {
  const utterance = await callerUtterance();
  const rows: Record<string, string | number>[] = [await measureOverhead(utterance)];
  let sustained = 0;
  let cpuPerCall = Number.NaN;
  let mbPerCall = Number.NaN;
  for (const n of LEVELS) {
    const row = await loadLevel(n, utterance);
    rows.push(row);
    if (row.p95_ms > P95_LIMIT_MS) break;
    sustained = n;
    cpuPerCall = row.cpu_ms_per_call_second;
    mbPerCall = row.mb_per_call;
  }
  rows.push({
    measure: "summary",
    calls_sustained_p95_under_50ms: sustained,
    // One core is 1000 ms of CPU per second; the highest sustained level's cost per call sets the figure.
    calls_per_core: Math.floor(1000 / cpuPerCall),
    mb_per_call: mbPerCall,
    // The recording grows with the call: add what a call of the default maximum length holds.
    mb_per_recorded_call_at_max_duration: +(
      mbPerCall +
      (RECORDING_BYTES_PER_SECOND * ASSISTANT_DEFAULTS.max_call_duration) / 1024 / 1024
    ).toFixed(2),
    targets: "overhead p50 <= 10 ms, >= 100 calls/core, <= 8 MB/call",
  });
  return { name: "engine", rows };
}
