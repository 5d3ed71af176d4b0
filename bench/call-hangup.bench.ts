// Ending calls must not stall the server (issue 18 item 0): 50 recorded browser calls hang up at
// once while /api/v1/health is probed and one more live call's audio is timed. Prints the longest
// event-loop stall of the server's thread, the health probe's p99 and the live call's longest audio
// gap, on the database the suite is set to (PGlite; PostgreSQL with PARLEY_TEST_DB=postgres).
// Nobody speaks, so only the VAD, the recording and the call log do work: what is left is the cost
// of ending.
//
// The callers and the watcher of the call logs run in a child process at a lower scheduling priority
// (nice 10), as clients on other machines would: on the server's own thread their 2,500 audio frames
// a second, their sockets' closing and their polling would be counted as the server's stalls, and as
// a thread of the server's process (its own event loop, but the same heap's garbage-collector threads)
// at the same priority they took a third of the CPU the 2 cores had in the hang-up's ≈120 ms, which a
// server never shares with its callers. HANGUP_BENCH_CALLERS=same-priority runs them at the server's
// priority, to see what a load generator on the same machine adds. The health prober has a thread of its own:
// sharing the callers' event loop, a probe in flight waited for their hang-up of 50 sockets (that
// loop stalled up to 220 ms at the hang-up while the server answered in 1 ms), which a client on
// another machine never sees. `health_server_p99_ms` is the same probes timed inside the server
// (request received → response written), `call_logs_server_p99_ms` the same for the requests that
// read the database meanwhile (the callers' list of calls in progress; /health takes a statement
// answered in the last second for its database check), `db_pool_max_waiting` the most queries that
// waited for a pooled PostgreSQL connection.
// HANGUP_BENCH_PROFILE=<file>.cpuprofile writes a CPU profile of the server's thread covering the
// hang-up only (open it in Chrome DevTools). The profiler starts with the calls: its own start-up
// holds the thread ≈200 ms, which inside the hang-up would be the largest stall measured.
//
// On a shared machine the wall-clock figures carry the neighbours' load. On Linux the server thread's
// own scheduler figures come with them: its CPU time, the time it was ready but waited for a CPU
// (the machine's share of every stall), and its longest stall counted in its own CPU time.

