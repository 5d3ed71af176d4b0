import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Assistant, CallLog, StartCallResponse } from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testDatabaseKind } from "./harness.ts";
import { callerFirstAssistant } from "./support/assistant-fields.ts";
import { startReceiver } from "./support/loopback.ts";
import { freshPostgresDatabase } from "./support/postgres-database.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import {
  client,
  joinRoom,
  killServerProcess,
  type ServerProcess,
  signInAdmin,
  startServerProcess,
} from "./support/server-process.ts";
import { until } from "./support/until.ts";

/**
 * Crash safety (issue 10 item 6): the real server is killed with SIGKILL during a live call and
 * during a burst of writes, then started again on the same database. Every write it acknowledged
 * is there, and the call is closed as failed with reason `server_crash`, its transcript kept, and
 * announced as ended (its call.ended webhook arrives).
 */

const servers = new Set<ServerProcess>();
let llm: ScriptedLlm;
/** A webhook receiver for the events the servers send. */
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  llm = await startScriptedLlm(() => ({ text: "Noted." }));
  receiver = await startReceiver((_request, res) => res.end("ok"));
});
afterAll(async () => {
  await Promise.all([...servers].map(killServerProcess));
  await llm.close();
  await receiver?.close();
});

const WebhookEvent = z.object({
  type: z.string(),
  data: z.object({ call: z.object({ id: z.string(), end_reason: z.string().nullable() }) }),
});

/** A database of its own: a PGlite directory, or a fresh PostgreSQL database when the suite runs on it. */
async function freshDatabase(): Promise<{ dataDir: string; databaseUrl?: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-crash-"));
  if (testDatabaseKind !== "postgres") return { dataDir };
  return { dataDir, databaseUrl: (await freshPostgresDatabase("parley_crash")).url };
}

async function start(database: { dataDir: string; databaseUrl?: string }) {
  const server = await startServerProcess(database);
  servers.add(server);
  const token = await signInAdmin(server.base);
  return { server, token, api: client(server.base, token) };
}

async function kill(server: ServerProcess) {
  await killServerProcess(server);
  servers.delete(server);
}

describe("kill -9", () => {
  it("keeps every acknowledged write and closes the live call as server_crash", { timeout: 180_000 }, async () => {
    const database = await freshDatabase();
    const { server: first, token, api: request } = await start(database);
    const agent = await request("POST", "/agents", callerFirstAssistant("Crash desk", llm.baseUrl));
    expect(agent.status).toBe(201);
    const hook = await request("POST", "/webhooks", {
      url: `${receiver.origin}/`,
      events: ["call.ended"],
    });
    expect(hook.status).toBe(201);

    // A live call in which the caller has said something.
    const started = await request("POST", `/agents/${Assistant.parse(agent.body).id}/call`);
    expect(started.status).toBe(201);
    const { room, call_id: callId } = StartCallResponse.parse(started.body);
    const caller = await joinRoom(first, token, room.name, "user-x");
    caller.send({ type: "text", text: "Please remember my order number." });
    await caller.waitFor("transcript", (m) => m.role === "assistant" && m.final === true);

    // A burst of writes; the server dies while they are in flight.
    const acknowledged: string[] = [];
    const burst = Array.from({ length: 40 }, (_, i) =>
      request("POST", "/agents", { name: `Burst ${i}` }).then(
        (res) => {
          if (res.status === 201) acknowledged.push(Assistant.parse(res.body).id);
        },
        () => undefined,
      ),
    );
    while (acknowledged.length < 5) await new Promise((resolve) => setTimeout(resolve, 5));
    await kill(first);
    await Promise.all(burst);
    expect(acknowledged.length).toBeGreaterThanOrEqual(5);

    const { server: second, api: after } = await start(database);
    const listed = z.array(z.object({ id: z.string() })).parse((await after("GET", "/agents")).body);
    const ids = new Set(listed.map((a) => a.id));
    for (const id of acknowledged) expect(ids.has(id)).toBe(true);

    // PGlite closes the call at start-up; PostgreSQL once its heartbeat has gone stale.
    const log = await until(
      async () => CallLog.parse((await after("GET", `/call-logs/${callId}`)).body),
      (read) => read.status === "failed",
      "the call to be closed",
    );
    expect(log).toMatchObject({ status: "failed", end_reason: "server_crash" });
    expect(log.transcript).toContainEqual(
      expect.objectContaining({ role: "user", text: "Please remember my order number." }),
    );
    // Its end is announced like any other call's.
    const ended = await until(
      async () => receiver.received.map((request) => WebhookEvent.parse(JSON.parse(request.body))),
      (events) => events.some((e) => e.type === "call.ended" && e.data.call.id === callId),
      "the call.ended webhook",
    );
    expect(ended.find((e) => e.data.call.id === callId)?.data.call.end_reason).toBe("server_crash");
    expect((await after("DELETE", `/call-logs/${callId}`)).status).toBe(200);
    await kill(second);
  });
});
