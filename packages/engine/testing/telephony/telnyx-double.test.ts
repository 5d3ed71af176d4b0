import { createPublicKey, verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { mulawEncode } from "../../src/audio/mulaw.ts";
import { resample } from "../../src/audio/resample.ts";
import { closeAfterEach } from "../close-after-each.ts";
import { sine } from "../signals.ts";
import { isNonSilent } from "./audio-checks.ts";
import { expectForgedCallRefused, logStream, type StreamLog } from "./double-test-kit.ts";
import type { StandInApp, StandInRequest } from "./stand-in-app.ts";
import { pick, pickString, readJson, startStandInApp, until } from "./stand-in-app.ts";
import { startTelnyxDouble, type TelnyxDouble } from "./telnyx-double.ts";

const KEY = "KEY0123456789ABCDEF_telnyx";
const NUMBERS = ["+13125550100", "+13125550101", "+13125550102"];
const ACCOUNTS = [{ apiKey: KEY, numbers: NUMBERS }];
/** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows. */
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

const closing = closeAfterEach();

/** Verifies as Telnyx's SDKs do: Ed25519 over "timestamp|body" with the account's public key. */
function validSignature(publicKey: string, request: StandInRequest): boolean {
  const signature = String(request.headers["telnyx-signature-ed25519"] ?? "");
  const timestamp = String(request.headers["telnyx-timestamp"] ?? "");
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKey, "base64")]),
    format: "der",
    type: "spki",
  });
  return verify(null, Buffer.from(`${timestamp}|${request.body}`), key, Buffer.from(signature, "base64"));
}

async function standIn(streams: StreamLog[], publicKey: () => string): Promise<StandInApp> {
  const started = await startStandInApp({
    http: (request) => {
      if (!validSignature(publicKey(), request)) return { status: 403, body: "bad signature" };
      if (request.path === "/voice") {
        return {
          status: 200,
          contentType: "text/xml",
          body: `<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="${started.wsOrigin}/stream" bidirectionalMode="rtp" bidirectionalCodec="PCMU"><Parameter name="call_id" value="c-9"/></Stream></Connect></Response>`,
        };
      }
      return { status: 200 };
    },
    socket: (socket) => {
      streams.push(logStream(socket));
    },
  });
  return started;
}

