import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  CallLogSummary,
  ErrorResponse,
  MessageResponse,
  StartCallResponse,
  WorkspaceRoomsResponse,
} from "@parley/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimsOf, testDatabaseKind } from "./harness.ts";
import { freshPostgresDatabase, type PostgresDatabase } from "./support/postgres-database.ts";
import {
  client,
  joinRoom,
  type Reply,
  type ServerProcess as Server,
  signInAdmin,
  startServerProcess,
  stopServerProcess,
} from "./support/server-process.ts";
import { until } from "./support/until.ts";

const startServer = (databaseUrl: string) =>
  startServerProcess({ dataDir: mkdtempSync(path.join(tmpdir(), "parley-scale-")), databaseUrl });

/**
 * Issue 12 item 6: two real server processes on one PostgreSQL, as behind a load balancer. A call
 * held by process A is listed by B and removed through B (B NOTIFYs, A ends the call and answers);
 * the workspace's concurrency limit holds when both start calls at the same moment. PGlite is one
 * process per data directory, so this file runs only with PARLEY_TEST_DB=postgres.
 */

const onPostgres = testDatabaseKind === "postgres";

/** Requests on one process with the signed-in user's token. */
const on = (server: Server) => client(server.base, token);

const roomsOn = async (server: Server) =>
  WorkspaceRoomsResponse.parse((await on(server)("GET", "/agents/room/workspace_rooms")).body).rooms;
const detailOf = (reply: Reply) => ErrorResponse.parse(reply.body).detail;
const removeOn = (server: Server, room: string, identity: string) =>
  on(server)("POST", `/agents/room/${room}/remove_participant?participant_identity=${identity}`);

let database: PostgresDatabase;
let a: Server;
let b: Server;
let token: string;
let agentId: string;

beforeAll(async () => {
  if (!onPostgres) return;
  database = await freshPostgresDatabase("parley_scale");
  // One after the other: the first runs the migrations, the second finds them done.
  a = await startServer(database.url);
  b = await startServer(database.url);
  token = await signInAdmin(a.base);
  const agent = await on(a)("POST", "/agents", {
    name: "Scale desk",
    first_message: "",
    first_speaker: "user",
    stt_provider: "local",
    stt_provider_config: {},
    tts_provider: "local",
    tts_provider_config: { model: "espeak-ng", voice: "en-us" },
    llm_provider: "openai-compatible",
    // Nobody speaks in these calls, so the model is never asked.
    llm_provider_config: { model: "scripted", base_url: "http://127.0.0.1:9/v1" },
  });
  if (agent.status !== 201) throw new Error(`create assistant failed: ${JSON.stringify(agent.body)}`);
  agentId = CallLogSummary.pick({ id: true }).parse(agent.body).id;
}, 240_000);

afterAll(async () => {
  if (!onPostgres) return;
  await Promise.all([a, b].filter(Boolean).map(stopServerProcess));
  await database?.drop();
}, 60_000);

/** Starts a call on `server` and joins it there. */
async function joinCall(server: Server, identity: string) {
  const started = await on(server)("POST", `/agents/${agentId}/call`);
  expect(started.status).toBe(201);
  const { room, call_id: callId } = StartCallResponse.parse(started.body);
  return { room: room.name, callId, client: await joinRoom(server, token, room.name, identity) };
}

const closedLog = (server: Server, callId: string) =>
  until(
    async () => CallLogSummary.parse((await on(server)("GET", `/call-logs/${callId}`)).body),
    (log) => log.status === "completed" || log.status === "failed",
    "the call log to close",
  );

const setLimit = async (limit: number) => {
  const workspaceId = String(claimsOf(token).workspace_id);
  const res = await on(a)("PATCH", `/workspaces/${workspaceId}`, { concurrency_limit: limit });
  expect(res.status).toBe(200);
};

