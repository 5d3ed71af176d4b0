import {
  ErrorResponse,
  MessageResponse,
  RoomTokenResponse,
  StartCallResponse,
  WorkspaceRoomsResponse,
} from "@parley/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { claimsOf, testDatabaseKind } from "./harness.ts";
import { callerFirstAssistant } from "./support/assistant-fields.ts";
import {
  createAssistantOn,
  joinRoom,
  type Reply,
  type ServerProcess as Server,
  useProcessPair,
} from "./support/server-process.ts";
import { until } from "./support/until.ts";

/**
 * Issue 12 item 6: two real server processes on one PostgreSQL, as behind a load balancer. A call
 * held by process A is listed by B and removed through B (B NOTIFYs, A ends the call and answers);
 * the workspace's concurrency limit holds when both start calls at the same moment. PGlite is one
 * process per data directory, so this file runs only with PARLEY_TEST_DB=postgres.
 */

const onPostgres = testDatabaseKind === "postgres";

const pair = useProcessPair("parley_scale", onPostgres);
const { on, closedLog } = pair;
let agentId: string;

const roomsOn = async (server: Server) =>
  WorkspaceRoomsResponse.parse((await on(server)("GET", "/agents/room/workspace_rooms")).body).rooms;
const detailOf = (reply: Reply) => ErrorResponse.parse(reply.body).detail;
const removeOn = (server: Server, room: string, identity: string) =>
  on(server)("POST", `/agents/room/${room}/remove_participant?participant_identity=${identity}`);

beforeAll(async () => {
  if (!onPostgres) return;
  // Nobody speaks in these calls, so the model is never asked.
  agentId = await createAssistantOn(on(pair.a), callerFirstAssistant("Scale desk"));
}, 60_000);

/** Starts a call on `server` and joins it there. */
async function joinCall(server: Server, identity: string) {
  const started = await on(server)("POST", `/agents/${agentId}/call`);
  expect(started.status).toBe(201);
  const { room, call_id: callId } = StartCallResponse.parse(started.body);
  return { room: room.name, callId, client: await joinRoom(server, pair.token, room.name, identity) };
}

const setLimit = async (limit: number) => {
  const workspaceId = String(claimsOf(pair.token).workspace_id);
  const res = await on(pair.a)("PATCH", `/workspaces/${workspaceId}`, { concurrency_limit: limit });
  expect(res.status).toBe(200);
};

describe.skipIf(!onPostgres)("two server processes on one PostgreSQL (runs with PARLEY_TEST_DB=postgres)", () => {
  it("lists a call held by process A on process B, and B's remove_participant ends it on A", {
    timeout: 120_000,
  }, async () => {
    await setLimit(5);
    const { room, callId, client } = await joinCall(pair.a, "user-scale");

    // B sees A's room with both participants (written through as they joined).
    const rooms = await until(
      () => roomsOn(pair.b),
      (list) => list.some((x) => x.name === room && x.participants.length === 2),
      "A's room on B with its caller and assistant",
    );
    const seen = rooms.find((x) => x.name === room);
    expect(seen).toMatchObject({ agent_id: agentId, agent_name: "Scale desk", call_id: callId });
    expect(seen?.participants).toContainEqual(expect.objectContaining({ identity: "user-scale", kind: "caller" }));

    // An identity that is not in the room is A's to refuse, through B.
    const absent = await removeOn(pair.b, room, "nobody");
    expect(absent.status).toBe(404);
    expect(detailOf(absent)).toBe("Participant not found.");

    const removed = await removeOn(pair.b, room, "user-scale");
    expect(removed.status).toBe(200);
    expect(MessageResponse.parse(removed.body).message).toBe("Participant removed. The call has ended.");
    // B answered after A ended the call: the socket on A closes with the end, the log reads "removed".
    const closed = await client.closed;
    expect(closed.code).toBe(1000);
    expect(client.messages).toContainEqual(expect.objectContaining({ type: "end", reason: "removed" }));
    expect(await closedLog(pair.b, callId)).toMatchObject({ status: "completed", end_reason: "removed" });
    for (const server of [pair.a, pair.b]) {
      await until(
        () => roomsOn(server),
        (list) => !list.some((x) => x.name === room),
        "the room to be gone everywhere",
      );
    }
    expect(detailOf(await removeOn(pair.b, room, "user-scale"))).toBe("Room not found.");
  });

  it("signs a room token on B the moment A has answered the room's creation (a balancer's next request)", {
    timeout: 180_000,
  }, async () => {
    await setLimit(5);
    for (let round = 0; round < 8; round += 1) {
      const started = await on(pair.a)("POST", `/agents/${agentId}/call`);
      expect(started.status).toBe(201);
      const { room } = StartCallResponse.parse(started.body);
      const query = new URLSearchParams({ room_name: room.name, user_identity: `user-next-${round}`, name: "User" });
      const token = await on(pair.b)("GET", `/agents/room/generate_room_token?${query}`);
      expect(token.status, JSON.stringify(token.body)).toBe(200);
      expect(RoomTokenResponse.parse(token.body).result).toBe("success");
      // The call is joined and hung up, so its slot is free for the next round and test.
      const client = await joinRoom(pair.a, pair.token, room.name, `user-next-${round}`);
      client.send({ type: "hangup" });
      await client.closed;
      await closedLog(pair.a, StartCallResponse.parse(started.body).call_id);
    }
  });

  it("holds a concurrency limit of 1 when A and B start calls at the same moment", { timeout: 180_000 }, async () => {
    await setLimit(1);
    for (let round = 0; round < 3; round += 1) {
      const starts = await Promise.all(
        [pair.a, pair.b, pair.a, pair.b].map(async (server) => ({
          server,
          res: await on(server)("POST", `/agents/${agentId}/call`),
        })),
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
      const client = await joinRoom(winner.server, pair.token, started.room.name, "user-race");
      // While it runs, the other process refuses a new call too.
      const other = winner.server === pair.a ? pair.b : pair.a;
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
    const { room, callId, client } = await joinCall(pair.a, "user-frozen");
    await until(
      () => roomsOn(pair.b),
      (list) => list.some((x) => x.name === room),
      "A's room on B",
    );
    // A frozen process (a long GC pause, a stopped container) hears nothing until it resumes.
    pair.a.child.kill("SIGSTOP");
    try {
      const res = await removeOn(pair.b, room, "user-frozen");
      expect(res.status).toBe(504);
      expect(detailOf(res)).toBe(
        "The server process running this call did not answer in time. The call may still be running: try again.",
      );
    } finally {
      pair.a.child.kill("SIGCONT");
    }
    // The request was delivered all the same: A acts on it when it resumes.
    await client.closed;
    expect((await closedLog(pair.b, callId)).end_reason).toBe("removed");
  });
});
