// API throughput next to a bare Fastify twin (issue 18 item 3, issue 35 item 4). Parley runs as
// `npm start` runs it — the built bundle (dist/main.js), NODE_ENV=production, default logging (info,
// JSON lines to a file) — in its own process; the twin (bench/api-twin.ts) is a bare Fastify process
// sending the same SQL through the plain database client. Both listen on 127.0.0.1 and are driven
// over real HTTP keep-alive connections by a load generator in a worker thread of this process, in
// interleaved rounds, so the ratio compares like with like in one run.
//
// On PGlite each process needs a data directory of its own (PGlite opens one in a single process):
// the seeded directory is copied for the twin before either starts, so both read the same rows.
// On PostgreSQL both use the same fresh database.
//
// PARLEY_TEST_DB=postgres runs it on PostgreSQL; API_BENCH_SECONDS sets each round's length,
// API_BENCH_ROUNDS the number of interleaved rounds; API_BENCH_SERVER another built main.js (to
// compare builds); API_BENCH_ENV extra environment for Parley ("LOG_LEVEL=silent,LOG_REQUESTS=all");
// API_BENCH_PROFILE=<dir> writes both processes' CPU profiles there (node --cpu-prof); API_BENCH_ROUTES
// which routes ("/users/me,/agents" by default).

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import pino from "pino";
import { buildApp } from "../apps/server/src/app.ts";
import { loadConfig } from "../apps/server/src/config.ts";
import { createContext } from "../apps/server/src/create-context.ts";
import { hashPassword } from "../apps/server/src/lib/passwords.ts";
import { insertUser } from "../apps/server/src/modules/users/service.ts";
import { createPersonalWorkspace } from "../apps/server/src/modules/workspaces/service.ts";
import { freshPostgresDatabase, type PostgresDatabase } from "../apps/server/test/support/postgres-database.ts";
import type { BenchResult } from "./run.ts";

const SECONDS = Number(process.env.API_BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.API_BENCH_ROUNDS ?? 3);
const CONNECTIONS = 32;
const ASSISTANTS = 50;
const SECRET_KEY = "api-bench-secret-key-api-bench-secret-key-0123";
const PASSWORD = "correct horse battery";
const root = path.resolve(import.meta.dirname, "..");
const databaseKind = process.env.PARLEY_TEST_DB === "postgres" ? "postgres" : "pglite";

interface Load {
  rps: number;
  /** CPU time (user + system, all threads) the serving process spent a request. */
  cpu_us: number;
  p50_ms: number;
  p99_ms: number;
  bytes: number;
}

/**
 * CPU time a process has used, in ms (Linux /proc; clock ticks of 10 ms, fine over a round). On a
 * busy machine throughput swings with the neighbours' load; CPU time a request much less.
 */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Saturates one URL for SECONDS from a worker thread, measuring the serving process's CPU time. */
async function drive(url: string, token: string, pid: number): Promise<Load> {
  const before = cpuMs(pid);
  const load = await load1(url, token);
  const requests = load.rps * SECONDS;
  return { ...load, cpu_us: requests > 0 ? ((cpuMs(pid) - before) * 1000) / requests : 0 };
}

