import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseKind } from "./harness.ts";
import { RealtimeClient } from "./support/realtime-client.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";

/**
 * Crash safety (issue 10 item 6): the real server is killed with SIGKILL during a live call and
 * during a burst of writes, then started again on the same database. Every write it acknowledged
 * is there, and the call is closed as failed with reason `server_crash`, its transcript kept.
 */

const serverDir = path.resolve(import.meta.dirname, "..");
const ADMIN = { email: "crash-admin@example.com", password: "Crash-test-password-1" };
const children = new Set<ChildProcess>();
let llm: ScriptedLlm;

beforeAll(async () => {
  llm = await startScriptedLlm(() => ({ text: "Noted." }));
});
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await llm.close();
});

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** A database of its own: a PGlite directory, or a fresh PostgreSQL database when the suite runs on it. */
async function freshDatabaseEnv(): Promise<Record<string, string>> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-crash-"));
  if (testDatabaseKind !== "postgres") return { DATA_DIR: dataDir };
  const adminUrl = process.env.PARLEY_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `parley_crash_${randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { DATA_DIR: dataDir, DATABASE_URL: url.toString() };
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PARLEY_SECRET_KEY: "crash-test-secret-key-crash-test-secret-key",
      PARLEY_ADMIN_EMAIL: ADMIN.email,
      PARLEY_ADMIN_PASSWORD: ADMIN.password,
      PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
    const up = await fetch(`${base}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { child, base };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not start: ${output}`);
}

async function kill(child: ChildProcess): Promise<void> {
  child.kill("SIGKILL");
  if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
  children.delete(child);
}

async function signIn(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

function api(base: string, token: string) {
  return async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}

const keylessAssistant = (name: string) => ({
  name,
  first_message: "",
  first_speaker: "user",
  llm_provider: "openai-compatible",
  llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
  stt_provider: "local",
  stt_provider_config: {},
  tts_provider: "local",
  tts_provider_config: { model: "espeak-ng", voice: "en-us" },
});

describe("kill -9", () => {
  it("keeps every acknowledged write and closes the live call as server_crash", { timeout: 180_000 }, async () => {
    const env = await freshDatabaseEnv();
    const first = await startServer(env);
    const request = api(first.base, await signIn(first.base));
    const agent = await request("POST", "/agents", keylessAssistant("Crash desk"));
    expect(agent.status).toBe(201);

    // A live call in which the caller has said something.
    const started = await request("POST", `/agents/${agent.json.id}/call`);
    expect(started.status).toBe(201);
    const { room, call_id: callId } = started.json as { room: { name: string }; call_id: string };
    const token = await request("GET", `/agents/room/generate_room_token?room_name=${room.name}&user_identity=user-x`);
    const ws = first.base.replace("http", "ws");
    const client = await RealtimeClient.connect(
      `${ws}/api/v1/realtime?token=${encodeURIComponent(String(token.json.accessToken))}`,
    );
    await client.waitFor("ready");
    client.send({ type: "text", text: "Please remember my order number." });
    await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true);

    // A burst of writes; the server dies while they are in flight.
    const acknowledged: string[] = [];
    const burst = Array.from({ length: 40 }, (_, i) =>
      request("POST", "/agents", { name: `Burst ${i}` }).then(
        (res) => {
          if (res.status === 201) acknowledged.push(String(res.json.id));
        },
        () => undefined,
      ),
    );
    while (acknowledged.length < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    await kill(first.child);
    await Promise.all(burst);
    expect(acknowledged.length).toBeGreaterThanOrEqual(5);

    const second = await startServer(env);
    const after = api(second.base, await signIn(second.base));
    const listed = (await after("GET", "/agents")).json as unknown as { id: string }[] | { data: { id: string }[] };
    const ids = new Set((Array.isArray(listed) ? listed : listed.data).map((a) => a.id));
    for (const id of acknowledged) expect(ids.has(id)).toBe(true);

    // PGlite closes the call at start-up; PostgreSQL once its heartbeat has gone stale.
    let log: Record<string, unknown> = {};
    for (let i = 0; i < 600; i += 1) {
      log = (await after("GET", `/call-logs/${callId}`)).json;
      if (log.status === "failed") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(log).toMatchObject({ status: "failed", end_reason: "server_crash" });
    expect(log.transcript).toContainEqual(
      expect.objectContaining({ role: "user", text: "Please remember my order number." }),
    );
    expect((await after("DELETE", `/call-logs/${callId}`)).status).toBe(200);
    await kill(second.child);
  });
});
