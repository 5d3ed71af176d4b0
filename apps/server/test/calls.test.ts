import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCallLog } from "../src/modules/call-logs/queries.ts";
import { call, claimsOf, signedInUser } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant, roomToken, startRoom, startWebhook } from "./support/calls.ts";
import { startMcpServer } from "./support/mcp-server.ts";
import {
  APP_ORIGIN,
  closedCallLog,
  connectRealtime,
  realtimeUrl,
  startListeningApp,
  useCallApp,
} from "./support/realtime-calls.ts";
import { RealtimeClient } from "./support/realtime-client.ts";
import { lastUserText, type ModelScript } from "./support/scripted-llm.ts";
import { readWavHeader } from "./support/wav.ts";

/** Room rules, room tokens, the socket's admission checks, and whole calls over a real WebSocket. */

let webhook: Awaited<ReturnType<typeof startWebhook>>;

/** The model: asks the hours function when asked about hours, then answers from its result. */
const script: ModelScript = (request) => {
  const toolResult = request.messages.findLast((m) => m.role === "tool")?.content;
  if (toolResult) {
    return { text: toolResult.includes("9am") ? "We open at nine in the morning." : `The next slot is ${toolResult}.` };
  }
  const said = lastUserText(request);
  if (/hours/i.test(said)) return { toolCall: { name: "check_hours", arguments: '{"day":"monday"}' } };
  const offered = request.tools?.map((t) => t.function.name) ?? [];
  if (/appointment/i.test(said) && offered.includes("clinic_tools__next_slot")) {
    return { toolCall: { name: "clinic_tools__next_slot", arguments: '{"doctor":"Lee"}' } };
  }
  return { text: "Happy to help with that." };
};

const t = useCallApp(script);

beforeAll(async () => {
  webhook = await startWebhook({ open: "9am", close: "5pm" });
});
afterAll(async () => {
  await webhook.close();
});

const connect = (token: string, origin: string | undefined = APP_ORIGIN) =>
  connectRealtime(t, token, origin ? { origin } : {});

async function setLimit(user: { token: string; workspaceId: string }, limit: number) {
  const res = await call(t, "PATCH", `/api/v1/workspaces/${user.workspaceId}`, {
    token: user.token,
    body: { concurrency_limit: limit },
  });
  expect(res.statusCode).toBe(200);
}

describe("starting a call", () => {
  it("creates a room and a queued web call log", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, { name: "Front desk" });
    const res = await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: a.token });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.room).toMatchObject({ agent_id: agent });
    expect(body.room.name).toMatch(/^call-[0-9a-f]{12}$/);
    expect(Date.parse(body.room.created_at)).not.toBeNaN();
    const log = await call(t, "GET", `/api/v1/call-logs/${body.call_id}`, { token: a.token });
    expect(log.json()).toMatchObject({
      status: "queued",
      channel: "web",
      direction: "inbound",
      agent_id: agent,
      agent_name: "Front desk",
      end_reason: null,
    });
  });

  it("answers 404 for an assistant of another workspace, 401 without sign-in", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const agent = await createAssistant(t, a.token, {});
    expect((await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: b.token })).statusCode).toBe(404);
    expect((await call(t, "POST", `/api/v1/agents/${agent}/call`)).statusCode).toBe(401);
  });

  it("refuses a call over the workspace's concurrency limit with 429", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, {});
    await setLimit(a, 2);
    await startRoom(t, a.token, agent);
    await startRoom(t, a.token, agent);
    const third = await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: a.token });
    expect(third.statusCode).toBe(429);
    expect(third.json().detail).toBe("This workspace is already running its maximum of 2 concurrent calls.");
    const stats = await call(t, "GET", "/api/v1/call-logs/stats", { token: a.token });
    expect(stats.json().active_calls).toBe(2);

    const b = await signedInUser(t);
    const other = await createAssistant(t, b.token, {});
    await setLimit(b, 0);
    const none = await call(t, "POST", `/api/v1/agents/${other}/call`, { token: b.token });
    expect(none.statusCode).toBe(429);
    expect(none.json().detail).toBe("This workspace is already running its maximum of 0 concurrent calls.");
  });
});