import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { type EventLoopUtilization, monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { poolUse } from "../apps/server/src/db/client.ts";
import { call, createTestApp, signedInUser, testDatabaseKind } from "../apps/server/test/harness.ts";
import { createAssistant, roomToken, startRoom } from "../apps/server/test/support/calls.ts";
import { nowUs, type Profiler, startProfiler } from "./cpu-profile.ts";
import type { BenchResult } from "./run.ts";

const CALLS = Number(process.env.HANGUP_BENCH_CALLS ?? 50);
const CALL_SECONDS = Number(process.env.HANGUP_BENCH_SECONDS ?? 20);
const PROFILE = process.env.HANGUP_BENCH_PROFILE;
const THREADS = process.env.HANGUP_BENCH_THREADS === "1";
/** How much lower the callers' process is scheduled than the server (nice), as on other machines. */
const CALLERS_NICE = process.env.HANGUP_BENCH_CALLERS === "same-priority" ? 0 : 10;

/** What the callers report at each step; the server's thread measures itself around "hanging_up". */
type WorkerMessage =
  | { type: "connected" }
  | { type: "probing" }
  | { type: "hanging_up" }
  | { type: "settled"; settledMs: number }
  | { type: "done"; gaps: number[] }
  | { type: "error"; error: string };

/** What the prober answers to "stop": each probe's time, and its own thread's CPU wait (Linux). */
interface ProberResult {
  health: number[];
  waitedForCpuMs: number | null;
}

/**
 * The health prober: /api/v1/health in a loop, 10 ms apart, from "start" to "stop", on an event
 * loop of its own. Its thread's wait for a CPU is the machine's share of its figures.
 */
const PROBER = `
  const { parentPort, workerData } = require("node:worker_threads");
  const { performance } = require("node:perf_hooks");
  const { readFileSync } = require("node:fs");
  const waited = () => {
    try { return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[1]) / 1e6; } catch { return null; }
  };
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  let probing = false;
  parentPort.on("message", async (message) => {
    if (message !== "start") { probing = false; return; }
    probing = true;
    const health = [];
    const waitedAtStart = waited();
    while (probing) {
      const start = performance.now();
      const res = await fetch(workerData.base + "/api/v1/health");
      await res.arrayBuffer();
      health.push(performance.now() - start);
      await sleep(10);
    }
    const waitedAtEnd = waited();
    const waitedForCpuMs = waitedAtStart === null || waitedAtEnd === null ? null : waitedAtEnd - waitedAtStart;
    parentPort.postMessage({ health, waitedForCpuMs });
  });
`;

/**
 * The clients: `calls` sockets plus one probe call, caller audio (silence) every 20 ms on each,
 * then every call but the probe hangs up at once while the prober fetches /api/v1/health; the
 * logs count as written when no call but the probe is in progress any more.
 */
const CLIENTS = `
  const parentPort = {
    postMessage: (message) => process.send(message),
    once: (event, listener) => process.once(event, listener),
  };
  const workerData = JSON.parse(process.env.HANGUP_BENCH_CLIENTS);
  const WebSocket = require(workerData.ws);
  const { performance } = require("node:perf_hooks");
  const { base, tokens, userToken, callSeconds } = workerData;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const FRAME = Buffer.alloc(640);
  const open = (token) => new Promise((resolve, reject) => {
    const socket = new WebSocket(base.replace("http", "ws") + "/api/v1/realtime?token=" + encodeURIComponent(token));
    const audioAt = [];
    socket.on("message", (data, isBinary) => {
      if (isBinary) audioAt.push(performance.now());
      else if (JSON.parse(String(data)).type === "ready") resolve({ socket, audioAt });
    });
    socket.once("error", reject);
  });
  const inProgress = async () => {
    const res = await fetch(base + "/api/v1/call-logs?status=in_progress&items_per_page=1", {
      headers: { authorization: "Bearer " + userToken },
    });
    if (res.status !== 200) throw new Error("call logs answered " + res.status);
    return (await res.json()).total_count;
  };
  (async () => {
    const calls = [];
    for (const token of tokens.slice(0, -1)) calls.push(await open(token));
    const probe = await open(tokens.at(-1));
    const feeder = setInterval(() => {
      for (const c of [...calls, probe]) if (c.socket.readyState === WebSocket.OPEN) c.socket.send(FRAME);
    }, 20);
    parentPort.postMessage({ type: "connected" });
    await inProgress(); // the list's serializer is compiled before the hang-up, as on a running server
    await sleep(callSeconds * 1000);
    parentPort.postMessage({ type: "probing" });
    await sleep(200);
    // The server's thread starts measuring, then says go.
    const go = new Promise((resolve) => parentPort.once("message", resolve));
    parentPort.postMessage({ type: "hanging_up" });
    await go;
    const hangupAt = performance.now();
    for (const c of calls) c.socket.send(JSON.stringify({ type: "hangup" }));
    await Promise.all(calls.map((c) => c.socket.readyState === WebSocket.CLOSED ? null : new Promise((resolve) => c.socket.once("close", resolve))));
    // Until every log is written (the sockets close first); the probe's call is still in progress.
    for (let i = 0; i < 1500 && (await inProgress()) > 1; i++) await sleep(20);
    parentPort.postMessage({ type: "settled", settledMs: performance.now() - hangupAt });
    // Probing goes on past the work that follows the logs a moment later (analytics rolls the ended
    // calls up together a second after they end): it is part of the hang-up's cost too.
    await sleep(2000);
    clearInterval(feeder);
    const gaps = probe.audioAt
      .filter((at) => at >= hangupAt)
      .map((at, i, all) => (i === 0 ? 0 : at - (all[i - 1] ?? at)));
    probe.socket.close();
    parentPort.postMessage({ type: "done", gaps });
    process.disconnect();
  })().catch((error) => {
    parentPort.postMessage({ type: "error", error: String((error && error.stack) || error) });
    process.disconnect();
  });
`;

/** The server thread's time on a CPU and waiting for one, in ms (Linux); null elsewhere. */
function threadTimes(): { cpu: number; waited: number } | null {
  try {
    const [cpu, waited] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ").map(Number);
    return cpu === undefined || waited === undefined ? null : { cpu: cpu / 1e6, waited: waited / 1e6 };
  } catch {
    return null;
  }
}

/**
 * Reads the thread's times every few ms from the hang-up on: the most CPU time between two readings
 * is the longest stall the server's own work made, whatever the machine's load added to it.
 */
class ThreadTimes {
  private readonly first = threadTimes();
  private last = this.first;
  private maxStallCpu = 0;
  private readonly timer = setInterval(() => {
    const now = threadTimes();
    if (now && this.last) this.maxStallCpu = Math.max(this.maxStallCpu, now.cpu - this.last.cpu);
    this.last = now;
  }, 5);

  stop(): { cpu: number; waited: number; maxStallCpu: number } | null {
    clearInterval(this.timer);
    const end = threadTimes();
    if (!end || !this.first) return null;
    return { cpu: end.cpu - this.first.cpu, waited: end.waited - this.first.waited, maxStallCpu: this.maxStallCpu };
  }
}

/** CPU ms so far of every thread of this process and of every process named `postgres` (Linux). */
function cpuByThread(): Map<string, number> {
  const cpu = new Map<string, number>();
  const read = (dir: string, label: string) => {
    try {
      const ms = Number(readFileSync(`${dir}/schedstat`, "utf8").split(" ")[0]) / 1e6;
      cpu.set(label, (cpu.get(label) ?? 0) + ms);
    } catch {}
  };
  for (const tid of readdirSync("/proc/self/task"))
    read(`/proc/self/task/${tid}`, `node:${readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim()}:${tid}`);
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres") read(`/proc/${pid}`, `postgres:${pid}`);
    } catch {}
  }
  return cpu;
}

