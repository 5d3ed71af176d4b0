import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { CallLogSummary, RoomTokenResponse } from "@parley/contract";
import { afterAll, beforeAll } from "vitest";
import { z } from "zod";
import { callerFirstAssistant } from "./assistant-fields.ts";
import { freshPostgresDatabase, type PostgresDatabase } from "./postgres-database.ts";
import { RealtimeClient } from "./realtime-client.ts";
import { until } from "./until.ts";

/** A Parley server in its own process, as `npm start` runs it (from source through tsx). */

const serverDir = path.resolve(import.meta.dirname, "../..");
export const ADMIN = { email: "process-admin@example.com", password: "Process-test-password-1" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ServerProcess {
  child: ChildProcess;
  base: string;
  output(): string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (!address || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** Starts a server on `dataDir` (PGlite) or `databaseUrl` (PostgreSQL) and waits until it answers. */
export async function startServerProcess(options: { dataDir: string; databaseUrl?: string }): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      // A server started beside other tests on a shared machine would refuse calls as busy at
      // random; refusing is tested on its own (test/admission*.test.ts).
      ADMISSION_CONTROL: "off",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: options.dataDir,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      PARLEY_SECRET_KEY: "process-test-secret-key-process-test-secret-key",
      PARLEY_ADMIN_EMAIL: ADMIN.email,
      PARLEY_ADMIN_PASSWORD: ADMIN.password,
      PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
      LOG_LEVEL: "warn",
      SIP_PORT: "off",
      // A SIGTERM drains (waits for running calls); these tests stop servers with calls or rooms
      // still open and want them ended promptly as server_shutdown, as before drains existed.
      DRAIN_TIMEOUT: "3s",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const base = `http://127.0.0.1:${port}`;
  // Loading the server through tsx on two cores busy with other tests can take well over a minute.
  const deadline = Date.now() + 170_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
    const up = await fetch(`${base}/api/v1/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { child, base, output: () => output };
    await sleep(100);
  }
  child.kill("SIGKILL");
  throw new Error(`the server did not start: ${output}`);
}

/** Two server processes on one fresh PostgreSQL database, as behind a load balancer. */
export interface ProcessPair {
  database: PostgresDatabase;
  a: ServerProcess;
  b: ServerProcess;
  /** The administrator's access token (valid on both: they share the secret key and database). */
  token: string;
  /** The administrator's requests to one of the processes. */
  on(server: ServerProcess): ReturnType<typeof client>;
  /** A call log read on `server` once the call is closed (completed or failed). */
  closedLog(server: ServerProcess, callId: string): Promise<CallLogSummary>;
}

/**
 * For one test file about two processes sharing a PostgreSQL database (so it runs only when the
 * suite does, `enabled`): starts them on a fresh database named after `prefix` before the file's
 * tests, one after the other (the first runs the migrations, the second finds them done), and
 * stops them after. Read the pair's fields inside the file's own hooks and tests.
 */
export function useProcessPair(prefix: string, enabled: boolean): ProcessPair {
  const pair = {} as ProcessPair;
  beforeAll(async () => {
    if (!enabled) return;
    pair.database = await freshPostgresDatabase(prefix);
    const start = () =>
      startServerProcess({ dataDir: mkdtempSync(path.join(tmpdir(), `${prefix}-`)), databaseUrl: pair.database.url });
    pair.a = await start();
    pair.b = await start();
    pair.token = await signInAdmin(pair.a.base);
  }, 240_000);
  afterAll(async () => {
    await Promise.all([pair.a, pair.b].filter(Boolean).map(stopServerProcess));
    await pair.database?.drop();
  }, 60_000);
  pair.on = (server) => client(server.base, pair.token);
  pair.closedLog = (server, callId) =>
    until(
      async () => CallLogSummary.parse((await pair.on(server)("GET", `/call-logs/${callId}`)).body),
      (log) => log.status === "completed" || log.status === "failed",
      "the call log to close",
    );
  return pair;
}

export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = once(server.child, "exit");
  server.child.kill("SIGTERM");
  await exited;
}

/** kill -9: the process gets no chance to finish anything. */
export async function killServerProcess(server: ServerProcess): Promise<void> {
  const exited = once(server.child, "exit");
  server.child.kill("SIGKILL");
  await exited;
}

export async function signInAdmin(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: ADMIN.email, password: ADMIN.password }),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return z.object({ access_token: z.string() }).parse(await res.json()).access_token;
}

export interface Reply {
  status: number;
  body: unknown;
}

/** JSON requests to one process with a token. */
export function client(base: string, token: string) {
  return async (method: string, url: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json() };
  };
}

/** Joins a started call's room as a browser would, on the process that holds it, once it is ready. */
export async function joinRoom(server: ServerProcess, token: string, room: string, identity: string) {
  const query = new URLSearchParams({ room_name: room, user_identity: identity, name: "Tess" });
  const reply = await client(server.base, token)("GET", `/agents/room/generate_room_token?${query}`);
  const grant = RoomTokenResponse.parse(reply.body);
  const ws = server.base.replace("http", "ws");
  const caller = await RealtimeClient.connect(`${ws}/api/v1/realtime?token=${encodeURIComponent(grant.accessToken)}`);
  await caller.waitFor("ready", () => true, 60_000);
  return caller;
}

/** Creates an assistant through a process's API and returns its id. */
export async function createAssistantOn(api: ReturnType<typeof client>, fields: Record<string, unknown>) {
  const agent = await api("POST", "/agents", fields);
  if (agent.status !== 201) throw new Error(`create assistant failed: ${JSON.stringify(agent.body)}`);
  return z.object({ id: z.string() }).parse(agent.body).id;
}

/**
 * The signed-in administrator's workspace made ready for a campaign through the API: concurrency
 * limit raised, the vendor integration pointed at a local double, an assistant, and the double's
 * number with that assistant for outbound calls. Returns the number's id.
 */
export async function prepareWorkspace(
  api: ReturnType<typeof client>,
  options: { concurrencyLimit: number; credentials: Record<string, string>; number: string },
): Promise<string> {
  const workspaces = z
    .union([
      z.array(z.object({ id: z.string(), is_current: z.boolean() })),
      z.object({ data: z.array(z.object({ id: z.string(), is_current: z.boolean() })) }),
    ])
    .parse((await api("GET", "/workspaces")).body);
  const list = Array.isArray(workspaces) ? workspaces : workspaces.data;
  const current = list.find((w) => w.is_current) ?? list[0];
  if (!current) throw new Error("no workspace");
  const expectOk = (reply: Reply, what: string) => {
    if (reply.status >= 300) throw new Error(`${what} failed: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  expectOk(
    await api("PATCH", `/workspaces/${current.id}`, { concurrency_limit: options.concurrencyLimit }),
    "raising the limit",
  );
  expectOk(await api("PUT", "/integrations/twilio", { credentials: options.credentials }), "saving the integration");
  // Every call in these tests is busy: the model is never asked.
  const agentId = await createAssistantOn(api, callerFirstAssistant("Campaign desk"));
  const number = expectOk(
    await api("POST", "/phone-numbers", { number: options.number, provider: "twilio", outbound_agent_id: agentId }),
    "adding the number",
  );
  return z.object({ id: z.string() }).parse(number).id;
}
