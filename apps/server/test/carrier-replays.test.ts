import { randomBytes, randomUUID } from "node:crypto";
import type { WebhookExchange } from "@parley/engine/testing/telephony/double-server";
import { twilioSignature } from "@parley/engine/testing/telephony/twilio-signature";
import { signWebhookJwt, webhookPayload } from "@parley/engine/testing/telephony/vonage-jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { webhookUrlsFor } from "../src/modules/phone-numbers/webhook-urls.ts";
import { call } from "./harness.ts";
import type { BridgeDouble, BridgeVendor } from "./support/bridge-suite.ts";
import { plivoVendor, telnyxVendor, twilioVendor, vonageVendor } from "./support/carrier-vendors.ts";
import { type BridgeWorld, finishedLog, newestCallId, startBridgeWorld } from "./support/telephony-bridge.ts";

/**
 * Issue 25, item 6: a signed voice webhook sent again (a replay, or the vendor retrying) never opens
 * a second call. One carrier call id is one call log (unique in the database, so it holds across
 * processes); a repeat while the call runs answers without a stream grant; two requests for one new
 * call at once open one call, and of the two stream grants they get only one stream is admitted.
 */

const CALLER = "+14155559999";

/** A webhook as sent: where, how, with which headers and body. */
type SentWebhook = Pick<WebhookExchange, "url" | "method" | "headers" | "body">;

/** Sends a webhook the double sent, again, exactly (or with other headers). */
async function resend(exchange: SentWebhook, headers: Record<string, string> = exchange.headers) {
  const res = await fetch(exchange.url, {
    method: exchange.method,
    headers,
    ...(exchange.method === "POST" ? { body: exchange.body } : {}),
  });
  return { status: res.status, body: await res.text() };
}

/** The workspace's call logs and the rooms this process holds for it. */
async function callsOf(world: BridgeWorld) {
  const logs = await call(world.t, "GET", "/api/v1/call-logs?items_per_page=100", { token: world.token });
  const rooms = world.t.ctx.calls.rooms.all().filter((room) => room.workspaceId === world.workspaceId);
  return { logs: logs.json<{ data: { id: string }[] }>().data.length, rooms: rooms.length };
}

/** A world (app, workspace, number) for one vendor, set up for the describe block it is called in. */
function vendorWorld(vendor: BridgeVendor) {
  const state: { double?: BridgeDouble; world?: BridgeWorld } = {};
  beforeAll(async () => {
    state.double = await vendor.startDouble();
    const credentials = await vendor.credentials(state.double);
    state.world = await startBridgeWorld({
      provider: vendor.provider,
      credentials: () => credentials,
      doubleOrigin: state.double.origin,
      number: vendor.number,
    });
  }, 180_000);
  afterAll(async () => {
    await state.world?.close();
    await state.double?.close();
  });
  return {
    get double() {
      if (!state.double) throw new Error("no double");
      return state.double;
    },
    get world() {
      if (!state.world) throw new Error("no world");
      return state.world;
    },
  };
}

/**
 * Rings in, lets the assistant answer, then sends the voice webhook again: no second call or room,
 * and the repeat's answer carries no stream grant. `again` sends the repeat (the exact request, or
 * one the vendor signed anew) and says what status it expects.
 */
function itAnswersRepeatsWithTheSameCall(
  setup: ReturnType<typeof vendorWorld>,
  vendor: BridgeVendor,
  again: (voice: WebhookExchange) => Promise<{ status: number; body: string }>,
  expectedStatus: number,
) {
  return async () => {
    const { double, world } = setup;
    const before = await callsOf(world);
    const handle = await double.ringInbound(vendor.number, CALLER);
    expect(handle.voice.status).toBe(200);
    const leg = await handle.stream();
    await leg.waitForAudio(500);
    const callId = await newestCallId(world);

    const repeat = await again(handle.voice);
    expect(repeat.status).toBe(expectedStatus);
    expect(repeat.body).not.toMatch(/token/);
    expect(await callsOf(world)).toEqual({ logs: before.logs + 1, rooms: before.rooms + 1 });

    await handle.hangup();
    expect(await finishedLog(world, callId)).toMatchObject({ status: "completed", end_reason: "caller_hangup" });
    expect((await callsOf(world)).logs).toBe(before.logs + 1);
  };
}

for (const vendor of [twilioVendor(), telnyxVendor(), plivoVendor()]) {
  describe(`a ${vendor.label} voice webhook sent again`, () => {
    const setup = vendorWorld(vendor);
    it(
      "answers for the call already running and opens no second call, room or stream grant",
      itAnswersRepeatsWithTheSameCall(setup, vendor, (voice) => resend(voice), 200),
      90_000,
    );
  });
}

