// Telephony benchmark (issue 12): N simultaneous phone calls over Twilio-style media streams, end to
// end through the server's voice webhook, stream WebSocket and engine, against the local Twilio
// double (8 kHz μ-law JSON frames in and out, marks, real-time playout). The providers are the
// offline ones with a local scripted model, and the callers only press keys (each press is a turn
// through the DTMF mapping): no speech recogniser runs, so what is measured is the phone path and
// the engine, not a recogniser. Prints CPU per call (calls per core) and memory per call. The
// double runs in this process too, so the CPU figure includes the far end: a conservative figure.
import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import { isNonSilent } from "@parley/engine/testing/telephony/audio-checks";
import type { PhoneLeg } from "@parley/engine/testing/telephony/phone-leg";
import { startTwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { call } from "../apps/server/test/harness.ts";
import { finishedLog, startBridgeWorld } from "../apps/server/test/support/telephony-bridge.ts";
import type { BenchResult } from "./run.ts";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const LEVELS = process.env.TELEPHONY_BENCH_LEVELS
  ? process.env.TELEPHONY_BENCH_LEVELS.split(",").map(Number)
  : [10, 25, 50];
const LEVEL_SECONDS = Number(process.env.TELEPHONY_BENCH_SECONDS ?? 15);
/** Each caller presses a key this often: one assistant turn per call per period. */
const KEY_EVERY_MS = 5_000;
const NUMBER = "+14155550100";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function memoryMb(): number {
  gc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / 1024 / 1024;
}

async function until(check: () => boolean, what: string, detail: () => string, timeoutMs = 120_000) {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`telephony bench: timed out waiting for ${what} (${detail()})`);
    await sleep(20);
  }
}

export async function run(): Promise<BenchResult> {
  const sid = `AC${randomBytes(16).toString("hex")}`;
  const token = randomBytes(16).toString("hex");
  const double = await startTwilioDouble({ accounts: [{ sid, token, numbers: [NUMBER] }] });
  const world = await startBridgeWorld({
    provider: "twilio",
    credentials: (origin) => ({ account_sid: sid, auth_token: token, base_url: origin }),
    doubleOrigin: double.origin,
    number: NUMBER,
    assistant: {
      first_message: "Hello, thanks for calling. How can I help?",
      max_call_duration: 3600,
      timeout_seconds: 600,
      audio_recording: false,
      dtmf_mapping: { "1": "What are your opening hours?" },
    },
  });
  const rows: Record<string, string | number>[] = [];
  try {
    await call(world.t, "PATCH", `/api/v1/workspaces/${world.workspaceId}`, {
      token: world.token,
      body: { concurrency_limit: Math.max(...LEVELS) + 5 },
    });
    let best = { n: 0, cpuMsPerCallSecond: Number.NaN, mbPerCall: Number.NaN };
    for (const n of LEVELS) {
      const row = await level(n);
      rows.push(row);
      if (row.calls_up === n) best = { n, cpuMsPerCallSecond: row.cpu_ms_per_call_second, mbPerCall: row.mb_per_call };
    }
    rows.push({
      measure: "summary",
      calls_per_core: Math.floor(1000 / best.cpuMsPerCallSecond),
      mb_per_call: best.mbPerCall,
      at_level: best.n,
      note: "8 kHz μ-law in and out, local providers, the double in the same process",
    });
  } finally {
    await world.close();
    await double.close();
  }
  return { name: "telephony", rows };

  async function level(n: number) {
    await sleep(2000);
    const memBefore = memoryMb();
    const rssBefore = process.memoryUsage().rss;
    const handles = await Promise.all(Array.from({ length: n }, () => double.ringInbound(NUMBER, "+14155559999")));
    const legs: PhoneLeg[] = await Promise.all(handles.map((h) => h.stream(60_000)));
    const heard = () => legs.filter((leg) => leg.receivedMs() >= 500).length;
    await until(
      () => heard() === n,
      "every call's first audio",
      () => `${heard()} of ${n} heard, ${handles.filter((h) => h.voice.status !== 200).length} refused`,
    );
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    const presses = setInterval(() => {
      for (const leg of legs) leg.pressKeys("1");
    }, KEY_EVERY_MS);
    await sleep(LEVEL_SECONDS * 1000);
    clearInterval(presses);
    const wall = performance.now() - start;
    const cpu = process.cpuUsage(cpuStart);
    const memDuring = memoryMb();
    const rssDuring = process.memoryUsage().rss;
    const up = legs.filter((leg) => !leg.closed && isNonSilent(leg.received())).length;
    const rooms = world.t.ctx.calls.rooms.all().map((room) => room.callId);
    await Promise.all(handles.map((h) => h.hangup()));
    await Promise.all(rooms.map((id) => finishedLog(world, id, 60_000)));
    const cpuMs = (cpu.user + cpu.system) / 1000;
    return {
      measure: `${n} simultaneous phone calls`,
      calls_up: up,
      cpu_cores_used: +(cpuMs / wall).toFixed(2),
      cpu_ms_per_call_second: +(cpuMs / n / (wall / 1000)).toFixed(2),
      mb_per_call: +((memDuring - memBefore) / n).toFixed(2),
      rss_mb_per_call: +((rssDuring - rssBefore) / 1024 / 1024 / n).toFixed(2),
    };
  }
}
