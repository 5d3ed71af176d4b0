import { describe, expect, it } from "vitest";
import { mulawEncode } from "../../src/audio/mulaw.ts";
import { resample } from "../../src/audio/resample.ts";
import { closeAfterEach } from "../close-after-each.ts";
import { sine } from "../signals.ts";
import { isNonSilent } from "./audio-checks.ts";
import { basicAuthorization, expectForgedCallRefused, logStream, type StreamLog } from "./double-test-kit.ts";
import { type PlivoDouble, startPlivoDouble } from "./plivo-double.ts";
import { plivoSignatureV3 } from "./plivo-signature.ts";
import type { StandInApp, StandInRequest } from "./stand-in-app.ts";
import { pick, pickString, readJson, startStandInApp, until } from "./stand-in-app.ts";

const AUTH_ID = "MAZDQ1ZDUXNZLKNDA0NG";
const TOKEN = "plivo-test-token";
const NUMBERS = ["+14155550100", "+14155550101", "+14155550102"];
const ACCOUNTS = [{ authId: AUTH_ID, authToken: TOKEN, numbers: NUMBERS }];

interface SignedStreamLog extends StreamLog {
  /** The handshake carried a valid X-Plivo-Signature-V3 for the stream URL. */
  handshakeSigned: boolean;
}

const closing = closeAfterEach();

const basic = () => ({ authorization: basicAuthorization(AUTH_ID, TOKEN), "content-type": "application/json" });

/** Checks V3 the way Plivo's helper (validateV3Signature) does for a form POST. */
function validSignature(request: StandInRequest): boolean {
  const nonce = String(request.headers["x-plivo-signature-v3-nonce"] ?? "");
  const given = String(request.headers["x-plivo-signature-v3"] ?? "");
  const params = Object.fromEntries(new URLSearchParams(request.body));
  return given.split(",").includes(plivoSignatureV3(TOKEN, "POST", request.url, params, nonce));
}

async function standIn(streams: SignedStreamLog[], keepCallAlive = true): Promise<StandInApp> {
  const started = await startStandInApp({
    http: (request) => {
      if (!validSignature(request)) return { status: 403 };
      if (request.path === "/answer" || request.path === "/answer-out") {
        return {
          status: 200,
          contentType: "application/xml",
          body: `<Response><Stream bidirectional="true" keepCallAlive="${keepCallAlive}" contentType="audio/x-mulaw;rate=8000" extraHeaders="callId=c-7">${started.wsOrigin}/stream</Stream></Response>`,
        };
      }
      if (request.path === "/transfer")
        return {
          status: 200,
          contentType: "application/xml",
          body: "<Response><Dial><Number>14155558888</Number></Dial></Response>",
        };
      return { status: 200 };
    },
    socket: (socket, url, headers) => {
      const nonce = String(headers["x-plivo-signature-v3-nonce"] ?? "");
      const expected = plivoSignatureV3(TOKEN, "GET", `${started.origin}${url}`, {}, nonce);
      streams.push(Object.assign(logStream(socket), { handshakeSigned: headers["x-plivo-signature-v3"] === expected }));
    },
  });
  return started;
}

async function importNumber(d: PlivoDouble, a: StandInApp): Promise<void> {
  const created = await fetch(`${d.origin}/v1/Account/${AUTH_ID}/Application/`, {
    method: "POST",
    headers: basic(),
    body: JSON.stringify({ app_name: "Parley", answer_url: `${a.origin}/answer`, hangup_url: `${a.origin}/hangup` }),
  });
  expect(created.status).toBe(201);
  const appId = pickString(await readJson(created), "app_id");
  const linked = await fetch(`${d.origin}/v1/Account/${AUTH_ID}/Number/14155550100/`, {
    method: "POST",
    headers: basic(),
    body: JSON.stringify({ app_id: appId }),
  });
  expect(linked.status).toBe(202);
}

