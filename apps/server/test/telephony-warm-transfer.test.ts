import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { StreamEvent, TelephonyAccount, TelephonyAdapter } from "@parley/engine";
import { callerSpeech, isNonSilent } from "@parley/engine/testing/telephony/audio-checks";
import { startTwilioDouble, type TwilioDouble } from "@parley/engine/testing/telephony/twilio-double";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { adapterOf } from "../src/modules/telephony/account.ts";
import { type BriefingStream, claimBriefingStream } from "../src/modules/telephony/briefing-stream.ts";
import { defaultBriefing } from "../src/modules/telephony/briefing-text.ts";
import { CallControl, type PhoneLegRef } from "../src/modules/telephony/call-control.ts";
import {
  WARM_TRANSFER_TEXTS,
  type WarmTransferDeps,
  type WarmTransferRecord,
} from "../src/modules/telephony/warm-transfer.ts";

/**
 * Warm transfer against the local Twilio double: the caller waits in a conference, the human's
 * leg streams to Parley and hears the briefing (non-silent audio), then joins the caller's
 * conference. The media stream route's hand-off of a briefing stream (claimBriefingStream, then
 * every later event to the stream) is played here by a small WebSocket server of the test.
 */

const SID = `AC${randomBytes(16).toString("hex")}`;
const TOKEN = randomBytes(16).toString("hex");
const NUMBER = "+14155550100";
const CALLER = "+14155550123";
const HUMAN = "+14155550177";
const log = pino({ level: "silent" });

let double: TwilioDouble;
const doubles: TwilioDouble[] = [];
let adapter: TelephonyAdapter;
let account: TelephonyAccount;
let http: Server;
let origin: string;
const briefings: BriefingStream[] = [];

async function eventually(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The stand-in's voice webhook holds the caller's call (Parley's stream is not under test here). */
function standIn(): Promise<void> {
  http = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      if (request.url?.startsWith("/voice")) {
        response.writeHead(200, { "content-type": "text/xml" });
        response.end('<?xml version="1.0" encoding="UTF-8"?><Response><Pause length="600"/></Response>');
        return;
      }
      response.writeHead(204).end();
    });
  });
  const wss = new WebSocketServer({ server: http, path: "/stream" });
  wss.on("connection", (socket) => {
    const codec = adapter.createStreamCodec();
    let briefing: BriefingStream | null = null;
    const apply = (event: StreamEvent) => {
      if (briefing) return briefing.onEvent(event);
      if (event.type !== "start") return;
      briefing = claimBriefingStream(socket, codec, event);
      if (briefing) briefings.push(briefing);
      else socket.close(1008, "no such briefing");
    };
    socket.on("message", (data, isBinary) => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.toString());
      for (const event of codec.decode(isBinary ? bytes : bytes.toString("utf8"), isBinary)) apply(event);
    });
    socket.on("close", () => briefing?.onEnded());
  });
  return new Promise((resolve) =>
    http.listen(0, "127.0.0.1", () => {
      const address = http.address();
      if (address !== null && typeof address !== "string") origin = `127.0.0.1:${address.port}`;
      resolve();
    }),
  );
}

/** Points the double's number at the stand-in server, as importing the number into Parley would. */
async function pointNumberAtStandIn() {
  const [number] = await adapter.listNumbers(account);
  if (!number) throw new Error("the double lists no number");
  await adapter.configureNumber(account, number, {
    voiceUrl: `http://${origin}/voice`,
    statusUrl: `http://${origin}/status`,
    streamUrl: `ws://${origin}/stream`,
  });
}

beforeAll(async () => {
  double = await startTwilioDouble({ accounts: [{ sid: SID, token: TOKEN, numbers: [NUMBER] }] });
  doubles.push(double);
  const loaded = await adapterOf("twilio");
  if (!loaded) throw new Error("no Twilio adapter");
  adapter = loaded;
  account = { credentials: { account_sid: SID, auth_token: TOKEN }, net: { fetch }, baseUrl: double.origin };
  await standIn();
  await pointNumberAtStandIn();
}, 60_000);

afterAll(async () => {
  for (const started of doubles) await started.close();
  await new Promise((resolve) => http?.close(resolve));
});

interface Harness {
  hangup: () => Promise<void>;
  control: CallControl;
  records: WarmTransferRecord[];
  callerCallId: string;
}

async function callerOnTheLine(warm: boolean): Promise<Harness> {
  const handle = await double.ringInbound(NUMBER, CALLER);
  await eventually(() => handle.call.status === "in-progress", "the caller's call to be answered");
  const leg: PhoneLegRef = {
    provider: "twilio",
    providerCallId: handle.call.id,
    ourNumber: NUMBER,
    statusUrl: `http://${origin}/status`,
  };
  const records: WarmTransferRecord[] = [];
  const deps: WarmTransferDeps = {
    streamUrl: `ws://${origin}/stream`,
    now: () => new Date(),
    planFor: async (number) =>
      warm && number === HUMAN
        ? {
            destination: { name: "Billing", number: HUMAN },
            briefing: defaultBriefing(CALLER, [{ role: "user", text: "I was charged twice", at_ms: 1 }]),
          }
        : null,
    // The assistant's voice stands in as espeak-ng speech: real, non-silent audio.
    speak: async (text) => callerSpeech(text),
    record: async (record) => {
      records.push(record);
    },
  };
  const links = {
    transferMarkupUrl: async () => `http://${origin}/transfer`,
    resume: async () => ({
      urls: { voiceUrl: `http://${origin}/voice`, statusUrl: leg.statusUrl, streamUrl: deps.streamUrl },
      parameters: {},
    }),
  };
  const control = new CallControl(adapter, account, leg, links, log, deps);
  return { control, records, callerCallId: handle.call.id, hangup: handle.hangup };
}