/** Twilio's start message for a stream, carrying the parameters of a voice webhook's TwiML. */
function twilioStart(callSid: string, twiml: string): string {
  const parameters = Object.fromEntries(
    [...twiml.matchAll(/<Parameter name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]),
  );
  const streamSid = `MZ${randomBytes(16).toString("hex")}`;
  const mediaFormat = { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 };
  const start = { streamSid, callSid, tracks: ["inbound"], mediaFormat, customParameters: parameters };
  return JSON.stringify({ event: "start", sequenceNumber: "1", start, streamSid });
}

/** Opens a Twilio media stream with `start`: "joined" once the assistant's audio comes, "refused" on close. */
function openTwilioStream(url: string, start: string): { outcome: Promise<"joined" | "refused">; socket: WebSocket } {
  const socket = new WebSocket(url);
  const outcome = new Promise<"joined" | "refused">((resolve, reject) => {
    socket.on("open", () => {
      socket.send(JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }));
      socket.send(start);
    });
    socket.on("message", (data) => {
      if (String(data).includes('"media"')) resolve("joined");
    });
    socket.on("close", (code) => (code === 1008 ? resolve("refused") : reject(new Error(`stream closed ${code}`))));
    socket.on("error", reject);
  });
  return { outcome, socket };
}

describe("Twilio voice webhooks for one new call, twice at once", () => {
  const vendor = twilioVendor("+14155550110");
  const setup = vendorWorld(vendor);

  it("open one call; of the two stream grants only the first stream joins", async () => {
    const { world } = setup;
    const before = await callsOf(world);
    const callSid = `CA${randomBytes(16).toString("hex")}`;
    const urls = webhookUrlsFor(world.t.config.publicUrl, "twilio");
    const params = {
      AccountSid: vendor.sid,
      CallSid: callSid,
      From: CALLER,
      To: vendor.number,
      Direction: "inbound",
      CallStatus: "ringing",
    };
    const post = async () => {
      const res = await fetch(urls.voiceUrl, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-twilio-signature": twilioSignature(vendor.token, urls.voiceUrl, params),
        },
        body: new URLSearchParams(params).toString(),
      });
      return { status: res.status, body: await res.text() };
    };
    const answers = await Promise.all([post(), post()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const callIds = answers.map((a) => /name="call_id" value="([^"]+)"/.exec(a.body)?.[1]);
    expect(callIds[0]).toBeTruthy();
    expect(callIds[1]).toBe(callIds[0]);
    expect(await callsOf(world)).toEqual({ logs: before.logs + 1, rooms: before.rooms + 1 });

    const first = openTwilioStream(urls.streamUrl, twilioStart(callSid, answers[0]?.body ?? ""));
    expect(await first.outcome).toBe("joined");
    const second = openTwilioStream(urls.streamUrl, twilioStart(callSid, answers[1]?.body ?? ""));
    expect(await second.outcome).toBe("refused");
    first.socket.close();
    expect(await finishedLog(world, callIds[0] ?? "")).toMatchObject({ status: "completed" });
  }, 90_000);
});

describe("a Vonage answer webhook sent again", () => {
  const vendor = vonageVendor();
  const setup = vendorWorld(vendor);
  /** The same answer webhook, signed anew by Vonage (a fresh jti and iat), as a retry would be. */
  const resigned = (voice: SentWebhook) => {
    const secret = vendor.double().signatureSecret(vendor.apiKey);
    const payload = webhookPayload(voice.method, voice.url, voice.body);
    const token = signWebhookJwt(secret, { apiKey: vendor.apiKey, applicationId: randomUUID(), payload });
    return resend(voice, { ...voice.headers, Authorization: `Bearer ${token}` });
  };

  it(
    "is refused when it is the same signed request (its jti was used)",
    itAnswersRepeatsWithTheSameCall(setup, vendor, (voice) => resend(voice), 403),
    90_000,
  );
  it(
    "signed anew, answers for the call already running and opens no second call",
    itAnswersRepeatsWithTheSameCall(setup, vendor, resigned, 200),
    90_000,
  );

  it("twice at once for a new call, opens one call", async () => {
    const { world } = setup;
    const before = await callsOf(world);
    const urls = webhookUrlsFor(world.t.config.publicUrl, "vonage");
    const body = JSON.stringify({
      to: vendor.number.slice(1),
      from: CALLER.slice(1),
      uuid: randomUUID(),
      conversation_uuid: `CON-${randomUUID()}`,
    });
    const voice: SentWebhook = {
      url: urls.voiceUrl,
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    };
    const answers = await Promise.all([resigned(voice), resigned(voice)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const callIds = answers.map((a) => /"call_id":"([^"]+)"/.exec(a.body)?.[1]);
    expect(callIds[0]).toBeTruthy();
    expect(callIds[1]).toBe(callIds[0]);
    expect(await callsOf(world)).toEqual({ logs: before.logs + 1, rooms: before.rooms + 1 });
  }, 60_000);
});
