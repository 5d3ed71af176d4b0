import { randomBytes } from "node:crypto";
import { callerSpeech, isNonSilent } from "@parley/engine/testing/telephony/audio-checks";
import { startTwilioDouble, type TwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./harness.ts";
import {
  type BridgeWorld,
  eventually,
  finishedLog,
  newestCallId,
  startBridgeWorld,
  TRANSFER_NUMBER,
} from "./support/telephony-bridge.ts";

/** Phone calls over Twilio Media Streams, end to end against the local Twilio double. */

const SID = `AC${randomBytes(16).toString("hex")}`;
const TOKEN = randomBytes(16).toString("hex");
const NUMBER = "+14155550100";
const CALLER = "+14155559999";
const DESTINATION = "+14155550123";

let double: TwilioDouble;
let world: BridgeWorld;

beforeAll(async () => {
  double = await startTwilioDouble({ accounts: [{ sid: SID, token: TOKEN, numbers: [NUMBER] }] });
  world = await startBridgeWorld({
    provider: "twilio",
    credentials: (origin) => ({ account_sid: SID, auth_token: TOKEN, base_url: origin }),
    doubleOrigin: double.origin,
    number: NUMBER,
  });
}, 60_000);
afterAll(async () => {
  await world?.close();
  await double?.close();
});

describe("an inbound Twilio call", () => {
  it("answers with the assistant's voice, clears playout on barge-in, and logs a phone call", async () => {
    const handle = await double.ringInbound(NUMBER, CALLER);
    expect(handle.voice.status).toBe(200);
    const leg = await handle.stream();
    await leg.waitForAudio(1500);
    leg.say(callerSpeech("I would like to book an appointment for tomorrow morning please"));
    await leg.waitForEvent("clear", () => true, 30_000);
    expect(isNonSilent(leg.received())).toBe(true);

    const callId = await newestCallId(world);
    await leg.hangup();
    const log = await finishedLog(world, callId);
    expect(log).toMatchObject({
      channel: "phone",
      direction: "inbound",
      from_number: CALLER,
      to_number: NUMBER,
      status: "completed",
      end_reason: "caller_hangup",
    });
    expect(log.events.some((e) => e.type === "interruption")).toBe(true);
    expect(log.cost_breakdown?.telephony).toBeGreaterThan(0);
  }, 90_000);

  it("hears keys pressed (DTMF in) and presses keys back through Twilio (DTMF out)", async () => {
    const handle = await double.ringInbound(NUMBER, CALLER);
    const leg = await handle.stream();
    await leg.waitForAudio(500);
    leg.pressKeys("7");
    await eventually(() => double.dtmfOut.some((d) => d.callId === handle.call.id && d.digits === "1"), "DTMF out");
    // Twilio plays the digits by replacing the call's TwiML: the stream reconnects and the call goes on.
    await eventually(() => handle.call.legs.length === 2, "the stream to reconnect");
    await handle.call.legs[1]?.waitForAudio(200);
    const callId = await newestCallId(world);
    await handle.hangup();
    const log = await finishedLog(world, callId);
    expect(log.events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "dtmf", direction: "in", digits: "7" }),
        expect.objectContaining({ type: "dtmf", direction: "out", digits: "1" }),
      ]),
    );
  }, 90_000);

  it("transfers the caller through Twilio and records where and when", async () => {
    const handle = await double.ringInbound(NUMBER, CALLER);
    const leg = await handle.stream();
    await leg.waitForAudio(500);
    leg.pressKeys("5");
    await eventually(() => double.transfers.some((x) => x.callId === handle.call.id), "the transfer", 45_000);
    expect(double.transfers.find((x) => x.callId === handle.call.id)?.destination).toBe(TRANSFER_NUMBER);
    const callId = await newestCallId(world);
    const log = await finishedLog(world, callId);
    expect(log).toMatchObject({ status: "completed", end_reason: "transferred" });
    expect(log.events).toContainEqual(
      expect.objectContaining({ type: "transfer", destination: { name: "Billing", number: TRANSFER_NUMBER } }),
    );
  }, 90_000);

  it("hangs up the phone call when the caller is removed from the live monitor", async () => {
    const handle = await double.ringInbound(NUMBER, CALLER);
    const leg = await handle.stream();
    await leg.waitForAudio(500);
    const rooms = await call(world.t, "GET", "/api/v1/agents/room/workspace_rooms", { token: world.token });
    const room = rooms.json().rooms[0];
    expect(room.participants).toContainEqual(expect.objectContaining({ kind: "caller", name: CALLER }));
    const caller = room.participants.find((p: { kind: string }) => p.kind === "caller");
    const removed = await call(
      world.t,
      "POST",
      `/api/v1/agents/room/${room.name}/remove_participant?participant_identity=${encodeURIComponent(caller.identity)}`,
      { token: world.token },
    );
    expect(removed.statusCode).toBe(200);
    await handle.done;
    expect(handle.call.ended).toBe(true);
    const log = await finishedLog(world, room.call_id);
    expect(log).toMatchObject({ status: "completed", end_reason: "removed", channel: "phone" });
  }, 60_000);

  it("refuses a webhook with a bad signature with 403", async () => {
    const handle = await double.ringInbound(NUMBER, CALLER, { forgeSignature: true });
    expect(handle.voice.status).toBe(403);
    await handle.hangup();
  });
});