function json(body: unknown): RequestInit {
  return {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

/** Imports the account's first number onto a TeXML application pointing at the stand-in. */
async function configure(d: TelnyxDouble, a: StandInApp): Promise<{ appId: string; numberId: string }> {
  const created = await readJson(
    await fetch(
      `${d.origin}/v2/texml_applications`,
      json({ friendly_name: "Parley", voice_url: `${a.origin}/voice`, status_callback: `${a.origin}/status` }),
    ),
  );
  const appId = pickString(created, "data", "id");
  const list = await readJson(
    await fetch(`${d.origin}/v2/phone_numbers`, { headers: { authorization: `Bearer ${KEY}` } }),
  );
  const numberId = pickString(list, "data", 0, "id");
  const patched = await fetch(`${d.origin}/v2/phone_numbers/${numberId}`, {
    ...json({ connection_id: appId }),
    method: "PATCH",
  });
  expect(patched.status).toBe(200);
  return { appId, numberId };
}

describe("Telnyx double", () => {
  it("pages numbers, refuses a wrong key with 10009 and points a number at a TeXML application", async () => {
    const double = closing(await startTelnyxDouble({ accounts: ACCOUNTS, pageSize: 2 }));
    const auth = { authorization: `Bearer ${KEY}` };
    const first = await readJson(await fetch(`${double.origin}/v2/phone_numbers`, { headers: auth }));
    expect(pick(first, "meta")).toEqual({ total_pages: 2, total_results: 3, page_number: 1, page_size: 2 });
    const second = await readJson(
      await fetch(`${double.origin}/v2/phone_numbers?page[number]=2&page[size]=2`, { headers: auth }),
    );
    expect(pick(second, "data", 0, "phone_number")).toBe(NUMBERS[2]);
    const wrong = await fetch(`${double.origin}/v2/phone_numbers`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect(pick(await readJson(wrong), "errors", 0, "code")).toBe("10009");
    const app = closing(await startStandInApp({ http: () => ({ status: 200 }), socket: () => {} }));
    const { appId, numberId } = await configure(double, app);
    expect(double.numbers.get(numberId)?.connectionId).toBe(appId);
    expect(double.applications.get(appId)?.voiceUrl).toBe(`${app.origin}/voice`);
  });

  it("rings a number: Ed25519-signed TeXML request, bidirectional stream with marks and clear, DTMF", async () => {
    const streams: StreamLog[] = [];
    let key = "";
    const app = closing(await standIn(streams, () => key));
    const double = closing(await startTelnyxDouble({ accounts: ACCOUNTS }));
    key = double.publicKey;
    await configure(double, app);
    const handle = await double.ringInbound(NUMBERS[0] ?? "", "+13125559999", { speech: sine(300, 300), dtmf: ["7"] });
    expect(handle.voice.status).toBe(200);
    expect(new URLSearchParams(handle.voice.body).get("CallSid")).toMatch(/^v3:/);
    const leg = await handle.stream();
    await until(() => streams[0]?.messages.some((m) => m.event === "dtmf") === true, "dtmf");
    const log = streams[0];
    if (!log) throw new Error("no stream");
    expect(log.messages[0]).toEqual({ event: "connected", version: "1.0.0" });
    const start = log.messages[1];
    expect(pick(start, "start", "media_format")).toEqual({ encoding: "PCMU", sample_rate: 8000, channels: 1 });
    expect(pick(start, "start", "custom_parameters")).toEqual({ call_id: "c-9" });
    expect(pick(start, "start", "call_control_id")).toBe(handle.call.id);
    expect(
      pick(
        log.messages.find((m) => m.event === "dtmf"),
        "dtmf",
        "digit",
      ),
    ).toBe("7");

    const payload = Buffer.from(mulawEncode(resample(sine(500, 400), 16_000, 8_000))).toString("base64");
    log.socket.send(JSON.stringify({ event: "media", media: { payload } }));
    log.socket.send(JSON.stringify({ event: "mark", mark: { name: "m1" } }));
    await until(() => log.messages.some((m) => m.event === "mark"), "mark echo");
    expect(isNonSilent(leg.played())).toBe(true);
    const long = Buffer.from(mulawEncode(resample(sine(500, 4000), 16_000, 8_000))).toString("base64");
    log.socket.send(JSON.stringify({ event: "media", media: { payload: long } }));
    await until(() => leg.queuedMs() > 1000, "queued audio");
    log.socket.send(JSON.stringify({ event: "clear" }));
    await leg.waitForEvent("clear");
    expect(leg.queuedMs()).toBe(0);
    expect(leg.events.filter((e) => e.type === "invalid")).toEqual([]);

    await handle.hangup();
    expect(log.messages.at(-1)?.event).toBe("stop");
    const status = app.requests.find((r) => r.path === "/status");
    expect(new URLSearchParams(status?.body).get("CallStatus")).toBe("completed");
  });

  it("signs with a foreign key when asked, which the stand-in refuses", async () => {
    let key = "";
    const app = closing(await standIn([], () => key));
    const double = closing(await startTelnyxDouble({ accounts: ACCOUNTS }));
    key = double.publicKey;
    await configure(double, app);
    await expectForgedCallRefused(double, NUMBERS[0] ?? "", "+13125559999");
  });

  it("places a TeXML call with progress callbacks, then transfers and sends DTMF through Call Control", async () => {
    const streams: StreamLog[] = [];
    let key = "";
    const app = closing(await standIn(streams, () => key));
    const double = closing(
      await startTelnyxDouble({ accounts: [{ apiKey: KEY, accountSid: "acct-1", numbers: NUMBERS }] }),
    );
    key = double.publicKey;
    const { appId } = await configure(double, app);
    const created = await fetch(
      `${double.origin}/v2/texml/Accounts/acct-1/Calls`,
      json({
        ApplicationSid: appId,
        To: "+13125557777",
        From: NUMBERS[0],
        StatusCallback: `${app.origin}/status`,
        StatusCallbackEvent: "initiated ringing answered completed",
      }),
    );
    expect(created.status).toBe(200);
    const callSid = pickString(await readJson(created), "call_sid");
    const call = double.calls.get(callSid);
    if (!call) throw new Error("no call");
    await (await call.waitForStream()).opened;
    await until(() => streams[0]?.messages.some((m) => m.event === "start") === true, "start");

    const dtmf = await fetch(
      `${double.origin}/v2/calls/${encodeURIComponent(callSid)}/actions/send_dtmf`,
      json({ digits: "1#" }),
    );
    expect(await readJson(dtmf)).toEqual({ data: { result: "ok" } });
    const transfer = await fetch(
      `${double.origin}/v2/calls/${encodeURIComponent(callSid)}/actions/transfer`,
      json({ to: "+13125558888" }),
    );
    expect(transfer.status).toBe(200);
    await call.done;
    expect(double.dtmfOut).toEqual([expect.objectContaining({ callId: callSid, digits: "1#" })]);
    expect(double.transfers).toEqual([expect.objectContaining({ callId: callSid, destination: "+13125558888" })]);
    expect(streams[0]?.messages.at(-1)?.event).toBe("stop");
    const statuses = app.requests
      .filter((r) => r.path === "/status")
      .map((r) => new URLSearchParams(r.body).get("CallStatus"));
    expect(statuses).toEqual(["initiated", "ringing", "in-progress", "completed"]);
    const late = await fetch(`${double.origin}/v2/calls/${encodeURIComponent(callSid)}/actions/hangup`, json({}));
    expect(late.status).toBe(422);
  });
});
