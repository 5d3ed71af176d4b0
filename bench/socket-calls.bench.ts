// Per-call cost on the real socket path (issue 35 items 1 and 3): N simultaneous calls against one
// running Parley process, through the real sockets — browser calls over the realtime WebSocket and
// Twilio media streams after a signed voice webhook — with instant doubles for the recogniser, the
// model and the voice (cluster-instant-vendor.ts, a scripted OpenAI-compatible model), so what is
// measured is Parley's own work: VAD, end of turn, the call pipeline, pacing and the sockets.
//
// The callers run in a process of their own (callers.ts): their CPU is not the
// server's. The server's CPU is read from /proc/<pid>/stat over the stretch in which every call of
// the level is up (from the last call connecting to the first one finishing). Per level it reports
// server cores, core per call, calls per core, audio gaps the callers heard (> 100 ms without
// audio), unanswered turns and the end of speech → first audio wait on the caller's clock (p50/p95),
// beside the voice_to_voice_ms the call logs store.
//
// SOCKET_BENCH_KINDS=browser,twilio  SOCKET_BENCH_LEVELS=1,50,100,200  SOCKET_BENCH_TURNS=5
// SOCKET_BENCH_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops.
// SOCKET_BENCH_SERVER_ROOT=<checkout>: measure that checkout's server (a worktree of an older commit
// with its own node_modules/@parley links), interleaved with this one's, for before/after figures.
// Target (issue 35): ≥ 200 browser calls per core (≤ 0.005 core per call) with p95 ≤ 400 ms at 200
// calls; a Twilio-stream call costs ≤ 1.3× a browser call.
import { type ChildProcess, fork, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { CallLog } from "@parley/contract";
import { startTwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { freshPostgresDatabase } from "../apps/server/test/support/postgres-database.ts";
import { startScriptedLlm } from "../apps/server/test/support/scripted-llm.ts";
import { prepareBenchWorkspace, request } from "./bench-workspace.ts";
import type { CallersLoad, CallersMessage, CallKind, CallOutcome, LevelOrder } from "./callers.ts";
import type { BenchResult } from "./run.ts";
import { serverUp } from "./server-child.ts";

const list = (value: string | undefined, fallback: string) => (value ?? fallback).split(",").map((v) => v.trim());
const KINDS = list(process.env.SOCKET_BENCH_KINDS, "browser,twilio") as CallKind[];
const LEVELS = list(process.env.SOCKET_BENCH_LEVELS, "1,50,100,200").map(Number);
const TURNS = Number(process.env.SOCKET_BENCH_TURNS ?? 5);
const PROFILE_DIR = process.env.SOCKET_BENCH_PROFILE;
const NUMBER = "+14155550190";
const REPLY = "Sure, for what time?";
const ADMIN = { email: "socket-bench@example.com", password: "Socket-bench-password-1" };
/** The checkout whose server is measured (another worktree for an A/B against an older commit). */
const repo = path.resolve(process.env.SOCKET_BENCH_SERVER_ROOT ?? path.join(import.meta.dirname, ".."));
const preload = path.join(import.meta.dirname, "cluster-node-preload.ts");

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const round = (ms: number) => (Number.isFinite(ms) ? Math.round(ms) : "-");

/** CPU seconds (user + system) a process has used so far, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/**
 * One Parley process from source (the instant doubles are put in place by a resolve hook, which
 * cannot reach into dist/main.js where the vendor folders are bundled), as `npm start` runs it:
 * production mode, warn-level logging.
 */
async function startServer(databaseUrl: string) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profile = PROFILE_DIR ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(PROFILE_DIR)] : [];
  const child = spawn(process.execPath, [...profile, "--import", "tsx", "--import", preload, "src/main.ts"], {
    cwd: path.join(repo, "apps/server"),
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PARLEY_ADMIN_EMAIL: ADMIN.email,
      PARLEY_ADMIN_PASSWORD: ADMIN.password,
      PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: base,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "socket-bench-")),
      DATABASE_URL: databaseUrl,
      PARLEY_SECRET_KEY: "socket-bench-secret-key-socket-bench-secret-key",
      SIP_PORT: "off",
      DRAIN_TIMEOUT: "5s",
      // What a call costs is measured, not where admission control would start refusing calls.
      ADMISSION_CONTROL: "off",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { output } = await serverUp(child, `${base}/api/v1/health/ready`);
  const pid = child.pid;
  if (pid === undefined) throw new Error("the server has no pid");
  return {
    base,
    pid,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

interface LevelReport {
  outcomes: CallOutcome[];
  load: CallersLoad;
  /** Server CPU seconds and wall seconds over the stretch with every call up. */
  steadyCpu: number;
  steadyWall: number;
}

/** The callers' process; `level` also reads the server's CPU at "steady" and "winding". */
function startCallers(serverPid: () => number) {
  const child: ChildProcess = fork(path.join(import.meta.dirname, "callers.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the callers' process exited (${code})`)));
  });
  return {
    ready,
    level(order: LevelOrder): Promise<LevelReport> {
      const pid = serverPid();
      let from: { cpu: number; at: number } | null = null;
      let to: { cpu: number; at: number } | null = null;
      const reading = () => ({ cpu: cpuSeconds(pid), at: performance.now() });
      const whole = reading();
      return new Promise((resolve, reject) => {
        const onMessage = (message: CallersMessage) => {
          if (message.type === "ready") return;
          if (message.type === "steady") from = reading();
          else if (message.type === "winding") to = from ? reading() : null;
          else {
            child.off("message", onMessage);
            if (message.type === "failed") return reject(new Error(`the callers failed: ${message.message}`));
            // Without a steady stretch (a call that never connected), the whole level's figure.
            const start = to ? from : whole;
            const end = to ?? reading();
            if (!start) return reject(new Error("no CPU reading"));
            resolve({
              outcomes: message.outcomes,
              load: message.load,
              steadyCpu: end.cpu - start.cpu,
              steadyWall: (end.at - start.at) / 1000,
            });
          }
        };
        child.on("message", onMessage);
        child.send(order);
      });
    },
    close() {
      child.kill("SIGTERM");
    },
  };
}

/** The voice_to_voice_ms the call logs stored for a level's calls, once every log is closed. */
async function storedVoiceToVoice(base: string, token: string, outcomes: CallOutcome[]): Promise<number[]> {
  const values: number[] = [];
  for (const outcome of outcomes) {
    if (!outcome.callId) continue;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const log = CallLog.parse(await request(base, token, "GET", `/call-logs/${outcome.callId}`));
      if (log.status === "completed" || log.status === "failed") {
        for (const turn of log.turn_metrics) if (turn.voice_to_voice_ms !== null) values.push(turn.voice_to_voice_ms);
        break;
      }
      if (Date.now() > deadline) throw new Error(`call ${outcome.callId} was never closed (${log.status})`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return values;
}

export async function run(): Promise<BenchResult> {
  const llm = await startScriptedLlm(() => ({ text: REPLY }));
  const sid = `AC${randomBytes(16).toString("hex")}`;
  const twilioToken = randomBytes(16).toString("hex");
  const double = await startTwilioDouble({ accounts: [{ sid, token: twilioToken, numbers: [NUMBER] }] });
  const database = await freshPostgresDatabase("parley_socket_bench");
  const rows: Record<string, string | number>[] = [];
  /** Core per call at the highest clean level, per kind. */
  const perCall = new Map<CallKind, number>();
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  let callers: ReturnType<typeof startCallers> | null = null;
  let nextCaller = 0;
  try {
    server = await startServer(database.url);
    const running = server;
    const { token, agentId } = await prepareBenchWorkspace(running.base, {
      admin: ADMIN,
      assistantName: "Socket bench",
      number: NUMBER,
      llmUrl: llm.baseUrl,
      twilio: {
        sid,
        token: twilioToken,
        origin: double.origin,
      },
    });
    callers = startCallers(() => running.pid);
    await callers.ready;
    for (const kind of KINDS) {
      for (const calls of LEVELS) {
        const load = loadavg()[0] ?? 0;
        const report = await callers.level({
          type: "level",
          kind,
          calls,
          turns: TURNS,
          base: running.base,
          userToken: token,
          agentId,
          twilio: { accountSid: sid, authToken: twilioToken, number: NUMBER },
          firstCaller: nextCaller,
        });
        nextCaller += calls;
        const { outcomes } = report;
        const waits = outcomes.flatMap((o) => o.waits);
        const stored = await storedVoiceToVoice(running.base, token, outcomes);
        const failed = outcomes.filter((o) => o.error !== null);
        for (const f of failed.slice(0, 3)) console.log(`  ${kind} call ${f.callId ?? "?"}: ${f.error}`);
        const cores = report.steadyCpu / report.steadyWall;
        const corePerCall = cores / calls;
        const unanswered = outcomes.reduce((sum, o) => sum + o.unanswered, 0);
        const gaps = outcomes.reduce((sum, o) => sum + o.gaps, 0);
        const row = {
          kind,
          calls,
          turns: waits.length,
          unanswered,
          failed_calls: failed.length,
          calls_with_gaps: outcomes.filter((o) => o.gaps > 0).length,
          gaps_over_100ms: gaps,
          max_gap_ms: round(Math.max(0, ...outcomes.map((o) => o.maxGapMs))),
          // Audio messages the server wrote per call per second: writes were the largest cost per frame.
          audio_msgs_per_call_s: +(
            outcomes.reduce((sum, o) => sum + o.audioMessages, 0) /
            Math.max(
              1e-9,
              outcomes.reduce((sum, o) => sum + o.upSeconds, 0),
            )
          ).toFixed(1),
          caller_p50_ms: round(percentile(waits, 50)),
          caller_p95_ms: round(percentile(waits, 95)),
          stored_v2v_p50_ms: round(percentile(stored, 50)),
          stored_v2v_p95_ms: round(percentile(stored, 95)),
          server_cores: +cores.toFixed(3),
          core_per_call: +corePerCall.toFixed(4),
          calls_per_core: Math.floor(1 / corePerCall),
          steady_s: +report.steadyWall.toFixed(1),
          callers_cores: +report.load.cpuCores.toFixed(2),
          callers_loop_p99_ms: +report.load.loopDelayP99Ms.toFixed(1),
          load_1m: +load.toFixed(2),
        };
        console.log(JSON.stringify(row));
        rows.push(row);
        if (calls > 1 && failed.length === 0 && unanswered === 0) perCall.set(kind, corePerCall);
      }
    }
  } catch (error) {
    if (server) console.log(server.output().slice(-4000));
    throw error;
  } finally {
    callers?.close();
    await server?.stop();
    await database.drop();
    await double.close();
    await llm.close();
  }
  const browser = perCall.get("browser");
  const twilio = perCall.get("twilio");
  rows.push({
    kind: "summary",
    browser_core_per_call: browser ? +browser.toFixed(4) : "-",
    twilio_core_per_call: twilio ? +twilio.toFixed(4) : "-",
    twilio_to_browser: browser && twilio ? +(twilio / browser).toFixed(2) : "-",
    targets: "browser <= 0.005 core/call, p95 <= 400 ms at 200 calls, twilio <= 1.3x browser",
  });
  return { name: "socket-calls", rows };
}
