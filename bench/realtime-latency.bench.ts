// End of speech → first audio on a speech-to-speech ("realtime") call (issue 32's latency
// acceptance): one Parley process from source, as `npm start` runs it (production mode, warn-level
// logging), a browser call over the real realtime WebSocket, and an instant OpenAI Realtime double
// (the model's whole reply arrives the moment the caller stops). What the caller waits is then
// Parley's own share: the vendor's events read, resampled 24 → 16 kHz, paced into 20 ms frames and
// written to the socket. Per turn the caller's clock starts when the double reports the end of
// speech (`input_audio_buffer.speech_stopped`) and stops at the first audio frame on the socket;
// the call log's stored voice_to_voice_ms and engine_overhead_ms are reported beside it.
//
// REALTIME_BENCH_TURNS=40 (default). Target (issue 32): ≤ 100 ms engine share.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { CallLog } from "@parley/contract";
import { startRealtimeDouble } from "@parley/engine/testing/vendor-servers/openai-realtime-double";
import { RealtimeClient } from "../apps/server/test/support/realtime-client.ts";
import { request } from "./bench-workspace.ts";
import type { BenchResult } from "./run.ts";
import { serverUp } from "./server-child.ts";

const TURNS = Number(process.env.REALTIME_BENCH_TURNS ?? 40);
const KEY = "sk-realtime-bench";
const ADMIN = { email: "realtime-bench@example.com", password: "Realtime-bench-password-1" };
const TARGET_MS = 100;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const round = (ms: number) => (Number.isFinite(ms) ? Math.round(ms * 10) / 10 : "-");

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** One Parley process from source on the embedded database, as `npm start` runs it. */
async function startServer() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: path.join(import.meta.dirname, "../apps/server"),
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
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "realtime-bench-")),
      DATABASE_URL: "",
      PARLEY_SECRET_KEY: "realtime-bench-secret-key-realtime-bench-secret",
      SIP_PORT: "off",
      DRAIN_TIMEOUT: "5s",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { output } = await serverUp(child, `${base}/api/v1/health/ready`);
  return {
    base,
    output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function signIn(base: string): Promise<string> {
  const login = await fetch(`${base}/api/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  return String(((await login.json()) as { access_token: string }).access_token);
}

/** The call's stored turn metrics once its log is closed. */
async function storedTurns(base: string, token: string, callId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const log = CallLog.parse(await request(base, token, "GET", `/call-logs/${callId}`));
    if (log.status === "completed" || log.status === "failed") return log.turn_metrics;
    if (Date.now() > deadline) throw new Error(`call ${callId} was never closed (${log.status})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function run(): Promise<BenchResult> {
  const double = await startRealtimeDouble({
    apiKey: KEY,
    replies: Array.from({ length: TURNS }, () => ({ say: "Sure, for what time?", ms: 600 })),
  });
  const server = await startServer();
  try {
    const token = await signIn(server.base);
    await request(server.base, token, "PUT", "/integrations/openai", {
      credentials: { api_key: KEY, base_url: double.baseUrl.replace(/^ws/, "http") },
    });
    const agent = (await request(server.base, token, "POST", "/agents", {
      name: "Realtime bench",
      first_message: "",
      first_speaker: "user",
      max_call_duration: 3600,
      timeout_seconds: 600,
      engine_mode: "realtime",
      realtime: { provider: "openai-realtime", model: "gpt-realtime" },
    })) as { id: string };
    const started = (await request(server.base, token, "POST", `/agents/${agent.id}/call`)) as {
      room: { name: string };
      call_id: string;
    };
    const query = new URLSearchParams({ room_name: started.room.name, user_identity: "bench", name: "Bench" });
    const room = (await request(server.base, token, "GET", `/agents/room/generate_room_token?${query}`)) as {
      accessToken: string;
    };
    const client = await RealtimeClient.connect(
      `${server.base.replace(/^http/, "ws")}/api/v1/realtime?token=${encodeURIComponent(room.accessToken)}`,
      { origin: server.base },
    );
    await client.waitFor("ready");
    const states = () => client.messages.filter((m) => m.type === "state");
    const waits: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const heard = client.audio.length;
      const spoken = states().length;
      const stoppedAt = performance.now();
      double.callerSaid("I would like a table for two tonight.");
      await client.until(() => client.audio.length > heard, "the reply's first audio", 10_000);
      waits.push(performance.now() - stoppedAt);
      // The reply plays to its end before the caller speaks again.
      await client.until(
        () =>
          states()
            .slice(spoken)
            .some((m) => m.state === "listening"),
        "the reply to finish playing",
        10_000,
      );
    }
    client.send({ type: "hangup" });
    await client.closed;
    const turns = await storedTurns(server.base, token, started.call_id);
    const stored = (pick: (t: (typeof turns)[number]) => number | null) =>
      turns.map(pick).filter((v): v is number => v !== null);
    const v2v = stored((t) => t.voice_to_voice_ms);
    const engine = stored((t) => t.engine_overhead_ms);
    return {
      name: "realtime-latency",
      rows: [
        {
          turns: waits.length,
          caller_p50_ms: round(percentile(waits, 50)),
          caller_p95_ms: round(percentile(waits, 95)),
          caller_max_ms: round(Math.max(...waits)),
          stored_v2v_p50_ms: round(percentile(v2v, 50)),
          stored_v2v_p95_ms: round(percentile(v2v, 95)),
          stored_engine_p95_ms: round(percentile(engine, 95)),
          target_ms: TARGET_MS,
          met: percentile(waits, 95) <= TARGET_MS ? "yes" : "no",
        },
      ],
    };
  } catch (error) {
    console.log(server.output().slice(-4000));
    throw error;
  } finally {
    await server.stop().catch(() => undefined);
    await double.close();
  }
}
