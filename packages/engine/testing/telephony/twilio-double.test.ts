import twilio from "twilio";
import { describe, expect, it } from "vitest";
import { mulawEncode } from "../../src/audio/mulaw.ts";
import { resample } from "../../src/audio/resample.ts";
import { closeAfterEach } from "../close-after-each.ts";
import { sine } from "../signals.ts";
import { isNonSilent } from "./audio-checks.ts";
import { isRecord } from "./double-server.ts";
import { basicAuthorization as basic, expectForgedCallRefused, logStream, type StreamLog } from "./double-test-kit.ts";
import type { StandInApp, StandInRequest } from "./stand-in-app.ts";
import { pick, pickString, readJson, startStandInApp, until } from "./stand-in-app.ts";
import { startTwilioDouble } from "./twilio-double.ts";

const SID = "AC0123456789abcdef0123456789abcdef";
const TOKEN = "twilio-test-token";
const NUMBERS = ["+14155550100", "+14155550101", "+14155550102"];
const ACCOUNTS = [{ sid: SID, token: TOKEN, numbers: NUMBERS }];

const closing = closeAfterEach();

/** Parley's part in miniature: checks signatures with Twilio's own library, answers with <Connect><Stream>. */
async function standIn(streams: StreamLog[]): Promise<StandInApp> {
  const started = await startStandInApp({
    http: (request: StandInRequest) => {
      const params = Object.fromEntries(new URLSearchParams(request.body));
      const signature = String(request.headers["x-twilio-signature"] ?? "");
      if (!twilio.validateRequest(TOKEN, signature, request.url, params)) return { status: 403, body: "bad signature" };
      if (request.path === "/voice") {
        return {
          status: 200,
          contentType: "text/xml",
          body: `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="${started.wsOrigin}/stream"><Parameter name="call_id" value="c-1"/><Parameter name="note" value="a &amp; b"/></Stream></Connect></Response>`,
        };
      }
      return { status: 204 };
    },
    socket: (socket) => {
      streams.push(logStream(socket));
    },
  });
  return started;
}

function mediaMessage(streamSid: string, ms: number, frequency = 440): string {
  const pcm8k = resample(sine(frequency, ms), 16_000, 8_000);
  return JSON.stringify({
    event: "media",
    streamSid,
    media: { payload: Buffer.from(mulawEncode(pcm8k)).toString("base64") },
  });
}

function startOf(log: StreamLog): Record<string, unknown> {
  const start = log.messages.find((m) => m.event === "start");
  if (!start || !isRecord(start.start)) throw new Error("no start message");
  return start.start;
}