function load1(url: string, token: string): Promise<Omit<Load, "cpu_us">> {
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    const { Pool } = require(workerData.undici);
    (async () => {
      const { url, token, seconds, connections } = workerData;
      const target = new URL(url);
      const pool = new Pool(target.origin, { connections, pipelining: 1 });
      const samples = [];
      let bytes = 0;
      const end = performance.now() + seconds * 1000;
      const lane = async () => {
        while (performance.now() < end) {
          const start = performance.now();
          const res = await pool.request({ method: "GET", path: target.pathname, headers: { authorization: "Bearer " + token } });
          const body = Buffer.from(await res.body.arrayBuffer());
          if (res.statusCode !== 200) throw new Error(url + " answered " + res.statusCode + ": " + body.toString().slice(0, 200));
          bytes = body.length;
          samples.push(performance.now() - start);
        }
      };
      await Promise.all(Array.from({ length: connections }, lane));
      await pool.close();
      samples.sort((a, b) => a - b);
      const at = (p) => samples[Math.min(samples.length - 1, Math.floor(p * samples.length))] ?? 0;
      parentPort.postMessage({ rps: samples.length / seconds, p50_ms: at(0.5), p99_ms: at(0.99), bytes });
    })().catch((error) => parentPort.postMessage({ error: String(error && error.stack || error) }));
  `;
  const worker = new Worker(source, {
    eval: true,
    workerData: {
      url,
      token,
      seconds: SECONDS,
      connections: CONNECTIONS,
      undici: createRequire(import.meta.url).resolve("undici"),
    },
  });
  return new Promise((resolve, reject) => {
    worker.once("message", (message: Omit<Load, "cpu_us"> | { error: string }) => {
      void worker.terminate();
      if ("error" in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once("error", reject);
  });
}

/** A user with a personal workspace and ASSISTANTS assistants, written through Parley's own services. */
async function seed(env: Record<string, string>): Promise<string> {
  const config = loadConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", SIP_PORT: "off", ...env });
  const { ctx, database } = await createContext(config, {
    log: pino({ level: "silent" }),
    migrationsFolder: path.join(root, "apps/server/drizzle"),
  });
  const app = await buildApp(ctx, { logger: false });
  try {
    const username = "benchuser";
    const user = await insertUser(ctx.db, {
      email: "bench@example.com",
      username,
      name: "Bench User",
      passwordHash: await hashPassword(PASSWORD),
      isSuperuser: false,
    });
    await createPersonalWorkspace(ctx.db, user);
    const token = await login(
      (init) => app.inject({ ...init, method: "POST", url: "/api/v1/login" }).then((r) => r.body),
      username,
    );
    for (let i = 0; i < ASSISTANTS; i++) {
      const res = await app.inject({
        method: "POST",
        url: "/api/v1/agents",
        headers: { authorization: `Bearer ${token}` },
        payload: { name: `Bench assistant ${i + 1}` },
      });
      if (res.statusCode !== 201) throw new Error(`could not create an assistant: ${res.body}`);
    }
    return username;
  } finally {
    await app.close();
    await database.close();
  }
}

async function login(
  post: (init: { headers: Record<string, string>; payload: string }) => Promise<string>,
  username: string,
): Promise<string> {
  const body = await post({
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ username, password: PASSWORD }).toString(),
  });
  const token = (JSON.parse(body) as { access_token?: string }).access_token;
  if (!token) throw new Error(`login failed: ${body.slice(0, 200)}`);
  return token;
}

/** Starts a process and resolves with the URL it prints (`listening <url>`) or its health answers at. */
function start(
  args: string[],
  env: Record<string, string>,
  logFile: string,
  ready: (child: ChildProcess) => Promise<string>,
): Promise<{ child: ChildProcess; url: string }> {
  const out = openSync(logFile, "a");
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", out, out],
  });
  return ready(child).then((url) => ({ child, url }));
}

async function waitForHealth(child: ChildProcess, url: string): Promise<string> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/v1/health`)).ok) return url;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the server did not answer /api/v1/health within 120 s");
}

