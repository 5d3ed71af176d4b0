// Ending calls must not stall the server (issue 18 item 0): 50 recorded browser calls hang up at
// once while /api/v1/health is probed and one more live call's audio is timed. Prints the longest
// event-loop stall, the health probe's p99 and the live call's longest audio gap, on the database
// the suite is set to (PGlite; PostgreSQL with PARLEY_TEST_DB=postgres). Nobody speaks, so only
// the VAD, the recording and the call log do work: what is left is the cost of ending.
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import WebSocket from "ws";
import { call, createTestApp, signedInUser, testDatabaseKind } from "../apps/server/test/harness.ts";
import { createAssistant, roomToken, startRoom } from "../apps/server/test/support/calls.ts";
import type { BenchResult } from "./run.ts";

const CALLS = Number(process.env.HANGUP_BENCH_CALLS ?? 50);
const CALL_SECONDS = Number(process.env.HANGUP_BENCH_SECONDS ?? 20);
const FRAME = Buffer.alloc(640);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface OpenCall {
  socket: WebSocket;
  callId: string;
  audioAt: number[];
}

export async function run(): Promise<BenchResult> {
  const t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  try {
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const base = `http://127.0.0.1:${port}`;
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

    const open = async (): Promise<OpenCall> => {
      const { room, callId } = await startRoom(t, user.token, agent);
      const token = await roomToken(t, user.token, room);
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/v1/realtime?token=${encodeURIComponent(token)}`);
      const audioAt: number[] = [];
      await new Promise<void>((resolve, reject) => {
        socket.on("message", (data, isBinary) => {
          if (isBinary) audioAt.push(performance.now());
          else if (JSON.parse(String(data)).type === "ready") resolve();
        });
        socket.once("error", reject);
      });
      return { socket, callId, audioAt };
    };
    const calls: OpenCall[] = [];
    for (let i = 0; i < CALLS; i++) calls.push(await open());
    const probe = await open();
    // Caller audio for every call in real time (silence: nobody speaks, the recording still grows).
    const feeder = setInterval(() => {
      for (const c of [...calls, probe]) if (c.socket.readyState === WebSocket.OPEN) c.socket.send(FRAME);
    }, 20);
    await sleep(CALL_SECONDS * 1000);

    const loop = monitorEventLoopDelay({ resolution: 5 });
    const health: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const start = performance.now();
        await fetch(`${base}/api/v1/health`);
        health.push(performance.now() - start);
        await sleep(10);
      }
    })();
    loop.enable();
    const hangupAt = performance.now();
    const cpuAtHangup = process.cpuUsage();
    for (const c of calls) c.socket.send(JSON.stringify({ type: "hangup" }));
    await Promise.all(calls.map((c) => new Promise((resolve) => c.socket.once("close", resolve))));
    // Until every log is written (the sockets close first).
    for (const c of calls) {
      for (let i = 0; i < 300; i++) {
        const log = await call(t, "GET", `/api/v1/call-logs/${c.callId}`, { token: user.token });
        if (log.json().status !== "in_progress") break;
        await sleep(20);
      }
    }
    const settledMs = performance.now() - hangupAt;
    // CPU is what ending costs whatever else runs on the machine (stalls also count other processes).
    const hangupCpu = process.cpuUsage(cpuAtHangup);
    await sleep(500);
    probing = false;
    await prober;
    loop.disable();
    clearInterval(feeder);
    const gaps = probe.audioAt
      .filter((at) => at >= hangupAt)
      .map((at, i, all) => (i === 0 ? 0 : at - (all[i - 1] ?? at)));
    probe.socket.close();
    return {
      name: `call-hangup-${testDatabaseKind}`,
      rows: [
        {
          database: testDatabaseKind,
          calls_hung_up: CALLS,
          call_seconds: CALL_SECONDS,
          all_logs_written_ms: Math.round(settledMs),
          cpu_ms_while_ending: Math.round((hangupCpu.user + hangupCpu.system) / 1000),
          max_event_loop_stall_ms: +(loop.max / 1e6).toFixed(1),
          health_p50_ms: +percentile(health, 50).toFixed(1),
          health_p99_ms: +percentile(health, 99).toFixed(1),
          health_max_ms: +Math.max(...health).toFixed(1),
          live_call_max_audio_gap_ms: +Math.max(...gaps).toFixed(1),
          target: "health p99 <= 100 ms",
        },
      ],
    };
  } finally {
    await t.close();
  }
}