describe("Plivo double", () => {
  it("lists numbers with limit/offset, without +, and refuses wrong credentials with 401", async () => {
    const double = closing(
      await startPlivoDouble({
        accounts: ACCOUNTS,
        pageSize: 2,
      }),
    );
    const first = await readJson(await fetch(`${double.origin}/v1/Account/${AUTH_ID}/Number/`, { headers: basic() }));
    expect(pick(first, "objects", 0, "number")).toBe("14155550100");
    expect(pick(first, "meta", "total_count")).toBe(3);
    const next = pickString(first, "meta", "next");
    const second = await readJson(await fetch(`${double.origin}${next}`, { headers: basic() }));
    expect(pick(second, "objects", 0, "number")).toBe("14155550102");
    expect(pick(second, "meta", "next")).toBeNull();
    const wrong = await fetch(`${double.origin}/v1/Account/${AUTH_ID}/Number/`, {
      headers: { authorization: basicAuthorization(AUTH_ID, "nope") },
    });
    expect(wrong.status).toBe(401);
  });

  it("rings a number: V3-signed answer_url, signed stream handshake, playAudio, checkpoint, clearAudio, DTMF", async () => {
    const streams: SignedStreamLog[] = [];
    const app = closing(await standIn(streams));
    const double = closing(await startPlivoDouble({ accounts: ACCOUNTS }));
    await importNumber(double, app);
    const handle = await double.ringInbound("+14155550100", "+14155559999", { speech: sine(300, 300), dtmf: ["3"] });
    expect(handle.voice.status).toBe(200);
    const answer = new URLSearchParams(handle.voice.body);
    expect(answer.get("From")).toBe("14155559999");
    expect(answer.get("CallStatus")).toBe("ringing");
    expect(answer.get("Direction")).toBe("inbound");
    const leg = await handle.stream();
    await until(() => streams[0]?.messages.some((m) => m.event === "dtmf") === true, "dtmf");
    const log = streams[0];
    if (!log) throw new Error("no stream");
    expect(log.handshakeSigned).toBe(true);
    const start = log.messages[0];
    expect(pick(start, "event")).toBe("start");
    expect(pick(start, "start", "callId")).toBe(handle.call.id);
    expect(pick(start, "start", "mediaFormat")).toEqual({ encoding: "audio/x-mulaw", sampleRate: 8000 });
    expect(JSON.parse(pickString(start, "extra_headers"))).toEqual({ callId: "c-7" });
    const streamId = pickString(start, "start", "streamId");

    const payload = Buffer.from(mulawEncode(resample(sine(500, 400), 16_000, 8_000))).toString("base64");
    log.socket.send(
      JSON.stringify({ event: "playAudio", media: { contentType: "audio/x-mulaw", sampleRate: 8000, payload } }),
    );
    log.socket.send(JSON.stringify({ event: "checkpoint", streamId, name: "cp1" }));
    await until(() => log.messages.some((m) => m.event === "playedStream"), "playedStream");
    expect(log.messages.find((m) => m.event === "playedStream")?.name).toBe("cp1");
    expect(isNonSilent(leg.played())).toBe(true);
    const long = Buffer.from(mulawEncode(resample(sine(500, 4000), 16_000, 8_000))).toString("base64");
    log.socket.send(
      JSON.stringify({ event: "playAudio", media: { contentType: "audio/x-mulaw", sampleRate: 8000, payload: long } }),
    );
    await until(() => leg.queuedMs() > 1000, "queued audio");
    log.socket.send(JSON.stringify({ event: "clearAudio", streamId }));
    await until(() => log.messages.some((m) => m.event === "clearedAudio"), "clearedAudio");
    expect(leg.queuedMs()).toBe(0);
    expect(leg.events.filter((e) => e.type === "invalid")).toEqual([]);

    await handle.hangup();
    const hangup = app.requests.find((r) => r.path === "/hangup");
    expect(new URLSearchParams(hangup?.body).get("Event")).toBe("Hangup");
    expect(new URLSearchParams(hangup?.body).get("CallStatus")).toBe("completed");
  });

  it("signs with a wrong token when asked (the stand-in answers 403)", async () => {
    const app = closing(await standIn([]));
    const double = closing(await startPlivoDouble({ accounts: ACCOUNTS }));
    await importNumber(double, app);
    await expectForgedCallRefused(double, "+14155550100", "+14155559999");
  });

  it("places a call (request_uuid, ring and hangup URLs), sends DTMF and transfers with aleg_url", async () => {
    const streams: SignedStreamLog[] = [];
    const app = closing(await standIn(streams));
    const double = closing(await startPlivoDouble({ accounts: ACCOUNTS }));
    const created = await fetch(`${double.origin}/v1/Account/${AUTH_ID}/Call/`, {
      method: "POST",
      headers: basic(),
      body: JSON.stringify({
        from: "14155550100",
        to: "14155557777",
        answer_url: `${app.origin}/answer-out`,
        ring_url: `${app.origin}/ring`,
        hangup_url: `${app.origin}/hangup`,
      }),
    });
    expect(created.status).toBe(201);
    const body = await readJson(created);
    expect(pick(body, "message")).toBe("call fired");
    const requestUuid = pickString(body, "request_uuid");
    const call = await double.waitForCall((c) => c.requestUuid === requestUuid);
    await (await call.waitForStream()).opened;
    await until(() => streams[0]?.messages.some((m) => m.event === "start") === true, "start");
    const callUrl = `${double.origin}/v1/Account/${AUTH_ID}/Call/${call.id}/`;
    const dtmf = await fetch(`${callUrl}DTMF/`, {
      method: "POST",
      headers: basic(),
      body: JSON.stringify({ digits: "42" }),
    });
    expect(dtmf.status).toBe(202);
    const transfer = await fetch(callUrl, {
      method: "POST",
      headers: basic(),
      body: JSON.stringify({ legs: "aleg", aleg_url: `${app.origin}/transfer` }),
    });
    expect(transfer.status).toBe(202);
    await call.done;
    expect(double.dtmfOut).toEqual([expect.objectContaining({ callId: call.id, digits: "42" })]);
    expect(double.transfers).toEqual([expect.objectContaining({ callId: call.id, destination: "14155558888" })]);
    const events = app.requests.map((r) => `${r.path} ${new URLSearchParams(r.body).get("CallStatus")}`);
    expect(events).toEqual(["/ring ringing", "/answer-out in-progress", "/transfer in-progress", "/hangup completed"]);
    expect(new URLSearchParams(app.requests[1]?.body).get("RequestUUID")).toBe(requestUuid);
  });
});