describe.skipIf(!onPostgres)("two server processes on one PostgreSQL (runs with PARLEY_TEST_DB=postgres)", () => {
  it("lists a call held by process A on process B, and B's remove_participant ends it on A", {
    timeout: 120_000,
  }, async () => {
    await setLimit(5);
    const { room, callId, client } = await joinCall(a, "user-scale");

    // B sees A's room with both participants (written through as they joined).
    const rooms = await until(
      () => roomsOn(b),
      (list) => list.some((x) => x.name === room && x.participants.length === 2),
      "A's room on B with its caller and assistant",
    );
    const seen = rooms.find((x) => x.name === room);
    expect(seen).toMatchObject({ agent_id: agentId, agent_name: "Scale desk", call_id: callId });
    expect(seen?.participants).toContainEqual(expect.objectContaining({ identity: "user-scale", kind: "caller" }));

    // An identity that is not in the room is A's to refuse, through B.
    const absent = await removeOn(b, room, "nobody");
    expect(absent.status).toBe(404);
    expect(detailOf(absent)).toBe("Participant not found.");

    const removed = await removeOn(b, room, "user-scale");
    expect(removed.status).toBe(200);
    expect(MessageResponse.parse(removed.body).message).toBe("Participant removed. The call has ended.");
    // B answered after A ended the call: the socket on A closes with the end, the log reads "removed".
    const closed = await client.closed;
    expect(closed.code).toBe(1000);
    expect(client.messages).toContainEqual(expect.objectContaining({ type: "end", reason: "removed" }));
    expect(await closedLog(b, callId)).toMatchObject({ status: "completed", end_reason: "removed" });
    for (const server of [a, b]) {
      await until(
        () => roomsOn(server),
        (list) => !list.some((x) => x.name === room),
        "the room to be gone everywhere",
      );
    }
    expect(detailOf(await removeOn(b, room, "user-scale"))).toBe("Room not found.");
  });

  it("holds a concurrency limit of 1 when A and B start calls at the same moment", { timeout: 180_000 }, async () => {
    await setLimit(1);
    for (let round = 0; round < 3; round += 1) {
      const starts = await Promise.all(
        [a, b, a, b].map(async (server) => ({ server, res: await on(server)("POST", `/agents/${agentId}/call`) })),
      );
      const won = starts.filter((s) => s.res.status === 201);
      const refused = starts.filter((s) => s.res.status === 429);
      expect(won).toHaveLength(1);
      expect(refused).toHaveLength(3);
      for (const s of refused) {
        expect(detailOf(s.res)).toBe("This workspace is already running its maximum of 1 concurrent calls.");
      }
      // The winner's call runs and ends; its slot is free again for the next round.
      const winner = won[0];
      if (!winner) throw new Error("no call started");
      const started = StartCallResponse.parse(winner.res.body);
      const client = await joinRoom(winner.server, token, started.room.name, "user-race");
      // While it runs, the other process refuses a new call too.
      const other = winner.server === a ? b : a;
      expect((await on(other)("POST", `/agents/${agentId}/call`)).status).toBe(429);
      client.send({ type: "hangup" });
      await client.closed;
      await closedLog(other, started.call_id);
    }
  });

  it("answers 504 when the process holding the call does not answer, and the call still ends once it does", {
    timeout: 120_000,
  }, async () => {
    await setLimit(5);
    const { room, callId, client } = await joinCall(a, "user-frozen");
    await until(
      () => roomsOn(b),
      (list) => list.some((x) => x.name === room),
      "A's room on B",
    );
    // A frozen process (a long GC pause, a stopped container) hears nothing until it resumes.
    a.child.kill("SIGSTOP");
    try {
      const res = await removeOn(b, room, "user-frozen");
      expect(res.status).toBe(504);
      expect(detailOf(res)).toBe(
        "The server process running this call did not answer in time. The call may still be running: try again.",
      );
    } finally {
      a.child.kill("SIGCONT");
    }
    // The request was delivered all the same: A acts on it when it resumes.
    await client.closed;
    expect((await closedLog(b, callId)).end_reason).toBe("removed");
  });
});
