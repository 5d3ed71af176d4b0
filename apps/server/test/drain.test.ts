import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Assistant, CallLog, ReadinessResponse, StartCallResponse } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFirstAssistant } from "./support/assistant-fields.ts";
import { builtProductCopy, descendants, freeTcpPort, isAlive, npmStart } from "./support/npm-start.ts";
import type { RealtimeClient } from "./support/realtime-client.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { ADMIN, client, joinRoom, type ServerProcess, signInAdmin } from "./support/server-process.ts";
import { until } from "./support/until.ts";

/**
 * Issue 28 item 2 and its acceptance line "`kill -TERM <npm pid>` of `npm start` stops the server
 * gracefully within DRAIN_TIMEOUT (no orphan)", on a real process started by `npm start` exactly as
 * a user does (support/npm-start.ts), on PGlite, with browser calls on local doubles (keyless
 * speech, a scripted model).
 *
 * What a draining node does with a NEW call: it still serves the HTTP API, so a call that reaches it
 * in the few seconds before the load balancer sees its readiness turn 503 is created and run to its
 * end, and the drain waits for it too. Only readiness (and SIP's 503) turn new work away.
 */

let llm: ScriptedLlm;
let product: string;
const started: NpmServer[] = [];

beforeAll(async () => {
  llm = await startScriptedLlm(() => ({ text: "Still with you." }));
  product = mkdtempSync(path.join(tmpdir(), "parley-drain-product-"));
  builtProductCopy(product);
}, 180_000);
afterAll(async () => {
  for (const server of started) if (isAlive(server.serverPid)) process.kill(server.serverPid, "SIGKILL");
  await llm?.close();
  if (product) rmSync(product, { recursive: true, force: true });
});

interface NpmServer extends ServerProcess {
  /** The server process npm started (under npm's launcher). */
  serverPid: number;
  /** npm's exit status, once it exits. */
  exited: Promise<number | null>;
  env: NodeJS.ProcessEnv;
}

/** `npm start` in the product copy with `env`, once the server it started answers. */
async function startThroughNpm(env: Record<string, string>, dataDir?: string): Promise<NpmServer> {
  const port = await freeTcpPort();
  const base = `http://127.0.0.1:${port}`;
  // Not the test runner's NODE_ENV=test: start.mjs sets production, as for a user.
  const { NODE_ENV: _runner, ...inherited } = process.env;
  const serverEnv = {
    ...inherited,
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: base,
    DATA_DIR: dataDir ?? mkdtempSync(path.join(tmpdir(), "parley-drain-data-")),
    PARLEY_SECRET_KEY: "drain-test-secret-key-drain-test-secret-key",
    PARLEY_ADMIN_EMAIL: ADMIN.email,
    PARLEY_ADMIN_PASSWORD: ADMIN.password,
    PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    LOG_LEVEL: "info",
    SIP_PORT: "off",
    // Refusing calls as busy on a shared machine's lag is tested on its own (test/admission*.test.ts).
    ADMISSION_CONTROL: "off",
    ...env,
  };
  const npm = npmStart(product, { env: serverEnv, stderr: "pipe" });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  npm.stdout?.on("data", collect);
  npm.stderr?.on("data", collect);
  const exited = once(npm, "exit").then(([code]) => code as number | null);
  await until(
    () =>
      fetch(`${base}/api/v1/health`).then(
        (res) => res.ok,
        () => npm.exitCode !== null && Promise.reject(new Error(`npm start ended: ${output}`)),
      ),
    (up) => up,
    "the server started by npm start to answer",
    170_000,
  );
  const server = descendants(npm.pid ?? 0).find((p) => p.args.includes("apps/server/dist/main.js"));
  if (!server) throw new Error(`no server process under npm: ${JSON.stringify(descendants(npm.pid ?? 0))}`);
  const running = { child: npm, base, output: () => output, serverPid: server.pid, exited, env: serverEnv };
  started.push(running);
  return running;
}

async function readiness(server: NpmServer) {
  const res = await fetch(`${server.base}/api/v1/health/ready`);
  return { status: res.status, body: ReadinessResponse.parse(await res.json()) };
}