describe("room tokens", () => {
  it("issues a one-room token valid 60 s with identity, name and workspace", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, {});
    const { room } = await startRoom(t, a.token, agent);
    const query = new URLSearchParams({ room_name: room, user_identity: "user-abc" });
    const res = await call(t, "GET", `/api/v1/agents/room/generate_room_token?${query}`, { token: a.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ result: "success", url: "/api/v1/realtime" });
    const claims = claimsOf(body.accessToken);
    expect(claims).toMatchObject({ room, sub: "user-abc", name: "User", workspace_id: a.workspaceId });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(60);
  });

  it("answers another workspace's or an unknown room with an error result and 404", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const agent = await createAssistant(t, a.token, {});
    const { room } = await startRoom(t, a.token, agent);
    for (const name of [room, "call-000000000000"]) {
      const query = new URLSearchParams({ room_name: name, user_identity: "x", name: "Eve" });
      const res = await call(t, "GET", `/api/v1/agents/room/generate_room_token?${query}`, { token: b.token });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        result: "error",
        accessToken: "",
        message: expect.stringMatching(/not found/),
      });
    }
  });
});

describe("the realtime socket's admission", () => {
  it("refuses a foreign Origin with 4403", async () => {
    const a = await signedInUser(t);
    const { room } = await startRoom(t, a.token, await createAssistant(t, a.token, {}));
    const client = await connect(await roomToken(t, a.token, room), "https://evil.example");
    expect((await client.closed).code).toBe(4403);
  });

  it("refuses a missing, forged or expired token with 4401", async () => {
    const a = await signedInUser(t);
    const { room } = await startRoom(t, a.token, await createAssistant(t, a.token, {}));
    const token = await roomToken(t, a.token, room);
    const missing = await RealtimeClient.connect(realtimeUrl(t), { origin: APP_ORIGIN });
    expect((await missing.closed).code).toBe(4401);
    const [head, payload] = token.split(".");
    const forged = await connect(`${head}.${payload}.${"A".repeat(43)}`);
    expect((await forged.closed).code).toBe(4401);
    t.clock.advance(61);
    try {
      const expired = await connect(token);
      expect((await expired.closed).code).toBe(4401);
    } finally {
      t.clock.advance(-61);
    }
  });

  it("lets a token be used once, and only for a room that still exists", async () => {
    const a = await signedInUser(t);
    const { room } = await startRoom(t, a.token, await createAssistant(t, a.token, {}));
    const token = await roomToken(t, a.token, room);
    const rooms = t.ctx.calls.rooms;
    rooms.remove(rooms.get(room) as NonNullable<ReturnType<typeof rooms.get>>);
    const first = await connect(token);
    expect(await first.closed).toMatchObject({ code: 4404 });
    const again = await connect(token);
    expect(await again.closed).toMatchObject({ code: 4401, reason: "This room token has already been used." });
  });
});

describe("workspace rooms", () => {
  it("lists the workspace's rooms without caching, and not other workspaces'", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const agent = await createAssistant(t, a.token, { name: "Concierge" });
    const { room, callId } = await startRoom(t, a.token, agent);
    const res = await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token: a.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json().rooms).toEqual([
      {
        name: room,
        agent_id: agent,
        agent_name: "Concierge",
        call_id: callId,
        started_at: expect.any(String),
        participants: [],
      },
    ]);
    const other = await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token: b.token });
    expect(other.json().rooms).toEqual([]);
  });

  it("answers 404 when removing from an unknown room or an absent participant", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const { room } = await startRoom(t, a.token, await createAssistant(t, a.token, {}));
    const remove = (token: string, name: string) =>
      call(t, "POST", `/api/v1/agents/room/${name}/remove_participant?participant_identity=user-x`, { token });
    expect((await remove(a.token, "call-000000000000")).json().detail).toBe("Room not found.");
    expect((await remove(b.token, room)).statusCode).toBe(404);
    const absent = await remove(a.token, room);
    expect(absent.statusCode).toBe(404);
    expect(absent.json().detail).toBe("Participant not found.");
  });
});

