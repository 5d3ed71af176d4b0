import { randomBytes } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import { ERROR_TEXTS } from "@parley/contract";
import { startTwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { twilioSignature } from "@parley/engine/testing/telephony/twilio-signature";
import { parseMessage, SipHeaders, type SipRequest, type SipResponse, serializeMessage } from "@parley/sip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LoadSample, SampleLog } from "../src/lib/admission-probe.ts";
import { webhookUrlsFor } from "../src/modules/phone-numbers/webhook-urls.ts";
import { sipRuntimeOf } from "../src/modules/sip/sip-runtime.ts";
import { call, signedInUser, type TestApp } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant, startRoom } from "./support/calls.ts";
import { type CallApp, joinCall, startCallApp } from "./support/realtime-calls.ts";
import { type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { type SipApp, startSipApp } from "./support/sip-app.ts";
import { type BridgeWorld, startBridgeWorld } from "./support/telephony-bridge.ts";

/**
 * Admission control (issue 35 item 2): while the process's measurements say it is saturated, new
 * calls are refused as busy on every channel — 503 with Retry-After to the API, <Reject reason="busy">
 * to Twilio, SIP 503 — the calls already running go on, and once the measurements are calm again new
 * calls are taken. The measurements are simulated: each test feeds the app's admission gate its own
 * samples (one push is one probe tick), so nothing depends on this machine's real load.
 */

const calm: LoadSample = { lagP99Ms: 2, lagMeanMs: 1, utilization: 0.1, audioMisses: 0 };
const lagging: LoadSample = { lagP99Ms: 180, lagMeanMs: 60, utilization: 0.97, audioMisses: 0 };

/** Turns admission control on for a test app and hands it a load source the test drives. */
function simulatedLoad(t: TestApp): SampleLog {
  t.ctx.config.admission.enabled = true;
  const load = new SampleLog();
  t.ctx.admission.useSource(load);
  load.push(calm);
  return load;
}

const push = (load: SampleLog, sample: LoadSample, ticks: number) => {
  for (let i = 0; i < ticks; i++) load.push(sample);
};

describe("browser calls under saturation", () => {
  let t: CallApp;
  let load: SampleLog;
  let token: string;
  let agentId: string;

  beforeAll(async () => {
    t = await startCallApp(() => ({ text: "Happy to help." }));
    load = simulatedLoad(t);
    ({ token } = await signedInUser(t));
    agentId = await createAssistant(t, token, {
      first_message: "Hello, you have reached the front desk.",
      ...keylessAssistant(t.llm.baseUrl),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses a new call with 503 and the busy text while running calls go on, and admits again once calm", async () => {
    const running = await joinCall(t, token, agentId);
    await running.client.until(() => running.client.audio.length > 0, "the running call's greeting audio", 60_000);

    push(load, lagging, 2);
    const refused = await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token });
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json<{ detail: string }>().detail).toBe(ERROR_TEXTS.serverBusy);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);

    const ready = await call(t, "GET", "/api/v1/health/ready");
    // Busy, but still in the balancer's rotation: the web app, the API and running calls' callbacks
    // keep reaching the node; only new calls are refused.
    expect(ready.statusCode).toBe(200);
    expect(ready.json<{ status: string }>().status).toBe("busy");
    // Liveness and the plain health check stay 200: the process is alive, only busy.
    expect((await call(t, "GET", "/api/v1/health")).statusCode).toBe(200);

    // The call admitted before keeps its room and its audio.
    const heard = running.client.audio.length;
    await running.client.until(() => running.client.audio.length > heard + 10, "more audio on the running call");
    expect(t.ctx.calls.rooms.all().map((room) => room.callId)).toContain(running.callId);

    // Still busy while the lag eases but has not been calm long enough (no flapping).
    push(load, calm, 3);
    expect((await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token })).statusCode).toBe(503);

    push(load, calm, 6);
    const admitted = await startRoom(t, token, agentId);
    expect(admitted.callId).toBeTruthy();
    expect((await call(t, "GET", "/api/v1/health/ready")).statusCode).toBe(200);
    running.client.close();
  });

  it("refuses when one more call would take the loop past its load limit, even before lag shows", async () => {
    push(load, calm, 8);
    // 0.79 of the loop in use: one more call's share (0.012 before any is measured) passes 0.8.
    push(load, { ...calm, utilization: 0.79 }, 1);
    const refused = await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token });
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json<{ detail: string }>().detail).toBe(ERROR_TEXTS.serverBusy);
    push(load, calm, 1);
    expect((await startRoom(t, token, agentId)).callId).toBeTruthy();
  });

  it("refuses a widget's call start with 503 and the busy text, readable by the page (CORS)", async () => {
    const shop = "https://shop.example";
    const created = await call(t, "POST", "/api/v1/call-widgets", {
      token,
      body: { name: "Shop", assistant_id: agentId, allowed_origins: [shop] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = created.json<{ public_key: string }>().public_key;
    const start = () => t.app.inject({ method: "POST", url: `/api/v1/widget/${key}/calls`, headers: { origin: shop } });
    push(load, lagging, 2);
    const refused = await start();
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.json<{ detail: string }>().detail).toBe(ERROR_TEXTS.serverBusy);
    expect(refused.headers["access-control-allow-origin"]).toBe(shop);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    push(load, calm, 8);
    expect((await start()).statusCode).toBe(201);
  });

  it("admits everything when admission control is off", async () => {
    push(load, lagging, 4);
    t.ctx.config.admission.enabled = false;
    try {
      const res = await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token });
      expect(res.statusCode).not.toBe(503);
    } finally {
      t.ctx.config.admission.enabled = true;
    }
  });
});

