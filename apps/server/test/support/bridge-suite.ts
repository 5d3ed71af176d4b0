import { callerSpeech, isNonSilent } from "@parley/engine/testing/telephony/audio-checks";
import type { PhoneLeg } from "@parley/engine/testing/telephony/phone-leg";
import type {
  CallHandle,
  DtmfOutRecord,
  InboundOptions,
  OutboundOutcome,
  SimulatedCall,
  TransferRecord,
} from "@parley/engine/testing/telephony/simulated-call";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../harness.ts";
import {
  type BridgeWorld,
  eventually,
  finishedLog,
  newestCallId,
  startBridgeWorld,
  TRANSFER_NUMBER,
} from "./telephony-bridge.ts";

/**
 * The behaviours every media-stream vendor must show end to end against its local double (issue
 * 12's acceptance): an inbound call answered with the assistant's voice and barge-in clearing
 * playout, DTMF in and out, a transfer recorded by the double and the log, removal from the live
 * monitor hanging the phone up, an outbound call with status callbacks into the log (answered,
 * busy, an answering machine), and a bad webhook signature refused with 403.
 */

/** What the suite needs of a vendor double (each double has at least this). */
export interface BridgeDouble {
  origin: string;
  transfers: TransferRecord[];
  dtmfOut: DtmfOutRecord[];
  calls: Map<string, SimulatedCall & { machineDetection?: boolean | string | null }>;
  setOutbound(behaviour: { outcome: OutboundOutcome; ringMs?: number }): void;
  ringInbound(number: string, from: string, options?: InboundOptions): Promise<CallHandle<SimulatedCall>>;
  waitForCall(
    where: (call: SimulatedCall) => boolean,
    timeoutMs?: number,
  ): Promise<SimulatedCall & { machineDetection?: boolean | string | null }>;
  close(): Promise<void>;
}

export interface BridgeVendor {
  provider: "twilio" | "telnyx" | "plivo" | "vonage";
  label: string;
  number: string;
  startDouble(): Promise<BridgeDouble>;
  /** The integration's credentials, pointed at the double (may create vendor-side objects first). */
  credentials(double: BridgeDouble): Promise<Record<string, string>>;
  /** The vendor plays DTMF by replacing the call's markup, so the stream reconnects. */
  dtmfReconnectsStream: boolean;
  /** The vendor reports answering machines (answering-machine detection). */
  machineDetection: boolean;
}

const CALLER = "+14155559999";
const DESTINATION = "+14155550123";

const lastLeg = (call: SimulatedCall): PhoneLeg | undefined => call.legs.at(-1);
/** Some vendors write numbers without the "+" on the wire. */
const digits = (number: string | undefined) => number?.replace(/^\+/, "");