/** An assistant that runs with no keys: the scripted model, eSpeak's voice, PocketSphinx's ears. */
const localAssistant = () => ({
  name: "Front desk",
  first_message: "Hello from Parley.",
  ...keylessAssistant(t.llm.baseUrl),
});

async function assignHoursFunction(user: { token: string }, agentId: string) {
  const created = await call(t, "POST", "/api/v1/functions", {
    token: user.token,
    body: {
      name: "check_hours",
      description: "Opening hours for a day of the week",
      url: webhook.url,
      parameters: { type: "object", properties: { day: { type: "string" } } },
    },
  });
  expect(created.statusCode).toBe(201);
  const assigned = await call(t, "POST", "/api/v1/functions/assign", {
    token: user.token,
    body: { agent_id: agentId, function_id: created.json().id },
  });
  expect(assigned.statusCode).toBeLessThan(300);
}

const finalText = (client: RealtimeClient, role: string, pattern: RegExp) =>
  client.waitFor("transcript", (m) => m.role === role && m.final === true && pattern.test(String(m.text)));

describe("a live call", () => {
  it("talks over the socket, runs a function, and leaves a full call log", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, localAssistant());
    await assignHoursFunction(a, agent);
    const { room, callId } = await startRoom(t, a.token, agent);
    const client = await connect(await roomToken(t, a.token, room, "user-live", "Tess"));

    expect((await client.waitFor("ready")).call_id).toBe(callId);
    await finalText(client, "assistant", /Hello from Parley/);
    await client.until(() => client.audioPeak() > 1000, "audible assistant audio");

    const rooms = (await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token: a.token })).json().rooms;
    expect(rooms).toHaveLength(1);
    expect(rooms[0].participants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ identity: "user-live", name: "Tess", kind: "caller" }),
        expect.objectContaining({ name: "Front desk", kind: "agent" }),
      ]),
    );
    expect((await call(t, "GET", "/api/v1/call-logs/stats", { token: a.token })).json().active_calls).toBe(1);

    client.send({ type: "text", text: "What are your opening hours?" });
    await finalText(client, "user", /opening hours/);
    expect(await client.waitFor("tool_call")).toMatchObject({ name: "check_hours", ok: true });
    await finalText(client, "assistant", /nine in the morning/);
    await client.waitFor("turn_metrics");
    client.send({ type: "hangup" });
    expect((await client.closed).code).toBe(1000);
    expect(client.messages.find((m) => m.type === "end")).toMatchObject({ reason: "caller_hangup" });

    const log = await closedCallLog(t, a.token, callId);
    expect(log).toMatchObject({ status: "completed", end_reason: "caller_hangup", has_recording: true });
    expect(log.transcript.map((l: { role: string; text: string }) => [l.role, l.text])).toEqual([
      ["assistant", "Hello from Parley."],
      ["user", "What are your opening hours?"],
      ["assistant", "We open at nine in the morning."],
    ]);
    expect(log.tool_calls).toEqual([
      expect.objectContaining({ name: "check_hours", arguments: '{"day":"monday"}', ok: true }),
    ]);
    expect(log.tool_calls[0]?.result).toContain("9am");
    expect(webhook.calls).toContainEqual({ day: "monday" });
    expect(log.turn_metrics.length).toBeGreaterThanOrEqual(1);
    expect(log.turn_metrics[0]?.llm_ttft_ms).toEqual(expect.any(Number));
    expect(log.duration_seconds).toBeGreaterThan(0);
    expect(log.cost).toEqual(expect.any(Number));
    expect(log.cost_breakdown).toMatchObject({ currency: "USD", minutes: expect.any(Number) });
    expect(log.cost_breakdown?.minutes).toBeGreaterThan(0);

    const recording = await call(t, "GET", `/api/v1/call-logs/${callId}/recording`, { token: a.token });
    expect(recording.statusCode).toBe(200);
    expect(recording.headers["content-type"]).toBe("audio/wav");
    expect(readWavHeader(recording.rawPayload)).toMatchObject({
      riff: "RIFF",
      wave: "WAVE",
      channels: 2,
      sampleRate: 16000,
    });
    expect(readWavHeader(recording.rawPayload).dataBytes).toBeGreaterThan(16000);

    const metrics = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toMatch(
      /parley_calls_ended_total\{channel="web",status="completed",reason="caller_hangup"\} 1/,
    );
    expect(metrics.body).toMatch(/parley_turn_llm_ttft_seconds_count [1-9]/);
    expect(metrics.body).toMatch(/parley_calls_active\{channel="web"\} 0/);
    expect((await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token: a.token })).json().rooms).toEqual([]);
  });

  it("ends the call with reason removed when the caller is removed from the room", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, { ...localAssistant(), audio_recording: false });
    const { room, callId } = await startRoom(t, a.token, agent);
    const client = await connect(await roomToken(t, a.token, room, "user-two"));
    await client.waitFor("ready");
    const res = await call(t, "POST", `/api/v1/agents/room/${room}/remove_participant?participant_identity=user-two`, {
      token: a.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/removed/i);
    expect((await client.closed).code).toBe(1000);
    expect(client.messages.find((m) => m.type === "end")).toMatchObject({ reason: "removed" });
    const log = await closedCallLog(t, a.token, callId);
    expect(log).toMatchObject({ status: "completed", end_reason: "removed", has_recording: false });
    const audio = await call(t, "GET", `/api/v1/call-logs/${callId}/recording`, { token: a.token });
    expect(audio.statusCode).toBe(404);
  });

  it("refuses a second caller in a room that already has one", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, localAssistant());
    const { room } = await startRoom(t, a.token, agent);
    const first = await connect(await roomToken(t, a.token, room, "user-first"));
    await first.waitFor("ready");
    const second = await connect(await roomToken(t, a.token, room, "user-second"));
    expect((await second.closed).code).toBe(4409);
    first.close();
    await first.closed;
  });

  it("refuses to start a call whose provider has no key, naming the key and the Integrations page", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, {
      ...localAssistant(),
      llm_provider: "openai",
      llm_provider_config: { model: "gpt-4o-mini" },
    });
    const res = await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: a.token });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe("No API key for OpenAI. Add one on the Integrations page.");
    const rooms = await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token: a.token });
    expect(rooms.json().rooms).toEqual([]);
    const logs = await call(t, "GET", "/api/v1/call-logs", { token: a.token });
    expect(logs.json().total_count).toBe(0);
  });

  it("fails the call with a message when its provider cannot be set up", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, localAssistant());
    // A stored voice config its provider no longer accepts: the call fails as it starts.
    await t.app.ctx.db.execute(
      sql`update agents set config = jsonb_set(config, '{tts_provider_config}', '{"model": 42}') where id = ${agent}`,
    );
    const { room, callId } = await startRoom(t, a.token, agent);
    const client = await connect(await roomToken(t, a.token, room));
    expect((await client.closed).code).toBe(4500);
    expect(client.messages.find((m) => m.type === "error")?.message).toMatch(/invalid configuration/);
    const log = await closedCallLog(t, a.token, callId);
    expect(log).toMatchObject({ status: "failed", end_reason: "error" });
    expect(log.events).toContainEqual(
      expect.objectContaining({
        type: "error",
        message: expect.stringMatching(/^Call could not start: .*invalid configuration/),
      }),
    );
  });
});