describe("Twilio double", () => {
  it("lists numbers in pages, records webhook updates and refuses wrong credentials with error 20003", async () => {
    const double = closing(await startTwilioDouble({ accounts: ACCOUNTS, pageSize: 2 }));
    const auth = { authorization: basic(SID, TOKEN) };
    const first = await fetch(`${double.origin}/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers.json`, {
      headers: auth,
    });
    const page0 = await readJson(first);
    expect(pick(page0, "incoming_phone_numbers")).toEqual([
      expect.objectContaining({ phone_number: NUMBERS[0] }),
      expect.objectContaining({ phone_number: NUMBERS[1] }),
    ]);
    expect(pick(page0, "incoming_phone_numbers", 0, "friendly_name")).toBe("(415) 555-0100");
    expect(pickString(page0, "next_page_uri")).toMatch(/Page=1/);
    const page1 = await readJson(
      await fetch(`${double.origin}${pickString(page0, "next_page_uri")}`, { headers: auth }),
    );
    expect(pick(page1, "incoming_phone_numbers")).toEqual([expect.objectContaining({ phone_number: NUMBERS[2] })]);
    expect(pick(page1, "next_page_uri")).toBeNull();

    const wrong = await fetch(`${double.origin}/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers.json`, {
      headers: { authorization: basic(SID, "nope") },
    });
    expect(wrong.status).toBe(401);
    expect(await readJson(wrong)).toEqual({
      code: 20003,
      message: "Authenticate",
      more_info: "https://www.twilio.com/docs/errors/20003",
      status: 401,
    });

    const sid = pickString(page0, "incoming_phone_numbers", 0, "sid");
    const update = await fetch(`${double.origin}/2010-04-01/Accounts/${SID}/IncomingPhoneNumbers/${sid}.json`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        VoiceUrl: "https://parley.test/voice",
        VoiceMethod: "POST",
        StatusCallback: "https://parley.test/status",
      }),
    });
    expect(update.status).toBe(200);
    expect(pick(await readJson(update), "voice_url")).toBe("https://parley.test/voice");
    expect(double.numbers.get(sid)?.updates[0]?.params.VoiceUrl).toBe("https://parley.test/voice");
  });

  it("rings a number: signed voice webhook, Media Streams with parameters, marks, clear, DTMF, completed callback", async () => {
    const streams: StreamLog[] = [];
    const app = closing(await standIn(streams));
    const double = closing(await startTwilioDouble({ accounts: ACCOUNTS }));
    const number = [...double.numbers.values()][0];
    if (!number) throw new Error("no number");
    number.voiceUrl = `${app.origin}/voice`;
    number.statusCallback = `${app.origin}/status`;

    const handle = await double.ringInbound(NUMBERS[0] ?? "", "+14155559999", { speech: sine(300, 400), dtmf: ["5"] });
    expect(handle.voice.status).toBe(200);
    const voiceParams = new URLSearchParams(handle.voice.body);
    expect(voiceParams.get("CallStatus")).toBe("ringing");
    expect(voiceParams.get("Direction")).toBe("inbound");
    expect(voiceParams.get("From")).toBe("+14155559999");
    const leg = await handle.stream();
    await until(() => streams.length === 1 && streams[0]?.messages.some((m) => m.event === "dtmf") === true, "dtmf");
    const log = streams[0];
    if (!log) throw new Error("no stream");
    expect(log.messages[0]).toEqual({ event: "connected", protocol: "Call", version: "1.0.0" });
    const start = startOf(log);
    expect(start.customParameters).toEqual({ call_id: "c-1", note: "a & b" });
    expect(start.callSid).toBe(handle.call.id);
    expect(start.mediaFormat).toEqual({ encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 });
    expect(log.messages.find((m) => m.event === "dtmf")?.dtmf).toEqual({ track: "inbound_track", digit: "5" });
    expect(log.messages.filter((m) => m.event === "media").length).toBeGreaterThan(20);
    const streamSid = String(start.streamSid);

    // 600 ms of audio then a mark: the mark comes back once playout has reached it.
    log.socket.send(mediaMessage(streamSid, 600));
    log.socket.send(JSON.stringify({ event: "mark", streamSid, mark: { name: "first" } }));
    await until(() => log.messages.some((m) => m.event === "mark"), "mark echo");
    expect(leg.played().length).toBeGreaterThanOrEqual(0.6 * 16_000 - 320);
    expect(isNonSilent(leg.received())).toBe(true);

    // 5 s queued then cleared: the pending mark comes back at once and the audio is dropped.
    log.socket.send(mediaMessage(streamSid, 5000));
    log.socket.send(JSON.stringify({ event: "mark", streamSid, mark: { name: "second" } }));
    await until(() => leg.queuedMs() > 1000, "queued audio");
    log.socket.send(JSON.stringify({ event: "clear", streamSid }));
    await until(() => log.messages.filter((m) => m.event === "mark").length === 2, "cleared mark");
    const clear = await leg.waitForEvent("clear");
    expect(clear.droppedMarks).toEqual(["second"]);
    expect(leg.queuedMs()).toBe(0);
    expect(leg.events.filter((e) => e.type === "invalid")).toEqual([]);

    // Parley ends the stream: the TwiML runs out, the call completes with a signed callback.
    log.socket.close();
    await handle.done;
    const status = app.requests.find((r) => r.path === "/status");
    const params = new URLSearchParams(status?.body);
    expect(params.get("CallStatus")).toBe("completed");
    expect(Number(params.get("CallDuration"))).toBeGreaterThanOrEqual(1);
    expect(double.webhooks.every((w) => w.status !== 403)).toBe(true);
  });

  it("signs with another token when asked, and the stand-in's 403 is what the handle reports", async () => {
    const app = closing(await standIn([]));
    const double = closing(await startTwilioDouble({ accounts: ACCOUNTS }));
    const number = [...double.numbers.values()][0];
    if (!number) throw new Error("no number");
    number.voiceUrl = `${app.origin}/voice?tenant=a`;
    await expectForgedCallRefused(double, NUMBERS[0] ?? "", "+14155559999");
  });

  it("places a call: status callbacks in order, voice URL fetched, DTMF out and a <Dial> transfer end the stream", async () => {
    const streams: StreamLog[] = [];
    const app = closing(await standIn(streams));
    const double = closing(await startTwilioDouble({ accounts: ACCOUNTS }));
    const auth = { authorization: basic(SID, TOKEN), "content-type": "application/x-www-form-urlencoded" };
    const form = new URLSearchParams({
      To: "+14155557777",
      From: NUMBERS[0] ?? "",
      Url: `${app.origin}/voice`,
      StatusCallback: `${app.origin}/status`,
    });
    for (const event of ["initiated", "ringing", "answered", "completed"]) form.append("StatusCallbackEvent", event);
    const created = await fetch(`${double.origin}/2010-04-01/Accounts/${SID}/Calls.json`, {
      method: "POST",
      headers: auth,
      body: form,
    });
    expect(created.status).toBe(201);
    const call = await readJson(created);
    const callSid = pickString(call, "sid");
    expect(callSid).toMatch(/^CA[0-9a-f]{32}$/);
    expect(pick(call, "status")).toBe("queued");
    const simulated = double.calls.get(callSid);
    if (!simulated) throw new Error("no call");
    const leg = await simulated.waitForStream();
    await leg.opened;

    const callUrl = `${double.origin}/2010-04-01/Accounts/${SID}/Calls/${callSid}.json`;
    const dtmf = await fetch(callUrl, {
      method: "POST",
      headers: auth,
      body: new URLSearchParams({
        Twiml: `<Response><Play digits="12"/><Connect><Stream url="${app.wsOrigin}/stream"/></Connect></Response>`,
      }),
    });
    expect(dtmf.status).toBe(200);
    await until(() => double.dtmfOut.length === 1 && simulated.legs.length === 2, "DTMF and a new stream");
    await until(() => streams[1]?.messages.some((m) => m.event === "start") === true, "the second stream's start");
    expect(double.dtmfOut[0]).toMatchObject({ callId: callSid, digits: "12" });

    await fetch(callUrl, {
      method: "POST",
      headers: auth,
      body: new URLSearchParams({
        Twiml: '<Response><Dial callerId="+14155550100"><Number>+14155558888</Number></Dial></Response>',
      }),
    });
    await simulated.done;
    expect(double.transfers).toEqual([
      expect.objectContaining({ callId: callSid, destination: "+14155558888", callerId: "+14155550100" }),
    ]);
    expect(streams[1]?.messages.at(-1)?.event).toBe("stop");
    const statuses = app.requests
      .filter((r) => r.path === "/status")
      .map((r) => new URLSearchParams(r.body).get("CallStatus"));
    expect(statuses).toEqual(["initiated", "ringing", "in-progress", "completed"]);
    const voice = app.requests.find((r) => r.path === "/voice");
    expect(new URLSearchParams(voice?.body).get("Direction")).toBe("outbound-api");
  });

  it("reports busy and refuses a From number the account does not own (21210)", async () => {
    const app = closing(await standIn([]));
    const double = closing(
      await startTwilioDouble({
        accounts: ACCOUNTS,
        outbound: { outcome: "busy" },
      }),
    );
    const auth = { authorization: basic(SID, TOKEN), "content-type": "application/x-www-form-urlencoded" };
    const url = `${double.origin}/2010-04-01/Accounts/${SID}/Calls.json`;
    const foreign = await fetch(url, {
      method: "POST",
      headers: auth,
      body: new URLSearchParams({ To: "+14155557777", From: "+15005550001", Url: `${app.origin}/voice` }),
    });
    expect(foreign.status).toBe(400);
    expect(pick(await readJson(foreign), "code")).toBe(21210);
    const created = await readJson(
      await fetch(url, {
        method: "POST",
        headers: auth,
        body: new URLSearchParams({
          To: "+14155557777",
          From: NUMBERS[0] ?? "",
          Url: `${app.origin}/voice`,
          StatusCallback: `${app.origin}/status`,
        }),
      }),
    );
    await double.calls.get(pickString(created, "sid"))?.done;
    const statuses = app.requests
      .filter((r) => r.path === "/status")
      .map((r) => new URLSearchParams(r.body).get("CallStatus"));
    expect(statuses).toEqual(["busy"]);
    expect(app.requests.some((r) => r.path === "/voice")).toBe(false);
  });
  it("answers with a machine when asked: AnsweredBy on the voice request (MachineDetection=Enable)", async () => {
    const app = closing(await standIn([]));
    const double = closing(
      await startTwilioDouble({
        accounts: ACCOUNTS,
        outbound: { outcome: "machine", speech: sine(200, 500) },
      }),
    );
    const created = await readJson(
      await fetch(`${double.origin}/2010-04-01/Accounts/${SID}/Calls.json`, {
        method: "POST",
        headers: { authorization: basic(SID, TOKEN), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          To: "+14155557777",
          From: NUMBERS[0] ?? "",
          Url: `${app.origin}/voice`,
          MachineDetection: "Enable",
        }),
      }),
    );
    const call = double.calls.get(pickString(created, "sid"));
    if (!call) throw new Error("no call");
    await call.waitForStream();
    const voice = app.requests.find((r) => r.path === "/voice");
    expect(new URLSearchParams(voice?.body).get("AnsweredBy")).toBe("machine_start");
  });
});