/** An admin session on the server, an assistant on the scripted model, and a way to place calls to it. */
async function desk(server: NpmServer) {
  const token = await signInAdmin(server.base);
  const api = client(server.base, token);
  const agent = await api("POST", "/agents", callerFirstAssistant("Drain desk", llm.baseUrl));
  expect(agent.status).toBe(201);
  const agentId = Assistant.parse(agent.body).id;
  return {
    api,
    /** A browser call: started through the API, joined over the realtime socket, one exchange done. */
    async call(identity: string) {
      const res = await api("POST", `/agents/${agentId}/call`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const { room, call_id: callId } = StartCallResponse.parse(res.body);
      const caller = await joinRoom(server, token, room.name, identity);
      await talk(caller, "Hello, is anyone there?");
      return { caller, callId };
    },
  };
}

/** The caller says `text`; resolves once the assistant's reply has come, with new audio. */
async function talk(caller: RealtimeClient, text: string) {
  const replies = () => caller.messages.filter((m) => m.type === "transcript" && m.role === "assistant" && m.final);
  const before = { replies: replies().length, audio: caller.audio.length };
  caller.send({ type: "text", text });
  await caller.until(() => replies().length > before.replies, "the assistant's reply", 60_000);
  await caller.until(() => caller.audio.length > before.audio + 10, "the reply's audio", 60_000);
}

/** Sends SIGTERM to npm (`kill -TERM <npm pid>`) and measures how long readiness takes to turn 503. */
async function terminate(server: NpmServer): Promise<{ sentAt: number; unreadyAfterMs: number }> {
  const sentAt = performance.now();
  server.child.kill("SIGTERM");
  const ready = await until(
    () => readiness(server),
    (r) => r.status === 503,
    "readiness to turn 503",
    30_000,
  );
  expect(ready.body).toMatchObject({ status: "draining" });
  return { sentAt, unreadyAfterMs: Math.round(performance.now() - sentAt) };
}

/** The log lines of the server's JSON log with this message, in order. */
const lineIndex = (output: string, message: string) => output.indexOf(`"msg":"${message}`);

describe("kill -TERM <npm pid> while a browser call runs", () => {
  it("drains: readiness 503, the call goes on, a late call is still served, then exit 0 once both hang up", {
    timeout: 400_000,
  }, async () => {
    const server = await startThroughNpm({});
    const { call } = await desk(server);
    const first = await call("caller-one");

    const { sentAt, unreadyAfterMs } = await terminate(server);
    console.log(`readiness 503 after SIGTERM to npm: ${unreadyAfterMs} ms`);
    expect(isAlive(server.serverPid)).toBe(true);

    // The running call continues: the caller talks and hears the reply.
    await talk(first.caller, "Are you still there?");
    // A call reaching the node before the balancer has noticed is created and run too.
    const late = await call("caller-two");
    await talk(late.caller, "One more question.");

    first.caller.send({ type: "hangup" });
    await first.caller.closed;
    // One call is still running: the node waits for it.
    await until(
      () => readiness(server),
      (r) => r.body.active_calls === 1,
      "one call left",
    );
    expect(isAlive(server.serverPid)).toBe(true);

    const lastHangUp = performance.now();
    late.caller.send({ type: "hangup" });
    const code = await server.exited;
    const exitAt = performance.now();
    const ms = (from: number) => Math.round(exitAt - from);
    console.log(`SIGTERM to npm exit: ${ms(sentAt)} ms; last hang-up to npm exit: ${ms(lastHangUp)} ms`);
    expect(code).toBe(0);
    // No orphan: the server npm started is gone too.
    await expect.poll(() => isAlive(server.serverPid), { timeout: 10_000 }).toBe(false);
    const output = server.output();
    expect(lineIndex(output, "stop signal received")).toBeGreaterThan(-1);
    expect(lineIndex(output, "draining: taking no new calls or jobs")).toBeGreaterThan(
      lineIndex(output, "stop signal received"),
    );
    expect(lineIndex(output, "drained: no call is running")).toBeGreaterThan(
      lineIndex(output, "draining: taking no new calls or jobs"),
    );
    expect(lineIndex(output, "drain timeout reached")).toBe(-1);
  });
});

describe("DRAIN_TIMEOUT", () => {
  it("ends a call that does not hang up when the timeout is reached, as server_shutdown, and exits 0", {
    timeout: 400_000,
  }, async () => {
    const server = await startThroughNpm({ DRAIN_TIMEOUT: "3s" });
    const { call } = await desk(server);
    const { caller, callId } = await call("caller-stays");

    const { sentAt } = await terminate(server);
    const closed = await caller.closed;
    const code = await server.exited;
    const exitedAfterMs = Math.round(performance.now() - sentAt);
    console.log(`DRAIN_TIMEOUT=3s: exit ${exitedAfterMs} ms after SIGTERM`);
    expect(code).toBe(0);
    expect(exitedAfterMs).toBeGreaterThanOrEqual(3_000);
    expect(closed).toMatchObject({ reason: "server_shutdown" });
    await expect.poll(() => isAlive(server.serverPid), { timeout: 10_000 }).toBe(false);
    expect(lineIndex(server.output(), "drain timeout reached: ending the calls still running")).toBeGreaterThan(-1);

    // Started again on the same data, the call's log says why it ended.
    const again = await startThroughNpm({}, server.env.DATA_DIR);
    const api = client(again.base, await signInAdmin(again.base));
    const log = CallLog.parse((await api("GET", `/call-logs/${callId}`)).body);
    expect(log).toMatchObject({ end_reason: "server_shutdown" });
    again.child.kill("SIGTERM");
    expect(await again.exited).toBe(0);
  });
});

describe("a second SIGTERM during the drain", () => {
  it("closes at once, ending the running call", { timeout: 400_000 }, async () => {
    const server = await startThroughNpm({});
    const { call } = await desk(server);
    const { caller } = await call("caller-second-signal");

    await terminate(server);
    // Still draining: the call goes on under the default DRAIN_TIMEOUT of ten minutes.
    await talk(caller, "Still there?");
    const secondAt = performance.now();
    server.child.kill("SIGTERM");
    const code = await server.exited;
    const closedAfterMs = Math.round(performance.now() - secondAt);
    console.log(`second SIGTERM to npm exit: ${closedAfterMs} ms`);
    expect(code).toBe(0);
    expect(closedAfterMs).toBeLessThan(60_000);
    expect(await caller.closed).toMatchObject({ reason: "server_shutdown" });
    await expect.poll(() => isAlive(server.serverPid), { timeout: 10_000 }).toBe(false);
    expect(lineIndex(server.output(), "drained: no call is running")).toBe(-1);
  });
});