/** Samples of one channel of a 16-bit stereo WAV (0 = left = caller). */
function channelPeak(wav: Buffer, channel: 0 | 1): number {
  let peak = 0;
  for (let i = 44 + channel * 2; i + 1 < wav.length; i += 4) peak = Math.max(peak, Math.abs(wav.readInt16LE(i)));
  return peak;
}

/** Half a second of a 440 Hz tone at 16 kHz, in 20 ms frames as a microphone would send it. */
function sendTone(client: RealtimeClient) {
  for (let frame = 0; frame < 25; frame += 1) {
    const pcm = new Int16Array(320);
    for (let i = 0; i < pcm.length; i += 1)
      pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * (frame * 320 + i)) / 16000));
    client.sendPcm(pcm);
  }
}

describe("caller audio and tools", () => {
  it("records the caller's audio, and none of it while muted", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, { ...localAssistant(), first_message: "", first_speaker: "user" });
    const peaks: number[] = [];
    for (const muted of [false, true]) {
      const { room, callId } = await startRoom(t, a.token, agent);
      const client = await connect(await roomToken(t, a.token, room));
      await client.waitFor("ready");
      if (muted) client.send({ type: "mute", muted: true });
      sendTone(client);
      await new Promise((resolve) => setTimeout(resolve, 200));
      client.send({ type: "hangup" });
      await client.closed;
      await closedCallLog(t, a.token, callId);
      const wav = (await call(t, "GET", `/api/v1/call-logs/${callId}/recording`, { token: a.token })).rawPayload;
      peaks.push(channelPeak(wav, 0));
    }
    expect(peaks[0]).toBeGreaterThan(4000);
    expect(peaks[1]).toBeLessThan(100);
  });

  it("offers linked MCP servers' tools under the server's name, and goes on without an unreachable one", async () => {
    const mcp = await startMcpServer([
      { name: "next_slot", description: "Next free appointment", answer: (args) => `Tuesday with Dr ${args.doctor}` },
    ]);
    // Saving an MCP server checks it answers; this one goes away before the call.
    const offline = await startMcpServer([]);
    try {
      const a = await signedInUser(t);
      const agent = await createAssistant(t, a.token, localAssistant());
      for (const [name, url] of [
        ["Clinic tools", mcp.url],
        ["Offline", offline.url],
      ]) {
        const created = await call(t, "POST", "/api/v1/mcp-servers", {
          token: a.token,
          body: { name, url, timeout: 5 },
        });
        expect(created.statusCode).toBe(201);
        const linked = await call(t, "POST", `/api/v1/agents/${agent}/mcp-servers/${created.json().mcp_server.id}`, {
          token: a.token,
        });
        expect(linked.statusCode).toBe(200);
      }
      await offline.close();
      const { room, callId } = await startRoom(t, a.token, agent);
      const client = await connect(await roomToken(t, a.token, room));
      await client.waitFor("ready");
      client.send({ type: "text", text: "Can I book an appointment?" });
      expect(await client.waitFor("tool_call")).toMatchObject({ name: "clinic_tools__next_slot", ok: true });
      await finalText(client, "assistant", /Tuesday with Dr Lee/);
      client.send({ type: "hangup" });
      await client.closed;
      expect(mcp.calls).toEqual([{ name: "next_slot", args: { doctor: "Lee" } }]);
      const log = await closedCallLog(t, a.token, callId);
      expect(log.tool_calls[0]).toMatchObject({ name: "clinic_tools__next_slot", ok: true });
      expect(log.events).toContainEqual(
        expect.objectContaining({
          type: "error",
          message: expect.stringMatching(/MCP server "Offline" is unavailable/),
        }),
      );
    } finally {
      await Promise.all([mcp.close(), offline.close()]);
    }
  });
});

describe("shutting down", () => {
  // Starts a server of its own: on a loaded machine that alone can take most of the default 30 s.
  it("ends live calls and writes their logs before the server stops", { timeout: 120_000 }, async () => {
    const t2 = await startListeningApp();
    const a = await signedInUser(t2);
    const agent = await createAssistant(t2, a.token, localAssistant());
    const { room, callId } = await startRoom(t2, a.token, agent);
    const queued = await startRoom(t2, a.token, agent);
    const client = await connectRealtime(t2, await roomToken(t2, a.token, room), { origin: APP_ORIGIN });
    await client.waitFor("ready");
    await t2.app.close();
    expect([1000, 1001]).toContain((await client.closed).code);
    const live = await getCallLog(t2.ctx.db, a, callId);
    expect(live).toMatchObject({ status: "completed", end_reason: "server_shutdown" });
    const never = await getCallLog(t2.ctx.db, a, queued.callId);
    expect(never).toMatchObject({ status: "failed", end_reason: "server_shutdown" });
    await t2.close();
  });
});