/** Who used the CPU between two snapshots, the busiest first. */
function cpuSpent(before: Map<string, number>, after: Map<string, number>): string {
  return [...after]
    .map(([label, ms]) => [label, ms - (before.get(label) ?? 0)] as const)
    .filter(([, ms]) => ms >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([label, ms]) => `${label} ${ms.toFixed(0)}`)
    .join(", ");
}

const round = (ms: number | undefined) => (ms === undefined ? Number.NaN : Math.round(ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function run(): Promise<BenchResult> {
  const t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  try {
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const user = await signedInUser(t);
    await call(t, "PATCH", `/api/v1/workspaces/${user.workspaceId}`, {
      token: user.token,
      body: { concurrency_limit: CALLS + 5 },
    });
    const agent = await createAssistant(t, user.token, {
      first_message: "",
      first_speaker: "user",
      max_call_duration: 3600,
    });
    const tokens: string[] = [];
    for (let i = 0; i <= CALLS; i++) {
      const { room } = await startRoom(t, user.token, agent);
      tokens.push(await roomToken(t, user.token, room));
    }

    const clients = {
      base: `http://127.0.0.1:${port}`,
      tokens,
      userToken: user.token,
      callSeconds: CALL_SECONDS,
      ws: createRequire(import.meta.url).resolve("ws"),
    };
    const callers = spawn("nice", ["-n", String(CALLERS_NICE), process.execPath, "-e", CLIENTS], {
      env: { ...process.env, HANGUP_BENCH_CLIENTS: JSON.stringify(clients) },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const prober = new Worker(PROBER, { eval: true, workerData: { base: `http://127.0.0.1:${port}` } });
    // Should the callers fail, a prober still probing must not keep the process from exiting.
    prober.unref();
    const proberResult = new Promise<ProberResult>((resolve, reject) => {
      prober.once("message", resolve);
      prober.once("error", reject);
    });
    // The probes as the server sees them: from the request's arrival to its response's last byte written.
    const serverHealth: number[] = [];
    // The requests that read the database meanwhile: the callers' list of calls in progress (from the
    // probing on: the first list, before it, compiles the list's serializer).
    const serverCallLogs: number[] = [];
    const probing = { started: false };
    t.app.server.on("request", (request, response) => {
      if (!probing.started) return;
      const times =
        request.url === "/api/v1/health"
          ? serverHealth
          : request.url?.startsWith("/api/v1/call-logs")
            ? serverCallLogs
            : null;
      if (!times) return;
      const start = performance.now();
      response.once("finish", () => times.push(performance.now() - start));
    });
    const pool = { maxWaiting: 0, timer: undefined as NodeJS.Timeout | undefined };
    const loop = monitorEventLoopDelay({ resolution: 5 });
    // Garbage collection pauses from the hang-up on: part of a stall the code cannot yield around.
    const gcPauses: number[] = [];
    const gc = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) gcPauses.push(entry.duration);
    });
    const profiling: { profiler: Profiler | null } = { profiler: null };
    let cpuAtHangup = process.cpuUsage();
    let hangupCpu = process.cpuUsage(cpuAtHangup);
    let loopAtHangup: EventLoopUtilization = performance.eventLoopUtilization();
    let hangupLoop = performance.eventLoopUtilization(loopAtHangup);
    const threadClock: { times: ThreadTimes | null } = { times: null };
    let settledMs = Number.NaN;
    let hangupAtUs = 0;
    const threadCpu = { atHangup: new Map<string, number>(), spent: "" };
    const { gaps } = await new Promise<{ gaps: number[] }>((resolve, reject) => {
      callers.on("message", (message: WorkerMessage) => {
        if (message.type === "probing") {
          probing.started = true;
          prober.postMessage("start");
        } else if (message.type === "connected" && PROFILE) {
          void startProfiler().then((profiler) => {
            profiling.profiler = profiler;
          });
        } else if (message.type === "hanging_up") {
          hangupAtUs = nowUs();
          if (THREADS) threadCpu.atHangup = cpuByThread();
          loop.enable();
          gc.observe({ entryTypes: ["gc"] });
          cpuAtHangup = process.cpuUsage();
          loopAtHangup = performance.eventLoopUtilization();
          threadClock.times = new ThreadTimes();
          pool.timer = setInterval(() => {
            pool.maxWaiting = Math.max(pool.maxWaiting, poolUse(t.ctx.db)?.waiting ?? 0);
          }, 5);
          callers.send("go");
        } else if (message.type === "settled") {
          // The process's CPU counts the clients' thread too; the server thread's busy time does not.
          hangupCpu = process.cpuUsage(cpuAtHangup);
          hangupLoop = performance.eventLoopUtilization(loopAtHangup);
          settledMs = message.settledMs;
          if (THREADS) threadCpu.spent = cpuSpent(threadCpu.atHangup, cpuByThread());
        } else if (message.type === "done") resolve(message);
        else if (message.type === "error") reject(new Error(message.error));
      });
      callers.once("error", reject);
      callers.once("exit", (code) => reject(new Error(`the callers' process exited (${code}) before it was done`)));
    });
    prober.postMessage("stop");
    const { health, waitedForCpuMs: proberWaited } = await proberResult;
    clearInterval(pool.timer);
    loop.disable();
    gc.disconnect();
    // From the hang-up until the prober stopped: the same span as the loop's stalls.
    const thread = threadClock.times?.stop() ?? null;
    callers.kill();
    await prober.terminate();
    if (THREADS) console.log(`CPU ms from the hang-up to the last log written, by thread: ${threadCpu.spent}`);
    if (profiling.profiler && PROFILE)
      writeFileSync(PROFILE, JSON.stringify(await profiling.profiler.stop(hangupAtUs)));
    return {
      name: `call-hangup-${testDatabaseKind}`,
      rows: [
        {
          database: testDatabaseKind,
          calls_hung_up: CALLS,
          call_seconds: CALL_SECONDS,
          all_logs_written_ms: Math.round(settledMs),
          process_cpu_ms_while_ending: Math.round((hangupCpu.user + hangupCpu.system) / 1000),
          server_loop_busy_ms: Math.round(hangupLoop.active),
          max_event_loop_stall_ms: +(loop.max / 1e6).toFixed(1),
          max_stall_server_cpu_ms: thread ? +thread.maxStallCpu.toFixed(1) : Number.NaN,
          server_thread_cpu_ms: round(thread?.cpu),
          server_thread_waited_for_cpu_ms: round(thread?.waited),
          gc_max_pause_ms: +Math.max(0, ...gcPauses).toFixed(1),
          health_probes: health.length,
          health_p50_ms: +percentile(health, 50).toFixed(1),
          health_p99_ms: +percentile(health, 99).toFixed(1),
          health_max_ms: +Math.max(...health).toFixed(1),
          health_server_p99_ms: +percentile(serverHealth, 99).toFixed(1),
          prober_waited_for_cpu_ms: proberWaited === null ? Number.NaN : Math.round(proberWaited),
          call_logs_server_p99_ms: +percentile(serverCallLogs, 99).toFixed(1),
          db_pool_max_waiting: testDatabaseKind === "postgres" ? pool.maxWaiting : "-",
          live_call_max_audio_gap_ms: +Math.max(...gaps).toFixed(1),
          target: "health p99 <= 50 ms",
        },
      ],
    };
  } finally {
    await t.close();
  }
}
