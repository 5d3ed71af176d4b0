// Admission control under a CPU hog (issue 35 item 2): one Parley process started as `npm start`
// runs it (production mode, source entry so the instant doubles can be put in place), a busy loop
// in another process taking one core, and 100 browser calls offered at once through the real
// realtime WebSocket (the callers of the socket-calls bench, in their own process). Reported per
// mode (admission control on, then off for comparison): calls admitted, calls refused with the busy
// text, and for the admitted calls the audio gaps the callers heard (> 100 ms without audio inside a
// reply), the longest gap and the unanswered turns.
//
// ADMISSION_BENCH_CALLS=100  ADMISSION_BENCH_TURNS=3  ADMISSION_BENCH_MODES=on,off  ADMISSION_BENCH_HOGS=1
// Target (issue 35): with admission on, every admitted call keeps its audio (no gap over 100 ms) and
// answers every turn; every other call is refused with the busy text.
import { type ChildProcess, fork, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { ERROR_TEXTS } from "@parley/contract";
import { freshPostgresDatabase } from "../apps/server/test/support/postgres-database.ts";
import { startScriptedLlm } from "../apps/server/test/support/scripted-llm.ts";
import type { CallersMessage, CallOutcome, LevelOrder } from "./callers.ts";
import type { BenchResult } from "./run.ts";
import { serverUp } from "./server-child.ts";

const CALLS = Number(process.env.ADMISSION_BENCH_CALLS ?? 100);
const TURNS = Number(process.env.ADMISSION_BENCH_TURNS ?? 3);
const MODES = (process.env.ADMISSION_BENCH_MODES ?? "on,off").split(",").map((m) => m.trim());
const HOGS = Number(process.env.ADMISSION_BENCH_HOGS ?? 1);
const ADMIN = { email: "admission-bench@example.com", password: "Admission-bench-password-1" };
const repo = path.join(import.meta.dirname, "..");
const preload = path.join(import.meta.dirname, "cluster-node-preload.ts");

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no free port");
  return address.port;
}

/** A process spinning on one core until killed: the neighbour that leaves Parley less CPU. */
function startHog(): ChildProcess {
  return spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" });
}

async function startServer(databaseUrl: string, admission: string) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "--import", preload, "src/main.ts"], {
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
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "admission-bench-")),
      DATABASE_URL: databaseUrl,
      PARLEY_SECRET_KEY: "admission-bench-secret-key-admission-bench-key",
      SIP_PORT: "off",
      DRAIN_TIMEOUT: "5s",
      ADMISSION_CONTROL: admission,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { output } = await serverUp(child, `${base}/api/v1/health/live`);
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

const field = (value: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((at, key) => (typeof at === "object" && at !== null ? Reflect.get(at, key) : undefined), value);

async function request(base: string, token: string, method: string, url: string, body?: unknown) {
  const res = await fetch(`${base}/api/v1${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** The administrator's workspace with its limit raised past the offer, and an assistant on instant doubles. */
async function prepare(base: string, llmUrl: string) {
  const login = await fetch(`${base}/api/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
  });
  if (!login.ok) throw new Error(`sign-in failed: ${login.status} ${await login.text()}`);
  const token = String(field(await login.json(), "access_token"));
  const workspaces = await request(base, token, "GET", "/workspaces");
  const rows = (Array.isArray(workspaces) ? workspaces : field(workspaces, "data")) as { id: string }[];
  const workspace = rows[0];
  if (!workspace) throw new Error("no workspace");
  await request(base, token, "PATCH", `/workspaces/${workspace.id}`, { concurrency_limit: 1000 });
  const agent = await request(base, token, "POST", "/agents", {
    name: "Admission bench",
    first_message: "",
    first_speaker: "user",
    max_call_duration: 3600,
    timeout_seconds: 600,
    llm_provider: "openai-compatible",
    llm_provider_config: { model: "scripted", base_url: llmUrl },
    stt_provider: "local",
    stt_provider_config: {},
    tts_provider: "local",
    tts_provider_config: { model: "espeak-ng", voice: "en-us" },
  });
  return { token, agentId: String(field(agent, "id")) };
}

/** Offers the calls at once from the callers' process and waits for every outcome. */
async function offer(order: LevelOrder): Promise<CallOutcome[]> {
  const child = fork(path.join(import.meta.dirname, "callers.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    return await new Promise<CallOutcome[]>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`the callers' process exited (${code})`)));
      child.on("message", (message: CallersMessage) => {
        if (message.type === "ready") child.send(order);
        else if (message.type === "result") resolve(message.outcomes);
        else if (message.type === "failed") reject(new Error(`the callers failed: ${message.message}`));
      });
    });
  } finally {
    child.kill("SIGTERM");
  }
}

async function runMode(mode: string, databaseUrl: string, llmUrl: string): Promise<Record<string, string | number>> {
  const server = await startServer(databaseUrl, mode);
  const hogs: ChildProcess[] = [];
  try {
    const { token, agentId } = await prepare(server.base, llmUrl);
    for (let i = 0; i < HOGS; i++) hogs.push(startHog());
    // The probe's window fills with the hog's effect before the calls come.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const load = loadavg()[0] ?? 0;
    const outcomes = await offer({
      type: "level",
      kind: "browser",
      calls: CALLS,
      turns: TURNS,
      base: server.base,
      userToken: token,
      agentId,
      twilio: { accountSid: "", authToken: "", number: "" },
      firstCaller: 0,
    });
    const refused = outcomes.filter(
      (o) => o.error?.includes("answered 503") && o.error.includes(ERROR_TEXTS.serverBusy),
    );
    const admitted = outcomes.filter((o) => !refused.includes(o));
    const otherFailures = outcomes.filter((o) => o.error !== null && !refused.includes(o));
    for (const f of otherFailures.slice(0, 3)) console.log(`  failed call ${f.callId ?? "?"}: ${f.error}`);
    const turnsAnswered = admitted.reduce((sum, o) => sum + o.waits.length, 0);
    const row = {
      admission: mode,
      hogs: HOGS,
      offered: CALLS,
      admitted: admitted.length,
      refused_busy: refused.length,
      other_failures: otherFailures.length,
      admitted_with_gaps: admitted.filter((o) => o.gaps > 0).length,
      gaps_over_100ms: admitted.reduce((sum, o) => sum + o.gaps, 0),
      max_gap_ms: Math.round(Math.max(0, ...admitted.map((o) => o.maxGapMs))),
      turns_answered: turnsAnswered,
      turns_unanswered: admitted.reduce((sum, o) => sum + o.unanswered, 0),
      load_1m: +load.toFixed(2),
    };
    console.log(JSON.stringify(row));
    return row;
  } catch (error) {
    console.log(server.output().slice(-4000));
    throw error;
  } finally {
    for (const hog of hogs) hog.kill("SIGKILL");
    await server.stop();
    // The server's own account of its refusals (rate-limited warn lines with the lag figures),
    // read once it has exited and flushed its log.
    for (const line of server.output().split("\n"))
      if (/refused|saturated|takes new calls/.test(line)) console.log(`  ${line.slice(0, 600)}`);
  }
}

export async function run(): Promise<BenchResult> {
  const llm = await startScriptedLlm(() => ({ text: "Sure, for what time?" }));
  const rows: Record<string, string | number>[] = [];
  try {
    for (const mode of MODES) {
      const database = await freshPostgresDatabase("parley_admission_bench");
      try {
        rows.push(await runMode(mode, database.url, llm.baseUrl));
      } finally {
        await database.drop();
      }
    }
  } finally {
    await llm.close();
  }
  return { name: "admission", rows };
}