describe("warm transfer over Twilio", () => {
  it("holds the caller in a conference, briefs the human on a stream, then connects both", async () => {
    double.setOutbound({ outcome: "answer" });
    const { control, records, callerCallId, hangup } = await callerOnTheLine(true);
    const before = briefings.length;
    const transfer = control.transfer(HUMAN);

    // The caller is moved into a conference of their own, waiting (hold music) for the human.
    await eventually(
      () => [...double.conferences.values()].some((room) => room.members().includes(callerCallId)),
      "the caller to wait in a conference",
    );
    const room = [...double.conferences.values()].find((r) => r.members().includes(callerCallId));
    if (!room) throw new Error("no conference");
    expect(room.started()).toBe(false);

    await transfer;
    const human = [...double.calls.values()].find((c) => c.to === HUMAN && c.direction === "outbound");
    if (!human) throw new Error("the human was not dialled");
    expect(human.from).toBe(NUMBER);
    expect(briefings.length).toBe(before + 1);
    // The human heard the briefing on their own stream before joining.
    expect(isNonSilent(human.received())).toBe(true);
    // Both are in the one conference now, and it runs (no more hold music).
    await eventually(() => room.members().includes(human.id), "the human to join the caller's conference");
    expect(room.members().sort()).toEqual([callerCallId, human.id].sort());
    expect(room.started()).toBe(true);
    const humanJoined = room.memberships.find((m) => m.callId === human.id)?.joinedAt ?? 0;
    const callerJoined = room.memberships.find((m) => m.callId === callerCallId)?.joinedAt ?? 0;
    expect(callerJoined).toBeLessThanOrEqual(humanJoined);

    expect(records).toHaveLength(1);
    const [record] = records;
    expect(record).toMatchObject({
      mode: "warm",
      destination: { name: "Billing", number: HUMAN },
      human_call_id: human.id,
      outcome: "connected",
    });
    const held = Date.parse(record?.held_at ?? "");
    const briefed = Date.parse(record?.briefed_at ?? "");
    const connected = Date.parse(record?.connected_at ?? "");
    expect(held).toBeLessThanOrEqual(briefed);
    expect(briefed).toBeLessThanOrEqual(connected);

    // The caller hanging up ends the conference for the human too (endConferenceOnExit).
    const caller = double.calls.get(callerCallId);
    await hangup();
    await eventually(() => caller?.ended === true && human.ended, "both legs to end");
  }, 90_000);
});

describe("warm transfer when the human does not answer", () => {
  beforeAll(async () => {
    double = await startTwilioDouble({ accounts: [{ sid: SID, token: TOKEN, numbers: [NUMBER] }] });
    doubles.push(double);
    account = { ...account, baseUrl: double.origin };
    await pointNumberAtStandIn();
  }, 60_000);

  it("tells the caller nobody is available and ends the call when the line is busy", async () => {
    double.setOutbound({ outcome: "busy" });
    const { control, records, callerCallId } = await callerOnTheLine(true);
    await control.transfer(HUMAN);
    expect(records[0]).toMatchObject({ mode: "warm", outcome: "unanswered", detail: "busy", briefed_at: null });
    const caller = double.calls.get(callerCallId);
    await eventually(() => caller?.ended === true, "the caller's call to end");
    expect(caller?.documents.at(-1)).toContain(`<Say>${WARM_TRANSFER_TEXTS.unanswered}</Say>`);
    expect(double.conferences.get([...double.conferences.keys()][0] ?? "")?.members()).toEqual([]);
  }, 90_000);

  it("transfers cold when the destination is not a warm one", async () => {
    double.setOutbound({ outcome: "answer" });
    const { control, records, callerCallId } = await callerOnTheLine(false);
    const conferences = double.conferences.size;
    await control.transfer(HUMAN);
    await eventually(() => double.transfers.some((t) => t.callId === callerCallId), "the cold transfer");
    expect(records).toEqual([]);
    expect(double.conferences.size).toBe(conferences);
  }, 90_000);
});

describe("the default briefing", () => {
  it("names the caller and quotes their last turns, deterministically", () => {
    const text = defaultBriefing("+1415", [
      { role: "user", text: "Hi", at_ms: 0 },
      { role: "assistant", text: "Hello, how can I help?", at_ms: 1 },
      { role: "user", text: "My invoice is wrong", at_ms: 2 },
      { role: "user", text: "  I need a refund ", at_ms: 3 },
    ]);
    expect(text).toBe(
      'Hello, this is the assistant. I have a caller on the line from + 1 4 1 5. They said: "My invoice is wrong I need a refund". I am connecting you now.',
    );
    expect(defaultBriefing("", [])).toBe(
      "Hello, this is the assistant. I have a caller on the line. I am connecting you now.",
    );
  });
});
