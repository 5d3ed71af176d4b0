import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCallLog } from "../src/modules/call-logs/queries.ts";
import { insertPhoneNumber } from "../src/modules/phone-numbers/service.ts";
import { placeSipCall } from "../src/modules/sip/outbound.ts";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { call, type TestApp } from "./harness.ts";
import { lastUserText, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { type SipApp, startSipApp } from "./support/sip-app.ts";
import { eventually, freeUdpPort } from "./support/sip-peers.ts";
import { callerScenario, carrierScenario } from "./support/sip-scenarios.ts";
import { MediaProbe, runSipp, sdpFor } from "./support/sipp.ts";

/** Speech, not comfort noise: μ-law silence decodes to a few units, espeak's voice to thousands. */
const SPEECH_PEAK = 2000;

let llm: ScriptedLlm;
let sip: SipApp;
let t: TestApp;
let token: string;
let workspaceId: string;
let agentId: string;

beforeAll(async () => {
  // Digit 5 reads as "I have a billing question"; the model then ends the call (Parley sends BYE).
  llm = await startScriptedLlm((request) =>
    /billing question/i.test(lastUserText(request))
      ? { toolCall: { name: "end_call", arguments: "{}" } }
      : { text: "Happy to help." },
  );
  sip = await startSipApp(llm, {
    first_message: "Hello, you have reached the front desk. How can I help you today?",
    dtmf_enabled: true,
    dtmf_mapping: { "5": "I have a billing question" },
    end_call_function: true,
  });
  ({ t, token, workspaceId, agentId } = sip);
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

describe("SIP calls to an extension", () => {
  it("answers a registered extension's digest-authenticated call with the assistant's voice and hears its DTMF", async () => {
    const target = await call(t, "POST", "/api/v1/phone-numbers/extensions", {
      token,
      body: { ext: "1001", domain: "example.test", agent_id: agentId },
    });
    expect(target.statusCode).toBe(201);
    const desk = await call(t, "POST", "/api/v1/phone-numbers/extensions", {
      token,
      body: { ext: "1002", domain: "example.test" },
    });
    const password = desk.json<{ sip: { password: string } }>().sip.password;
    const probe = new MediaProbe();
    const mediaPort = await probe.open();
    const port = sipRuntimeOf(t.ctx)?.port;
    const sipp = runSipp(
      callerScenario({
        from: '"Desk" <sip:1002@example.test>',
        to: "<sip:1001@example.test>",
        sdp: sdpFor(mediaPort),
        challenged: true,
      }),
      [
        `127.0.0.1:${port}`,
        "-i",
        "127.0.0.1",
        "-p",
        String(await freeUdpPort()),
        "-s",
        "1001",
        "-au",
        "1002",
        "-ap",
        password,
      ],
    );
    try {
      await eventually(async () => probe.peak > SPEECH_PEAK, "the assistant's voice over RTP", 25_000).catch(
        async () => {
          const logs = await call(t, "GET", "/api/v1/call-logs", { token });
          throw new Error(`no voice: ${probe.packets} packets, peak ${probe.peak}; ${logs.body.slice(0, 1500)}`);
        },
      );
      const callId = await sip.newestCall();
      const status = await call(t, "POST", "/api/v1/phone-numbers/extensions/status", {
        token,
        body: { extension: "1001", domain: "example.test" },
      });
      expect(status.json()).toMatchObject({ status: "RUNNING" });
      await probe.sendDigit("5");
      const result = await sipp.done;
      const seen = await getCallLog(t.ctx.db, { workspaceId }, callId);
      expect(result.code, `${result.output.slice(-1500)}\n${JSON.stringify(seen).slice(0, 1500)}`).toBe(0);
      const log = await sip.closedLog(callId);
      expect(log).toMatchObject({ status: "completed" });
      expect(JSON.stringify(log)).toMatch(/"digits":"5"/);
      expect(JSON.stringify(log)).toMatch(/"channel":"sip"/);
    } finally {
      sipp.stop();
      probe.close();
    }
  }, 60_000);
});

describe("SIP trunks", () => {
  it("answers a trunk peer's INVITE for the trunk number with the number's assistant", async () => {
    await sip.inboundTrunkNumber("+14155550100", 5999);
    const probe = new MediaProbe();
    const mediaPort = await probe.open();
    const sipp = runSipp(
      callerScenario({
        from: "<sip:+14155551234@carrier.test>",
        to: "<sip:+14155550100@parley.test>",
        sdp: sdpFor(mediaPort),
        challenged: false,
      }),
      [
        `127.0.0.1:${sipRuntimeOf(t.ctx)?.port}`,
        "-i",
        "127.0.0.1",
        "-p",
        String(await freeUdpPort()),
        "-s",
        "+14155550100",
      ],
    );
    try {
      await eventually(async () => probe.peak > SPEECH_PEAK, "the assistant's voice over RTP");
      const callId = await sip.newestCall();
      await probe.sendDigit("5");
      const result = await sipp.done;
      expect(result.code, result.output.slice(-1500)).toBe(0);
      const log = await sip.closedLog(callId);
      expect(log).toMatchObject({
        status: "completed",
        channel: "sip",
        direction: "inbound",
        from_number: "+14155551234",
        to_number: "+14155550100",
      });
    } finally {
      sipp.stop();
      probe.close();
    }
  }, 60_000);

  it("places an outbound call through the trunk with digest auth, and the live monitor's removal hangs it up", async () => {
    const carrierPort = await freeUdpPort();
    const record = await insertPhoneNumber(
      t.ctx.db,
      { workspaceId },
      {
        number: "+14155550111",
        provider: "sip_trunk",
        outboundAgentId: agentId,
        sipTrunk: {
          sip_host: `127.0.0.1:${carrierPort}`,
          transport: "udp",
          username: "trunkuser",
          register: false,
          allowed_ips: [],
        },
        sipPassword: t.ctx.secrets.encrypt("s3cret-trunk"),
      },
    );
    const probe = new MediaProbe();
    const mediaPort = await probe.open();
    const sipp = runSipp(carrierScenario(sdpFor(mediaPort), { username: "trunkuser", password: "s3cret-trunk" }), [
      "-i",
      "127.0.0.1",
      "-p",
      String(carrierPort),
    ]);
    try {
      const runtime = sipRuntimeOf(t.ctx);
      if (!runtime) throw new Error("SIP is not running");
      const placed = await placeSipCall(runtime.ctx, { workspaceId }, record, "+14155559876", agentId);
      expect(placed).toMatchObject({ status: "queued", from_number: "+14155550111", to_number: "+14155559876" });
      await eventually(async () => probe.peak > SPEECH_PEAK, "the outbound assistant's voice over RTP");
      const rooms = await call(t, "GET", "/api/v1/agents/room/workspace_rooms", { token });
      const room = rooms
        .json<{ rooms: { name: string; call_id: string; participants: { identity: string; kind: string }[] }[] }>()
        .rooms.find((r) => r.call_id === placed.call_id);
      const caller = room?.participants.find((p) => p.kind === "caller");
      expect(caller).toBeDefined();
      const removed = await call(
        t,
        "POST",
        `/api/v1/agents/room/${room?.name}/remove_participant?participant_identity=${caller?.identity}`,
        { token },
      );
      expect(removed.statusCode, removed.body).toBe(200);
      const result = await sipp.done;
      expect(result.code, result.output.slice(-1500)).toBe(0);
      const log = await sip.closedLog(placed.call_id);
      expect(log).toMatchObject({ channel: "sip", direction: "outbound", to_number: "+14155559876" });
    } finally {
      sipp.stop();
      probe.close();
    }
  }, 60_000);
});
