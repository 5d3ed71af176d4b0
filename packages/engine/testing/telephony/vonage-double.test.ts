import { createPrivateKey, randomUUID, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { pcmToBytes } from "../../src/audio/pcm.ts";
import { closeAfterEach } from "../close-after-each.ts";
import { sine } from "../signals.ts";
import { isNonSilent } from "./audio-checks.ts";
import { basicAuthorization, expectForgedCallRefused, logStream, type StreamLog } from "./double-test-kit.ts";
import type { StandInApp, StandInRequest } from "./stand-in-app.ts";
import { pick, pickString, readJson, startStandInApp, until } from "./stand-in-app.ts";
import { startVonageDouble, type VonageDouble } from "./vonage-double.ts";
import { checkWebhookJwt, webhookPayload } from "./vonage-jwt.ts";

const API_KEY = "abc12345";
const API_SECRET = "vonage-secret";
const SIGNATURE_SECRET = "vonage-signature-secret";
const NUMBERS = ["+447700900100", "+447700900101", "+447700900102"];
const ACCOUNTS = [{ apiKey: API_KEY, apiSecret: API_SECRET, signatureSecret: SIGNATURE_SECRET, numbers: NUMBERS }];

const closing = closeAfterEach();

const basic = () => ({ authorization: basicAuthorization(API_KEY, API_SECRET), "content-type": "application/json" });

/** The RS256 token an app signs Voice API calls with. */
function voiceJwt(applicationId: string, privateKey: string): string {
  const head = Buffer.from(JSON.stringify({ alg: "RS256", typ: "JWT" })).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const body = Buffer.from(
    JSON.stringify({ application_id: applicationId, iat: now, exp: now + 300, jti: randomUUID() }),
  ).toString("base64url");
  const signature = sign("RSA-SHA256", Buffer.from(`${head}.${body}`), createPrivateKey(privateKey)).toString(
    "base64url",
  );
  return `${head}.${body}.${signature}`;
}

function signed(request: StandInRequest): boolean {
  const token = String(request.headers.authorization ?? "").replace(/^Bearer /, "");
  return checkWebhookJwt(SIGNATURE_SECRET, token, webhookPayload(request.method, request.url, request.body));
}

async function standIn(streams: StreamLog[]): Promise<StandInApp> {
  const started = await startStandInApp({
    http: (request) => {
      if (!signed(request)) return { status: 403 };
      if (request.path === "/answer") {
        const ncco = [
          { action: "talk", text: "Connecting" },
          {
            action: "connect",
            endpoint: [
              {
                type: "websocket",
                uri: `${started.wsOrigin}/stream`,
                "content-type": "audio/l16;rate=16000",
                headers: { call_id: "c-5" },
              },
            ],
          },
        ];
        return { status: 200, contentType: "application/json", body: JSON.stringify(ncco) };
      }
      return { status: 204 };
    },
    socket: (socket) => {
      streams.push(logStream(socket));
    },
  });
  return started;
}

async function setUp(d: VonageDouble, a: StandInApp): Promise<{ appId: string; privateKey: string }> {
  const created = await fetch(`${d.origin}/v2/applications`, {
    method: "POST",
    headers: basic(),
    body: JSON.stringify({
      name: "Parley",
      capabilities: {
        voice: {
          webhooks: {
            answer_url: { address: `${a.origin}/answer`, http_method: "GET" },
            event_url: { address: `${a.origin}/event`, http_method: "POST" },
          },
        },
      },
    }),
  });
  expect(created.status).toBe(201);
  const body = await readJson(created);
  const appId = pickString(body, "id");
  const privateKey = pickString(body, "keys", "private_key");
  const linked = await fetch(`${d.origin}/number/update`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      api_key: API_KEY,
      api_secret: API_SECRET,
      country: "GB",
      msisdn: "447700900100",
      app_id: appId,
    }),
  });
  expect(pick(await readJson(linked), "error-code")).toBe("200");
  return { appId, privateKey };
}

function speech(ms: number): Buffer[] {
  const bytes = pcmToBytes(sine(500, ms));
  const frames: Buffer[] = [];
  for (let i = 0; i + 640 <= bytes.length; i += 640) frames.push(bytes.subarray(i, i + 640));
  return frames;
}