export function describeBridge(vendor: BridgeVendor) {
  let double: BridgeDouble;
  let world: BridgeWorld;
  const { number, label } = vendor;

  beforeAll(async () => {
    double = await vendor.startDouble();
    const credentials = await vendor.credentials(double);
    world = await startBridgeWorld({
      provider: vendor.provider,
      credentials: () => credentials,
      doubleOrigin: double.origin,
      number,
    });
  }, 180_000);
  afterAll(async () => {
    await world?.close();
    await double?.close();
  });

  const placeCall = () =>
    call(world.t, "POST", "/api/v1/make_outbound_call", {
      token: world.token,
      body: { caller_uuid: world.phoneNumberId, destination_number: DESTINATION },
    });
  /** The outbound call the double received after `before` (the vendor's ids may differ from placeCall's). */
  const knownCalls = () => new Set(double.calls.keys());
  const placedCall = (before: Set<string>) =>
    double.waitForCall((c) => c.direction === "outbound" && !before.has(c.id));

  describe(`an inbound ${label} call`, () => {
    it("answers with the assistant's voice, clears playout on barge-in, and logs a phone call", async () => {
      const handle = await double.ringInbound(number, CALLER);
      expect(handle.voice.status).toBe(200);
      const leg = await handle.stream();
      await leg.waitForAudio(1500);
      leg.say(callerSpeech("I would like to book an appointment for tomorrow morning please"));
      await leg.waitForEvent("clear", () => true, 30_000);
      expect(isNonSilent(leg.received())).toBe(true);

      const callId = await newestCallId(world);
      await handle.hangup();
      const log = await finishedLog(world, callId);
      expect(log).toMatchObject({
        channel: "phone",
        direction: "inbound",
        from_number: CALLER,
        to_number: number,
        status: "completed",
        end_reason: "caller_hangup",
      });
      expect(log.events.some((e) => e.type === "interruption")).toBe(true);
      expect(log.cost_breakdown?.telephony).toBeGreaterThan(0);
    }, 90_000);

    it(`hears keys pressed (DTMF in) and presses keys back through ${label} (DTMF out)`, async () => {
      const handle = await double.ringInbound(number, CALLER);
      const leg = await handle.stream();
      await leg.waitForAudio(500);
      leg.pressKeys("7");
      await eventually(() => double.dtmfOut.some((d) => d.callId === handle.call.id && d.digits === "1"), "DTMF out");
      if (vendor.dtmfReconnectsStream) {
        // The digits replaced the call's markup: the stream reconnects and the call goes on.
        await eventually(() => handle.call.legs.length === 2, "the stream to reconnect");
        await lastLeg(handle.call)?.waitForAudio(200);
      }
      const callId = await newestCallId(world);
      await handle.hangup();
      const log = await finishedLog(world, callId);
      expect(log.events).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: "dtmf", direction: "in", digits: "7" }),
          expect.objectContaining({ type: "dtmf", direction: "out", digits: "1" }),
        ]),
      );
      expect(log.events.filter((e) => e.type === "error")).toEqual([]);
    }, 90_000);

    it(`transfers the caller through ${label} and records where and when`, async () => {
      const handle = await double.ringInbound(number, CALLER);
      const leg = await handle.stream();
      await leg.waitForAudio(500);
      leg.pressKeys("5");
      await eventually(() => double.transfers.some((x) => x.callId === handle.call.id), "the transfer", 45_000);
      const transfer = double.transfers.find((x) => x.callId === handle.call.id);
      expect(digits(transfer?.destination)).toBe(digits(TRANSFER_NUMBER));
      const callId = await newestCallId(world);
      const log = await finishedLog(world, callId);
      expect(log).toMatchObject({ status: "completed", end_reason: "transferred" });
      expect(log.events).toContainEqual(
        expect.objectContaining({ type: "transfer", destination: { name: "Billing", number: TRANSFER_NUMBER } }),
      );
    }, 90_000);

    it("hangs up the phone call when the caller is removed from the live monitor", async () => {
      const handle = await double.ringInbound(number, CALLER);
      const leg = await handle.stream();
      await leg.waitForAudio(500);
      const rooms = await call(world.t, "GET", "/api/v1/agents/room/workspace_rooms", { token: world.token });
      const room = rooms.json().rooms[0];
      const caller = room.participants.find((p: { kind: string }) => p.kind === "caller");
      expect(caller).toMatchObject({ name: CALLER });
      const identity = encodeURIComponent(caller.identity);
      const removed = await call(
        world.t,
        "POST",
        `/api/v1/agents/room/${room.name}/remove_participant?participant_identity=${identity}`,
        { token: world.token },
      );
      expect(removed.statusCode).toBe(200);
      await handle.done;
      expect(handle.call.ended).toBe(true);
      const log = await finishedLog(world, room.call_id);
      expect(log).toMatchObject({ status: "completed", end_reason: "removed", channel: "phone" });
    }, 180_000);

    it("refuses a webhook with a bad signature with 403", async () => {
      const handle = await double.ringInbound(number, CALLER, { forgeSignature: true });
      expect(handle.voice.status).toBe(403);
      await handle.hangup();
    });
  });

  describe(`an outbound ${label} call`, () => {
    it("places the call, follows its status callbacks, and runs the outbound assistant once answered", async () => {
      double.setOutbound({ outcome: "answer", ringMs: 200 });
      const before = knownCalls();
      const res = await placeCall();
      expect(res.statusCode).toBe(201);
      const placed = res.json();
      expect(placed).toMatchObject({ status: "queued", from_number: number, to_number: DESTINATION });
      const carried = await placedCall(before);
      await eventually(() => carried.legs.length > 0, "the media stream");
      const leg = lastLeg(carried);
      if (!leg) throw new Error("no stream");
      await leg.waitForAudio(1000);
      expect(isNonSilent(leg.received())).toBe(true);
      await leg.hangup();
      const log = await finishedLog(world, placed.call_id);
      expect(log).toMatchObject({
        channel: "phone",
        direction: "outbound",
        from_number: number,
        to_number: DESTINATION,
        status: "completed",
      });
    }, 90_000);

    it("closes the call log with the carrier's reason when the line is busy", async () => {
      double.setOutbound({ outcome: "busy", ringMs: 100 });
      const res = await placeCall();
      expect(res.statusCode).toBe(201);
      const log = await finishedLog(world, res.json().call_id);
      expect(log).toMatchObject({ status: "failed", end_reason: "busy", direction: "outbound" });
    }, 180_000);

    it.runIf(vendor.machineDetection)(
      "hangs up on an answering machine when the assistant's voicemail rule says so",
      async () => {
        const patch = (body: Record<string, unknown>) =>
          call(world.t, "PATCH", `/api/v1/agents/${world.agentId}`, { token: world.token, body });
        expect((await patch({ voicemail_detection: true, voicemail_detection_handler: "hangup" })).statusCode).toBe(
          200,
        );
        try {
          double.setOutbound({ outcome: "machine", ringMs: 100 });
          const before = knownCalls();
          const res = await placeCall();
          expect(res.statusCode).toBe(201);
          expect((await placedCall(before)).machineDetection).toBeTruthy();
          const log = await finishedLog(world, res.json().call_id);
          expect(log).toMatchObject({ end_reason: "voicemail", direction: "outbound" });
        } finally {
          await patch({ voicemail_detection: false });
        }
      },
      60_000,
    );

    it("answers 422 for a destination that is not a phone number, 404 for an unknown number", async () => {
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
}