describe("an outbound Twilio call", () => {
  it("places the call, follows its status callbacks, and runs the outbound assistant once answered", async () => {
    double.setOutbound({ outcome: "answer", ringMs: 200 });
    const res = await call(world.t, "POST", "/api/v1/make_outbound_call", {
      token: world.token,
      body: { caller_uuid: world.phoneNumberId, destination_number: DESTINATION },
    });
    expect(res.statusCode).toBe(201);
    const placed = res.json();
    expect(placed).toMatchObject({ status: "queued", from_number: NUMBER, to_number: DESTINATION });
    const twilioCall = await double.waitForCall((c) => c.id === placed.provider_call_id);
    await eventually(() => twilioCall.legs.length > 0, "the media stream");
    const leg = twilioCall.legs[0];
    if (!leg) throw new Error("no stream");
    await leg.waitForAudio(1000);
    expect(isNonSilent(leg.received())).toBe(true);
    await leg.hangup();
    const log = await finishedLog(world, placed.call_id);
    expect(log).toMatchObject({
      channel: "phone",
      direction: "outbound",
      from_number: NUMBER,
      to_number: DESTINATION,
      status: "completed",
    });
  }, 90_000);

  it("closes the call log with the carrier's reason when the line is busy", async () => {
    double.setOutbound({ outcome: "busy", ringMs: 100 });
    const res = await call(world.t, "POST", "/api/v1/make_outbound_call", {
      token: world.token,
      body: { caller_uuid: world.phoneNumberId, destination_number: DESTINATION },
    });
    expect(res.statusCode).toBe(201);
    const log = await finishedLog(world, res.json().call_id);
    expect(log).toMatchObject({ status: "failed", end_reason: "busy", direction: "outbound" });
  }, 60_000);

  it("hangs up on an answering machine when the assistant's voicemail rule says so", async () => {
    const patch = (body: Record<string, unknown>) =>
      call(world.t, "PATCH", `/api/v1/agents/${world.agentId}`, { token: world.token, body });
    expect((await patch({ voicemail_detection: true, voicemail_detection_handler: "hangup" })).statusCode).toBe(200);
    try {
      double.setOutbound({ outcome: "machine", ringMs: 100 });
      const res = await call(world.t, "POST", "/api/v1/make_outbound_call", {
        token: world.token,
        body: { caller_uuid: world.phoneNumberId, destination_number: DESTINATION },
      });
      expect(res.statusCode).toBe(201);
      const placed = double.calls.get(res.json().provider_call_id);
      expect(placed?.machineDetection).toBe(true);
      const log = await finishedLog(world, res.json().call_id);
      expect(log).toMatchObject({ end_reason: "voicemail", direction: "outbound" });
    } finally {
      await patch({ voicemail_detection: false });
    }
  }, 60_000);

  it("answers 422 for a number that is not E.164-able and 404 for another workspace's number", async () => {
    const bad = await call(world.t, "POST", "/api/v1/make_outbound_call", {
      token: world.token,
      body: { caller_uuid: world.phoneNumberId, destination_number: "12" },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/^Invalid phone number format/);
    const unknown = await call(world.t, "POST", "/api/v1/make_outbound_call", {
      token: world.token,
      body: { caller_uuid: "00000000-0000-4000-8000-000000000000", destination_number: DESTINATION },
    });
    expect(unknown.statusCode).toBe(404);
  });
});