describe("Vonage double", () => {
  it("pages numbers by index/size with api_key and api_secret, and refuses wrong ones", async () => {
    const double = closing(
      await startVonageDouble({
        accounts: [{ apiKey: API_KEY, apiSecret: API_SECRET, numbers: NUMBERS }],
        pageSize: 2,
      }),
    );
    const first = await readJson(
      await fetch(`${double.origin}/account/numbers?api_key=${API_KEY}&api_secret=${API_SECRET}`),
    );
    expect(pick(first, "count")).toBe(3);
    expect(pick(first, "numbers", 0, "msisdn")).toBe("447700900100");
    const second = await readJson(
      await fetch(`${double.origin}/account/numbers?api_key=${API_KEY}&api_secret=${API_SECRET}&index=2&size=2`),
    );
    expect(pick(second, "numbers")).toEqual([expect.objectContaining({ msisdn: "447700900102" })]);
    const wrong = await fetch(`${double.origin}/account/numbers?api_key=${API_KEY}&api_secret=nope`);
    expect(wrong.status).toBe(401);
    expect(await readJson(wrong)).toEqual({ "error-code": "401", "error-code-label": "authentication failed" });
    const noJwt = await fetch(`${double.origin}/v1/calls`, {
      method: "POST",
      headers: { authorization: "Bearer x.y.z" },
      body: "{}",
    });
    expect(noJwt.status).toBe(401);
  });

  it("rings a number: signed answer webhook, NCCO websocket, L16 frames, notify, clear, DTMF, events", async () => {
    const streams: StreamLog[] = [];
    const app = closing(await standIn(streams));
    const double = closing(await startVonageDouble({ accounts: ACCOUNTS }));
    await setUp(double, app);
    const handle = await double.ringInbound("+447700900100", "+447700900999", { speech: sine(300, 300), dtmf: ["9"] });
    expect(handle.voice.status).toBe(200);
    expect(new URL(handle.voice.url).searchParams.get("from")).toBe("447700900999");
    const leg = await handle.stream();
    await until(() => streams[0]?.messages.some((t) => t.event === "websocket:dtmf") === true, "dtmf");
    const log = streams[0];
    if (!log) throw new Error("no stream");
    expect(log.messages[0]).toEqual({
      event: "websocket:connected",
      "content-type": "audio/l16;rate=16000",
      call_id: "c-5",
    });
    expect(log.messages.find((t) => t.event === "websocket:dtmf")).toMatchObject({ digit: "9" });
    await until(() => log.frames > 20, "caller audio frames");

    for (const frame of speech(400)) log.socket.send(frame);
    log.socket.send(JSON.stringify({ action: "notify", payload: { mark: "m1" } }));
    await until(() => log.messages.some((t) => t.event === "websocket:notify"), "notify");
    expect(log.messages.find((t) => t.event === "websocket:notify")?.payload).toEqual({ mark: "m1" });
    expect(isNonSilent(leg.played())).toBe(true);
    for (const frame of speech(4000)) log.socket.send(frame);
    await until(() => leg.queuedMs() > 1000, "queued audio");
    log.socket.send(JSON.stringify({ action: "clear" }));
    await until(() => log.messages.some((t) => t.event === "websocket:cleared"), "cleared");
    expect(leg.queuedMs()).toBe(0);
    log.socket.send(Buffer.alloc(100));
    await leg.waitForEvent("invalid");

    await handle.hangup();
    const statuses = app.requests.filter((r) => r.path === "/event").map((r) => pick(JSON.parse(r.body), "status"));
    expect(statuses).toEqual(["ringing", "answered", "completed"]);
  });

  it("signs with another secret when asked (the stand-in answers 403)", async () => {
    const app = closing(await standIn([]));
    const double = closing(await startVonageDouble({ accounts: ACCOUNTS }));
    await setUp(double, app);
    await expectForgedCallRefused(double, "+447700900100", "+447700900999");
  });

  it("places a call with the application's JWT, sends DTMF and transfers with an NCCO", async () => {
    const streams: StreamLog[] = [];
    const app = closing(await standIn(streams));
    const double = closing(await startVonageDouble({ accounts: ACCOUNTS }));
    const { appId, privateKey } = await setUp(double, app);
    const auth = { authorization: `Bearer ${voiceJwt(appId, privateKey)}`, "content-type": "application/json" };
    const created = await fetch(`${double.origin}/v1/calls`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        to: [{ type: "phone", number: "447700900777" }],
        from: { type: "phone", number: "447700900100" },
        answer_url: [`${app.origin}/answer`],
        event_url: [`${app.origin}/event`],
      }),
    });
    expect(created.status).toBe(201);
    const uuid = pickString(await readJson(created), "uuid");
    const call = double.calls.get(uuid);
    if (!call) throw new Error("no call");
    await (await call.waitForStream()).opened;
    await until(() => (streams[0]?.messages.length ?? 0) > 0, "websocket:connected");
    const dtmf = await fetch(`${double.origin}/v1/calls/${uuid}/dtmf`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify({ digits: "55" }),
    });
    expect(await readJson(dtmf)).toEqual({ message: "DTMF sent", uuid });
    const transfer = await fetch(`${double.origin}/v1/calls/${uuid}`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify({
        action: "transfer",
        destination: {
          type: "ncco",
          ncco: [{ action: "connect", endpoint: [{ type: "phone", number: "447700900888" }] }],
        },
      }),
    });
    expect(transfer.status).toBe(204);
    await call.done;
    expect(double.transfers).toEqual([expect.objectContaining({ callId: uuid, destination: "447700900888" })]);
    expect(double.dtmfOut).toEqual([expect.objectContaining({ callId: uuid, digits: "55" })]);
    const statuses = app.requests.filter((r) => r.path === "/event").map((r) => pick(JSON.parse(r.body), "status"));
    expect(statuses).toEqual(["started", "ringing", "answered", "completed"]);
  });
});
