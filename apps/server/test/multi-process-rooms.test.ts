import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { WorkspaceRoomsResponse } from "@parley/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STALE_MS } from "../src/modules/calls/call-upkeep.ts";
import { insertLiveRoom, removeDeadRooms } from "../src/modules/calls/live-rooms-across-workspaces.ts";
import { liveRooms } from "../src/modules/calls/schema.ts";
import { call, createTestApp, signedInUser, type TestApp, type TestUser, testDatabaseKind } from "./harness.ts";
import { createAssistant, roomToken, startRoom } from "./support/calls.ts";
import { RealtimeClient } from "./support/realtime-client.ts";

/**
 * The live_rooms table on its own (PGlite and PostgreSQL): one process writes its rooms through and
 * reads the rooms of other live processes; rows of dead processes are ignored and swept.
 * multi-process.test.ts runs two real processes against it.
 */

let t: TestApp;
let wsBase: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/realtime`;
});
afterAll(async () => {
  await t.close();
});

const rowsOf = (name: string) => t.ctx.db.select().from(liveRooms).where(eq(liveRooms.name, name));
const listed = async (token: string) =>
  WorkspaceRoomsResponse.parse((await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token })).json()).rooms;

/** A room another server process holds, its heartbeat `ageMs` old. */
async function otherProcessRoom(user: TestUser, agentId: string, name: string, ageMs: number) {
  const createdAt = new Date(Date.now() - ageMs);
  const caller = { identity: "user-far", name: "Far", kind: "caller" as const, joined_at: createdAt.toISOString() };
  const room = {
    name,
    workspaceId: user.workspaceId,
    agentId,
    agentName: "Front desk",
    callId: randomUUID(),
    channel: "web" as const,
    createdAt,
    participants: [caller],
    variables: {},
  };
  await insertLiveRoom(t.ctx.db, room, { ownerId: "another-process", nodeId: null }, createdAt);
  return room;
}

describe("rooms in the database", () => {
  it("writes a room through as it is created, joined and ended", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, { first_message: "", first_speaker: "user" });
    const { room, callId } = await startRoom(t, user.token, agent);
    await t.ctx.calls.rooms.settled();
    expect(await rowsOf(room)).toEqual([
      expect.objectContaining({ callId, ownerId: t.ctx.calls.rooms.processId, channel: "web", participants: [] }),
    ]);

    const client = await RealtimeClient.connect(
      `${wsBase}?token=${encodeURIComponent(await roomToken(t, user.token, room))}`,
    );
    await client.waitFor("ready");
    await t.ctx.calls.rooms.settled();
    const [row] = await rowsOf(room);
    expect(row?.participants.map((p) => p.kind).sort()).toEqual(["agent", "caller"]);

    client.send({ type: "hangup" });
    await client.closed;
    await t.ctx.calls.rooms.settled();
    expect(await rowsOf(room)).toEqual([]);
  });

  it("lists the rooms of other live processes, not those of dead ones nor other workspaces'", async () => {
    const user = await signedInUser(t);
    const stranger = await signedInUser(t);
    const agent = await createAssistant(t, user.token, {});
    const live = await otherProcessRoom(user, agent, "call-a1a1a1a1a1a1", 1_000);
    await otherProcessRoom(user, agent, "call-dead00dead00", STALE_MS + 5_000);

    const rooms = await listed(user.token);
    expect(rooms.map((r) => r.name)).toEqual([live.name]);
    expect(rooms[0]).toMatchObject({
      agent_id: agent,
      call_id: live.callId,
      participants: [expect.objectContaining({ identity: "user-far", kind: "caller" })],
    });
    expect(await listed(stranger.token)).toEqual([]);
    // Another workspace's room is not found, wherever it runs.
    const res = await call(
      t,
      "POST",
      `/api/v1/agents/room/${live.name}/remove_participant?participant_identity=user-far`,
      {
        token: stranger.token,
      },
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe("Room not found.");
  });

  it("sweeps the rooms of dead processes, and keeps live ones", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, {});
    const live = await otherProcessRoom(user, agent, "call-b2b2b2b2b2b2", 1_000);
    const dead = await otherProcessRoom(user, agent, "call-deadbeefdead", STALE_MS + 5_000);
    await removeDeadRooms(t.ctx.db, t.ctx.calls.rooms.processId, new Date(Date.now() - STALE_MS));
    expect(await rowsOf(dead.name)).toEqual([]);
    expect(await rowsOf(live.name)).toHaveLength(1);
  });
});

describe.skipIf(testDatabaseKind !== "postgres")(
  "two apps on one PostgreSQL database (PARLEY_TEST_DB=postgres)",
  () => {
    let other: TestApp;
    let otherWs: string;

    beforeAll(async () => {
      other = await createTestApp({ DATABASE_URL: t.config.databaseUrl ?? "" });
      await other.app.listen({ host: "127.0.0.1", port: 0 });
      otherWs = `ws://127.0.0.1:${(other.app.server.address() as AddressInfo).port}/api/v1/realtime`;
    });
    afterAll(async () => {
      await other.close();
    });

    it("hands a room nobody joined to the process its caller reached, which then runs the call", async () => {
      const user = await signedInUser(t);
      const agent = await createAssistant(t, user.token, { first_message: "", first_speaker: "user" });
      const { room, callId } = await startRoom(t, user.token, agent);
      const token = await roomToken(t, user.token, room);
      await t.ctx.calls.rooms.settled();

      const claimed = await other.ctx.calls.rooms.claim(user.workspaceId, { callId });
      expect(claimed).toMatchObject({ name: room, callId, agentId: agent, channel: "web" });
      expect(t.ctx.calls.rooms.get(room)).toBeUndefined();
      expect(await rowsOf(room)).toEqual([expect.objectContaining({ ownerId: other.ctx.calls.rooms.processId })]);
      // Another workspace cannot claim it, nor can anyone claim it twice.
      const stranger = await signedInUser(t);
      expect(await t.ctx.calls.rooms.claim(stranger.workspaceId, { room })).toBeUndefined();

      // The token the first process signed opens the call on the second one.
      const client = await RealtimeClient.connect(`${otherWs}?token=${encodeURIComponent(token)}`);
      await client.waitFor("ready");
      await other.ctx.calls.rooms.settled();
      const listed = await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token: user.token });
      expect(WorkspaceRoomsResponse.parse(listed.json()).rooms).toEqual([
        expect.objectContaining({ name: room, participants: expect.arrayContaining([expect.anything()]) }),
      ]);
      // A joined room stays where it runs.
      expect(await t.ctx.calls.rooms.claim(user.workspaceId, { room })).toBeUndefined();

      const res = await call(
        t,
        "POST",
        `/api/v1/agents/room/${room}/remove_participant?participant_identity=user-test`,
        {
          token: user.token,
        },
      );
      expect(res.statusCode).toBe(200);
      await client.closed;
      const log = await call(t, "GET", `/api/v1/call-logs/${callId}`, { token: user.token });
      expect(log.json()).toMatchObject({ status: "completed", end_reason: "removed" });
    });
  },
);
