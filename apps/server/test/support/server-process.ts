import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import path from "node:path";
import { RoomTokenResponse } from "@parley/contract";
import { z } from "zod";
import { RealtimeClient } from "./realtime-client.ts";

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
  const deadline = Date.now() + 90_000;
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
  const agent = expectOk(
    await api("POST", "/agents", {
      name: "Campaign desk",
      first_message: "",
      first_speaker: "user",
      stt_provider: "local",
      stt_provider_config: {},
      tts_provider: "local",
      tts_provider_config: { model: "espeak-ng", voice: "en-us" },
      llm_provider: "openai-compatible",
      // Every call in these tests is busy: the model is never asked.
      llm_provider_config: { model: "scripted", base_url: "http://127.0.0.1:9/v1" },
    }),
    "creating the assistant",
  );
  const agentId = z.object({ id: z.string() }).parse(agent).id;
  const number = expectOk(
    await api("POST", "/phone-numbers", { number: options.number, provider: "twilio", outbound_agent_id: agentId }),
    "adding the number",
  );
  return z.object({ id: z.string() }).parse(number).id;
}
