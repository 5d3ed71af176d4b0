import { randomBytes, randomUUID } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import type { AddressInfo } from "node:net";
import {
  AdminNodesResponse,
  LivenessResponse,
  REALTIME_PATH,
  ReadinessResponse,
  RoomTokenResponse,
  WorkspaceRoomsResponse,
} from "@parley/contract";
import { startTwilioDouble, type TwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { twilioSignature } from "@parley/engine/testing/telephony/twilio-signature";
import { parseMessage, SipHeaders, type SipResponse, serializeMessage } from "@parley/sip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertPhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { webhookUrlsFor } from "../src/modules/phone-numbers/webhook-urls.ts";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { call, signedInUser, type TestApp, useTestApp } from "./harness.ts";
import { callerFirstAssistant } from "./support/assistant-fields.ts";
import { createAssistant, startRoom } from "./support/calls.ts";
import { startListeningApp } from "./support/realtime-calls.ts";
import { RealtimeClient } from "./support/realtime-client.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { type SipApp, startSipApp } from "./support/sip-app.ts";
import { eventually, freeUdpPort } from "./support/sip-peers.ts";
import { callerScenario } from "./support/sip-scenarios.ts";
import { MediaProbe, runSipp, sdpFor } from "./support/sipp.ts";
import { streamOfTwiml } from "./support/twilio-caller.ts";

/**
 * Issue 28 items 2 and 5 on one process: the superuser's node list, the liveness and readiness
 * probes, what a drain changes (readiness 503, the node's row, SIP 503 while a call already up goes
 * on), and the routing key NODE_ID puts in the realtime and media-stream socket URLs.
 */

const api = (path: string) => `/api/v1${path}`;

/** Where a room token sends the browser: the socket path `url` of GET generate_room_token. */
async function roomSocketPath(t: TestApp, token: string, agentId: string) {
  const { room } = await startRoom(t, token, agentId);
  const query = new URLSearchParams({ room_name: room, user_identity: "user-nodes", name: "Nadia" });
  const res = await call(t, "GET", api(`/agents/room/generate_room_token?${query}`), { token });
  expect(res.statusCode, res.body).toBe(200);
  return RoomTokenResponse.parse(res.json());
}

/** A Twilio number answered by an assistant in the user's workspace, on a local Twilio double. */
async function twilioNumber(t: TestApp, double: TwilioDouble, account: { sid: string; token: string; number: string }) {
  const user = await signedInUser(t);
  const saved = await call(t, "PUT", api("/integrations/twilio"), {
    token: user.token,
    body: { credentials: { account_sid: account.sid, auth_token: account.token, base_url: double.origin } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  const agentId = await createAssistant(t, user.token, callerFirstAssistant("Phone desk"));
  await insertPhoneNumber(
    t.ctx.db,
    { workspaceId: user.workspaceId },
    { number: account.number, provider: "twilio", agentId, outboundAgentId: agentId },
  );
}

/** Rings the number the way Twilio does (a signed voice webhook) and returns the TwiML's <Stream url>. */
async function twilioStreamUrl(t: TestApp, account: { sid: string; token: string; number: string }) {
  const { voiceUrl } = webhookUrlsFor(t.config.publicUrl, "twilio");
  const params = {
    AccountSid: account.sid,
    CallSid: `CA${randomBytes(16).toString("hex")}`,
    From: "+14155559999",
    To: account.number,
    CallStatus: "ringing",
    Direction: "inbound",
  };
  const res = await fetch(voiceUrl, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-twilio-signature": twilioSignature(account.token, voiceUrl, params),
    },
    body: new URLSearchParams(params).toString(),
  });
  const twiml = await res.text();
  expect(res.status, twiml).toBe(200);
  return new URL(streamOfTwiml(twiml).url).pathname;
}

/** A listening app whose PUBLIC_URL is its own address, so signed webhooks reach it as sent. */
async function startAddressedApp(env: Record<string, string> = {}) {
  const t = await startListeningApp(env);
  t.config.publicUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  return t;
}

describe("the node list and the health probes", () => {
  const t = useTestApp();

  it("lists the nodes for the superuser only", async () => {
    expect((await call(t, "GET", api("/admin/nodes"))).statusCode).toBe(401);
    const member = await signedInUser(t);
    expect((await call(t, "GET", api("/admin/nodes"), { token: member.token })).statusCode).toBe(403);

    const admin = await signedInUser(t, { isSuperuser: true });
    // The first heartbeat is written when the app is ready; wait for it rather than assume it.
    const listed = await eventually(async () => {
      const res = await call(t, "GET", api("/admin/nodes"), { token: admin.token });
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      const body = AdminNodesResponse.parse(res.json());
      return body.nodes.length > 0 ? body.nodes : null;
    }, "this node's row");
    expect(listed).toEqual([
      expect.objectContaining({
        id: t.ctx.node.id,
        state: "ready",
        alive: true,
        active_calls: 0,
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        sip_port: null,
      }),
    ]);
    const [row] = listed;
    expect(Date.parse(row?.heartbeat_at ?? "")).toBeGreaterThanOrEqual(Date.parse(row?.started_at ?? ""));
  });

  it("answers liveness and readiness with the node's id", async () => {
    const live = await call(t, "GET", api("/health/live"));
    expect(live.statusCode).toBe(200);
    expect(LivenessResponse.parse(live.json())).toEqual({
      status: "alive",
      node: t.ctx.node.id,
      uptime_seconds: expect.any(Number),
    });
    const ready = await call(t, "GET", api("/health/ready"));
    expect(ready.statusCode).toBe(200);
    expect(ready.headers["cache-control"]).toBe("no-store");
    expect(ReadinessResponse.parse(ready.json())).toEqual({
      status: "ready",
      node: t.ctx.node.id,
      database: "ok",
      active_calls: 0,
    });
  });

  it("without NODE_ID, an id of host and port and no routing key in the realtime URL", async () => {
    expect(t.ctx.node.routingKey).toBeNull();
    expect(t.ctx.node.id).toMatch(/-\d+$/);
    const user = await signedInUser(t);
    const agentId = await createAssistant(t, user.token, callerFirstAssistant("Bare desk"));
    expect((await roomSocketPath(t, user.token, agentId)).url).toBe(REALTIME_PATH);
  });

  // Last in this block: the app stays drained.
  it("after a drain, readiness is 503 draining, liveness still 200, and the node's row says draining", async () => {
    await t.ctx.node.drain();
    const ready = await call(t, "GET", api("/health/ready"));
    expect(ready.statusCode).toBe(503);
    expect(ReadinessResponse.parse(ready.json())).toMatchObject({ status: "draining", node: t.ctx.node.id });
    expect((await call(t, "GET", api("/health/live"))).statusCode).toBe(200);
    // The old all-in-one health check keeps meaning "the process and its database work".
    expect((await call(t, "GET", api("/health"))).statusCode).toBe(200);

    const admin = await signedInUser(t, { isSuperuser: true });
    const res = await call(t, "GET", api("/admin/nodes"), { token: admin.token });
    expect(AdminNodesResponse.parse(res.json()).nodes).toEqual([
      expect.objectContaining({ id: t.ctx.node.id, state: "draining", alive: true }),
    ]);
  });
});

describe("socket URLs with and without NODE_ID", () => {
  const account = { sid: `AC${randomBytes(16).toString("hex")}`, token: randomBytes(16).toString("hex") };
  let double: TwilioDouble;
  let routed: TestApp;
  let bare: TestApp;

  beforeAll(async () => {
    double = await startTwilioDouble({
      accounts: [{ ...account, numbers: ["+14155550140", "+14155550141"] }],
    });
    [routed, bare] = await Promise.all([startAddressedApp({ NODE_ID: "node-7" }), startAddressedApp()]);
  }, 240_000);
  afterAll(async () => {
    await routed?.close();
    await bare?.close();
    await double?.close();
  });

  it("NODE_ID names the node and is the realtime socket's routing key; a call joins on that path", async () => {
    expect(routed.ctx.node).toMatchObject({ id: "node-7", routingKey: "node-7" });
    const user = await signedInUser(routed);
    const agentId = await createAssistant(routed, user.token, callerFirstAssistant("Routed desk"));
    const grant = await roomSocketPath(routed, user.token, agentId);
    expect(grant.url).toBe(`${REALTIME_PATH}/node-7`);

    const port = (routed.app.server.address() as AddressInfo).port;
    const caller = await RealtimeClient.connect(
      `ws://127.0.0.1:${port}${grant.url}?token=${encodeURIComponent(grant.accessToken)}`,
    );
    await caller.waitFor("ready", () => true, 60_000);
    expect(routed.ctx.calls.rooms.all()).toHaveLength(1);
    caller.send({ type: "hangup" });
    await caller.closed;
  }, 180_000);

  it("a Twilio voice webhook's <Stream url> carries the routing key with NODE_ID, and is bare without", async () => {
    await twilioNumber(routed, double, { ...account, number: "+14155550140" });
    expect(await twilioStreamUrl(routed, { ...account, number: "+14155550140" })).toBe(
      "/api/v1/telephony/twilio/stream/node-7",
    );
    await twilioNumber(bare, double, { ...account, number: "+14155550141" });
    expect(await twilioStreamUrl(bare, { ...account, number: "+14155550141" })).toBe("/api/v1/telephony/twilio/stream");
  }, 60_000);
});

/** One SIP request from a bare UDP socket (no retransmission: loopback), and the final answer to it. */
async function sipRequest(socket: Socket, sipPort: number, method: "OPTIONS" | "INVITE"): Promise<SipResponse> {
  const { port } = socket.address();
  const branch = `z9hG4bK${randomUUID().replaceAll("-", "")}`;
  const body = method === "INVITE" ? Buffer.from(sdpFor(await freeUdpPort()), "utf8") : Buffer.alloc(0);
  const headers = new SipHeaders([
    ["Via", `SIP/2.0/UDP 127.0.0.1:${port};branch=${branch};rport`],
    ["Max-Forwards", "70"],
    ["From", `<sip:+14155551234@carrier.test>;tag=${randomUUID().slice(0, 8)}`],
    ["To", "<sip:+14155550150@parley.test>"],
    ["Call-ID", `${randomUUID()}@carrier.test`],
    ["CSeq", `1 ${method}`],
    ["Contact", `<sip:carrier@127.0.0.1:${port}>`],
    ...(method === "INVITE" ? ([["Content-Type", "application/sdp"]] as [string, string][]) : []),
  ]);
  const answered = new Promise<SipResponse>((resolve, reject) => {
    const giveUp = setTimeout(() => reject(new Error(`no final answer to ${method}`)), 20_000);
    const onMessage = (data: Buffer) => {
      const message = parseMessage(data);
      if (message.kind !== "response" || message.status < 200) return;
      if (!(message.headers.get("via") ?? "").includes(branch)) return;
      clearTimeout(giveUp);
      socket.off("message", onMessage);
      resolve(message);
    };
    socket.on("message", onMessage);
  });
  const request = { kind: "request" as const, method, uri: `sip:+14155550150@127.0.0.1:${sipPort}`, headers, body };
  socket.send(serializeMessage(request), sipPort, "127.0.0.1");
  return answered;
}

describe("SIP on a draining node", () => {
  let llm: ScriptedLlm;
  let sip: SipApp;
  let socket: Socket;

  beforeAll(async () => {
    llm = await startScriptedLlm(() => ({ text: "Still here." }));
    sip = await startSipApp(llm, { first_message: "Hello, you have reached the front desk." });
    socket = createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  }, 240_000);
  afterAll(async () => {
    socket?.close();
    await sip?.t.close();
    await llm?.close();
  });

  it("answers new OPTIONS and INVITEs 503 while the call already up goes on", async () => {
    const { t } = sip;
    const sipPort = sipRuntimeOf(t.ctx)?.port;
    if (!sipPort) throw new Error("SIP is not running");
    await sip.inboundTrunkNumber("+14155550150", 5999);
    expect((await sipRequest(socket, sipPort, "OPTIONS")).status).toBe(200);

    const probe = new MediaProbe();
    const mediaPort = await probe.open();
    const sipp = runSipp(
      callerScenario({
        from: "<sip:+14155551234@carrier.test>",
        to: "<sip:+14155550150@parley.test>",
        sdp: sdpFor(mediaPort),
        challenged: false,
      }),
      [`127.0.0.1:${sipPort}`, "-i", "127.0.0.1", "-p", String(await freeUdpPort()), "-s", "+14155550150"],
      120,
    );
    try {
      await eventually(async () => probe.packets > 25, "the assistant's RTP");
      const callId = await sip.newestCall();

      await t.ctx.node.drain();
      const options = await sipRequest(socket, sipPort, "OPTIONS");
      expect(options.status).toBe(503);
      expect(options.headers.get("retry-after")).toBeTruthy();
      expect((await sipRequest(socket, sipPort, "INVITE")).status).toBe(503);

      // The call already up is not cut: its media keeps flowing and its room stays.
      const before = probe.packets;
      await eventually(async () => probe.packets > before + 100, "RTP to keep coming after the drain");
      expect(t.ctx.calls.rooms.all()).toHaveLength(1);
      expect(await Promise.race([sipp.done.then(() => "ended"), Promise.resolve("up")])).toBe("up");

      // It ends when someone ends it: here the live monitor removes the caller, and Parley sends the BYE.
      const rooms = await call(t, "GET", api("/agents/room/workspace_rooms"), { token: sip.token });
      const room = WorkspaceRoomsResponse.parse(rooms.json()).rooms.find((r) => r.call_id === callId);
      const caller = room?.participants.find((p) => p.kind === "caller");
      const removed = await call(
        t,
        "POST",
        api(`/agents/room/${room?.name}/remove_participant?participant_identity=${caller?.identity}`),
        { token: sip.token },
      );
      expect(removed.statusCode, removed.body).toBe(200);
      const result = await sipp.done;
      expect(result.code, result.output.slice(-1500)).toBe(0);
      expect(await sip.closedLog(callId)).toMatchObject({ status: "completed", channel: "sip" });
    } finally {
      sipp.stop();
      probe.close();
    }
  }, 240_000);
});
