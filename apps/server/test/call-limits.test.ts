import { describe, expect, it } from "vitest";
import { claimRoomToken, createCallLog } from "../src/modules/call-logs/service.ts";
import { STALE_MS } from "../src/modules/calls/call-upkeep.ts";
import { minutesUsedUpText } from "../src/modules/calls/minutes-allowance.ts";
import { TEXT_RATE_MESSAGE } from "../src/modules/calls/realtime-socket.ts";
import { saveQuota } from "../src/modules/users/limits.ts";
import { call, claimsOf, signedInUser } from "./harness.ts";
import { callerFirstAssistant } from "./support/assistant-fields.ts";
import { createAssistant, roomToken, startRoom } from "./support/calls.ts";
import { recordPastCall } from "./support/past-calls.ts";
import { closedCallLog, connectRealtime, joinCall, useCallApp } from "./support/realtime-calls.ts";

/** Per-call resource limits: caller audio no faster than real time, typed messages at a person's pace. */

const t = useCallApp(() => ({ text: "Noted." }));

const assistant = () => callerFirstAssistant("Front desk", t.llm.baseUrl);

async function joinNewCall(fields: Record<string, unknown> = {}) {
  const user = await signedInUser(t);
  const agent = await createAssistant(t, user.token, { ...assistant(), ...fields });
  const { client, callId } = await joinCall(t, user.token, agent);
  await client.waitFor("ready");
  return { user, client, callId };
}

describe("caller audio", () => {
  it("drops audio sent faster than real time: a flood of 400 s does not become a 400 s recording", async () => {
    const { user, client, callId } = await joinNewCall();
    const startedAt = Date.now();
    const frame = new Int16Array(320).fill(1000);
    // 400 s of 20 ms frames, as fast as the socket takes them.
    for (let i = 0; i < 20_000; i += 1) client.sendPcm(frame);
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.send({ type: "hangup" });
    await client.closed;
    const wallSeconds = (Date.now() - startedAt) / 1000;
    await closedCallLog(t, user.token, callId);
    const wav = (await call(t, "GET", `/api/v1/call-logs/${callId}/recording`, { token: user.token })).rawPayload;
    // 16 kHz 16-bit stereo: 64 000 bytes a second; a second of catch-up is allowed.
    const recordedSeconds = (wav.length - 44) / 64_000;
    expect(recordedSeconds).toBeLessThan(wallSeconds + 1.5);
  });
});

describe("typed messages", () => {
  it("takes a few at once, then refuses the rest with a message, per call", async () => {
    const { user, client, callId } = await joinNewCall();
    for (let i = 0; i < 30; i += 1) client.send({ type: "text", text: `Message number ${i}` });
    await client.waitFor("error", (m) => m.message === TEXT_RATE_MESSAGE);
    await new Promise((resolve) => setTimeout(resolve, 500));
    client.send({ type: "hangup" });
    await client.closed;
    const log = await closedCallLog(t, user.token, callId);
    const typed = log.transcript.filter((line: { role: string }) => line.role === "user");
    expect(typed.length).toBeGreaterThan(0);
    expect(typed.length).toBeLessThanOrEqual(6);
  });
});

describe("the concurrent-call limit", () => {
  async function withLimit(limit: number) {
    const user = await signedInUser(t);
    const res = await call(t, "PATCH", `/api/v1/workspaces/${user.workspaceId}`, {
      token: user.token,
      body: { concurrency_limit: limit },
    });
    expect(res.statusCode).toBe(200);
    const agent = await createAssistant(t, user.token, assistant());
    return { user, agent, start: () => call(t, "POST", `/api/v1/agents/${agent}/call`, { token: user.token }) };
  }

  it("lets exactly the limit through when calls start at the same moment", async () => {
    const { start } = await withLimit(5);
    const codes = (await Promise.all(Array.from({ length: 10 }, start))).map((res) => res.statusCode);
    expect(codes.filter((code) => code === 201)).toHaveLength(5);
    expect(codes.filter((code) => code === 429)).toHaveLength(5);
  });

  it("counts the calls another server process runs, but not those of one that stopped", async () => {
    const { user, agent, start } = await withLimit(2);
    // Another process's live call (fresh heartbeat) and a crashed one's (stale heartbeat).
    const other = { agentId: agent, agentName: "Front desk", channel: "web" as const, direction: "inbound" as const };
    await createCallLog(t.ctx.db, user, other);
    await createCallLog(t.ctx.db, user, other, new Date(Date.now() - STALE_MS - 5_000));
    expect((await start()).statusCode).toBe(201);
    const refused = await start();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toBe("This workspace is already running its maximum of 2 concurrent calls.");
  });
});

describe("room tokens", () => {
  it("refuse a token another server process has already used", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, assistant());
    const { room } = await startRoom(t, user.token, agent);
    const token = await roomToken(t, user.token, room);
    const { jti, exp } = claimsOf(token);
    // The other process's claim is a row in the shared database.
    expect(await claimRoomToken(t.ctx.db, String(jti), new Date(Number(exp) * 1000), new Date())).toBe(true);
    const client = await connectRealtime(t, token);
    expect((await client.closed).code).toBe(4401);
  });
});

describe("minutes per month", () => {
  it("refuses a call once the owner's plan has used its monthly minutes, counted over every workspace they own", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, assistant());
    await saveQuota(t.ctx.db, user.user.id, {
      maxAssistants: 10,
      minutesPerMonth: 2,
      concurrentCalls: 5,
      maxWorkspaces: 3,
      updatedAt: new Date(),
    });
    // A first call of 90 s leaves half a minute: the next call may start.
    await recordPastCall(t, user.workspaceId, agent, 90);
    const allowed = await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: user.token });
    expect(allowed.statusCode, allowed.body).toBe(201);
    await recordPastCall(t, user.workspaceId, agent, 30);
    const refused = await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: user.token });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({ detail: minutesUsedUpText(2) });
  });
});