async function waitForLine(logFile: string, child: ChildProcess): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the twin exited with ${child.exitCode}: ${readFileSync(logFile, "utf8")}`);
    const match = /listening (http:\/\/\S+)/.exec(readFileSync(logFile, "utf8"));
    if (match?.[1]) return match[1];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the twin did not start within 60 s");
}

function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 15_000).unref();
  });
}

async function bodyOf(url: string, token: string): Promise<string> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}

/** Same answer from both processes: equal JSON (key order and spacing aside). */
function sameAnswer(a: string, b: string): boolean {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([x], [y]) => x.localeCompare(y))
              .map(([k, v]) => [k, canonical(v)]),
          )
        : value;
  return JSON.stringify(canonical(JSON.parse(a))) === JSON.stringify(canonical(JSON.parse(b)));
}

export async function run(): Promise<BenchResult> {
  const started = performance.now();
  const work = mkdtempSync(path.join(tmpdir(), "parley-api-bench-"));
  const server = process.env.API_BENCH_SERVER ?? "apps/server/dist/main.js";
  if (!process.env.API_BENCH_SERVER) {
    const build = spawnSync("npm", ["run", "build", "-w", "@parley/server"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("npm run build -w @parley/server failed");
  }
  const extraEnv = Object.fromEntries(
    (process.env.API_BENCH_ENV ?? "")
      .split(",")
      .filter(Boolean)
      .map((pair) => pair.split("=", 2) as [string, string]),
  );
  let pgDb: PostgresDatabase | undefined;
  let parley: ChildProcess | undefined;
  let twin: ChildProcess | undefined;
  try {
    const dataDir = path.join(work, "parley");
    const twinDir = path.join(work, "twin");
    pgDb = databaseKind === "postgres" ? await freshPostgresDatabase("parley_api_bench") : undefined;
    const dbEnv: Record<string, string> = pgDb ? { DATABASE_URL: pgDb.url } : {};
    const username = await seed({ DATA_DIR: dataDir, PARLEY_SECRET_KEY: SECRET_KEY, ...dbEnv });
    if (!pgDb) cpSync(path.join(dataDir, "pglite"), twinDir, { recursive: true });

    const parleyLog = path.join(work, "parley.log");
    const parleyEnv = {
      // As scripts/start.mjs runs it; the rest of the settings are Parley's defaults.
      NODE_ENV: "production",
      DATA_DIR: dataDir,
      PARLEY_SECRET_KEY: SECRET_KEY,
      HOST: "127.0.0.1",
      PORT: String(20000 + Math.floor(Math.random() * 20000)),
      // A SIP listener on the default port would clash with other servers on the machine.
      SIP_PORT: "off",
      ...dbEnv,
      ...extraEnv,
    };
    const profile = process.env.API_BENCH_PROFILE;
    const nodeArgs = profile ? ["--cpu-prof", "--cpu-prof-dir", path.resolve(profile)] : [];
    const started1 = await start([...nodeArgs, "--enable-source-maps", server], parleyEnv, parleyLog, (child) =>
      waitForHealth(child, `http://127.0.0.1:${parleyEnv.PORT}`),
    );
    parley = started1.child;
    const twinLog = path.join(work, "twin.log");
    const started2 = await start(
      [...nodeArgs, "--import", "tsx", path.join(root, "bench/api-twin.ts")],
      {
        PARLEY_SECRET_KEY: SECRET_KEY,
        ...(pgDb ? { TWIN_DATABASE_URL: pgDb.url } : { TWIN_PGLITE_DIR: twinDir }),
      },
      twinLog,
      (child) => waitForLine(twinLog, child),
    );
    twin = started2.child;
    const parleyUrl = started1.url;
    const twinUrl = started2.url;
    const token = await login(
      (init) =>
        fetch(`${parleyUrl}/api/v1/login`, { method: "POST", headers: init.headers, body: init.payload }).then((r) =>
          r.text(),
        ),
      username,
    );

    const rows: BenchResult["rows"] = [];
    const routes = (process.env.API_BENCH_ROUTES ?? "/users/me,/agents").split(",").map((r) => `/api/v1${r}`);
    for (const route of routes) {
      const mine = await bodyOf(`${parleyUrl}${route}`, token);
      const theirs = await bodyOf(`${twinUrl}${route}`, token);
      if (!sameAnswer(mine, theirs)) throw new Error(`the twin's ${route} differs from Parley's`);
      const parleyLoads: Load[] = [];
      const bare: Load[] = [];
      // Warm both (JIT, connection pools), then interleave so drift hits both sides alike.
      const parleyPid = parley.pid ?? 0;
      const twinPid = twin.pid ?? 0;
      await drive(`${twinUrl}${route}`, token, twinPid);
      await drive(`${parleyUrl}${route}`, token, parleyPid);
      const logBefore = statSync(parleyLog).size;
      for (let round = 0; round < ROUNDS; round++) {
        bare.push(await drive(`${twinUrl}${route}`, token, twinPid));
        parleyLoads.push(await drive(`${parleyUrl}${route}`, token, parleyPid));
      }
      const logBytes = statSync(parleyLog).size - logBefore;
      const mean = (loads: Load[], key: keyof Load) => loads.reduce((sum, l) => sum + l[key], 0) / loads.length;
      const parleyRequests = mean(parleyLoads, "rps") * SECONDS * ROUNDS;
      rows.push({
        database: databaseKind,
        endpoint: `GET ${route.replace("/api/v1", "")}`,
        parley_rps: Math.round(mean(parleyLoads, "rps")),
        twin_rps: Math.round(mean(bare, "rps")),
        ratio: +(mean(parleyLoads, "rps") / mean(bare, "rps")).toFixed(2),
        ratios: parleyLoads.map((l, i) => (l.rps / (bare[i]?.rps ?? 1)).toFixed(2)).join(" "),
        parley_cpu_us: Math.round(mean(parleyLoads, "cpu_us")),
        twin_cpu_us: Math.round(mean(bare, "cpu_us")),
        cpu_ratio: +(mean(bare, "cpu_us") / mean(parleyLoads, "cpu_us")).toFixed(2),
        parley_p50_ms: +mean(parleyLoads, "p50_ms").toFixed(1),
        parley_p99_ms: +mean(parleyLoads, "p99_ms").toFixed(1),
        twin_p99_ms: +mean(bare, "p99_ms").toFixed(1),
        parley_bytes: parleyLoads[0]?.bytes ?? 0,
        log_bytes_per_request: +(logBytes / parleyRequests).toFixed(1),
      });
    }
    console.log(`api bench: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    return { name: `api-${databaseKind}`, rows };
  } finally {
    await stop(twin);
    await stop(parley);
    await pgDb?.drop();
    rmSync(work, { recursive: true, force: true });
  }
}