describe("Twilio inbound under saturation", () => {
  const number = "+14155550170";
  const sid = `AC${randomBytes(16).toString("hex")}`;
  const authToken = randomBytes(16).toString("hex");
  let world: BridgeWorld;
  let closeDouble: () => Promise<void>;
  let load: SampleLog;

  beforeAll(async () => {
    const double = await startTwilioDouble({ accounts: [{ sid, token: authToken, numbers: [number] }] });
    closeDouble = () => double.close();
    world = await startBridgeWorld({
      provider: "twilio",
      credentials: (origin) => ({ account_sid: sid, auth_token: authToken, base_url: origin }),
      doubleOrigin: double.origin,
      number,
    });
    load = simulatedLoad(world.t);
  });
  afterAll(async () => {
    await world?.close();
    await closeDouble?.();
  });

  async function ring(): Promise<{ status: number; body: string }> {
    const { voiceUrl } = webhookUrlsFor(world.t.config.publicUrl, "twilio");
    const params: Record<string, string> = {
      AccountSid: sid,
      CallSid: `CA${randomBytes(16).toString("hex")}`,
      From: "+14155551234",
      To: number,
      CallStatus: "ringing",
      Direction: "inbound",
      ApiVersion: "2010-04-01",
    };
    const res = await fetch(voiceUrl, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-twilio-signature": twilioSignature(authToken, voiceUrl, params),
      },
      body: new URLSearchParams(params).toString(),
    });
    return { status: res.status, body: await res.text() };
  }

  it('answers <Reject reason="busy"/> while saturated and opens the stream once calm', async () => {
    // A call admitted a moment ago: the gate has a call to protect (with none, it takes the first).
    world.t.ctx.admission.admit("phone");
    push(load, lagging, 2);
    const busy = await ring();
    expect(busy.status).toBe(200);
    expect(busy.body).toContain('<Response><Reject reason="busy"/></Response>');
    expect(busy.body).not.toContain("<Stream");

    // The lag leaves the two-second window, then three calm seconds reopen the gate.
    push(load, calm, 8);
    const taken = await ring();
    expect(taken.status).toBe(200);
    expect(taken.body, taken.body).toContain("<Connect><Stream");
  });
});

describe("SIP INVITE under saturation", () => {
  const trunkNumber = "+14155550171";
  let llm: ScriptedLlm;
  let sip: SipApp;
  let load: SampleLog;
  let carrier: Socket;

  beforeAll(async () => {
    llm = await startScriptedLlm(() => ({ text: "Happy to help." }));
    sip = await startSipApp(llm, { first_message: "Hello." });
    load = simulatedLoad(sip.t);
    carrier = createSocket("udp4");
    await new Promise<void>((resolve) => carrier.bind(0, "127.0.0.1", resolve));
    await sip.inboundTrunkNumber(trunkNumber, carrier.address().port);
  });
  afterAll(async () => {
    carrier?.close();
    await sip?.t.close();
    await llm?.close();
  });

  /** Sends one INVITE from the trunk's carrier and resolves with Parley's first final response. */
  function invite(): Promise<SipResponse> {
    const sipPort = sipRuntimeOf(sip.t.ctx)?.port ?? 0;
    const { port } = carrier.address();
    const branch = `z9hG4bK${randomBytes(8).toString("hex")}`;
    const request: SipRequest = {
      kind: "request",
      method: "INVITE",
      uri: `sip:${trunkNumber}@127.0.0.1:${sipPort}`,
      headers: new SipHeaders([
        ["Via", `SIP/2.0/UDP 127.0.0.1:${port};branch=${branch};rport`],
        ["Max-Forwards", "70"],
        ["From", `<sip:+14155551234@carrier.test>;tag=${randomBytes(4).toString("hex")}`],
        ["To", `<sip:${trunkNumber}@parley.test>`],
        ["Call-ID", randomBytes(8).toString("hex")],
        ["CSeq", "1 INVITE"],
        ["Contact", `<sip:carrier@127.0.0.1:${port}>`],
        ["Content-Type", "application/sdp"],
      ]),
      body: Buffer.from(
        "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 40000 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n",
      ),
    };
    return new Promise((resolve, reject) => {
      const giveUp = setTimeout(() => reject(new Error("no final answer to the INVITE")), 30_000);
      const onMessage = (data: Buffer) => {
        const message = parseMessage(data);
        if (message.kind !== "response" || message.status < 200) return;
        if (!(message.headers.get("via") ?? "").includes(branch)) return;
        clearTimeout(giveUp);
        carrier.off("message", onMessage);
        resolve(message);
      };
      carrier.on("message", onMessage);
      carrier.send(serializeMessage(request), sipPort, "127.0.0.1");
    });
  }

  it("answers 503 Service Unavailable with Retry-After while saturated", async () => {
    // A call admitted a moment ago: the gate has a call to protect (with none, it takes the first).
    sip.t.ctx.admission.admit("sip");
    push(load, lagging, 2);
    const answer = await invite();
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    // No call was logged for the refused INVITE.
    const logs = await call(sip.t, "GET", "/api/v1/call-logs", { token: sip.token });
    expect(logs.json<{ data: unknown[] }>().data).toHaveLength(0);
  });
});
