import { afterEach, describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import { sine } from "../../testing/signals.ts";
import { isNonSilent } from "../../testing/telephony/audio-checks.ts";
import type { PhoneLeg } from "../../testing/telephony/phone-leg.ts";
import { startPlivoDouble } from "../../testing/telephony/plivo-double.ts";
import type {
  CallHandle,
  DtmfOutRecord,
  SimulatedCall,
  TransferRecord,
} from "../../testing/telephony/simulated-call.ts";
import { type StandInRequest, startStandInApp, until } from "../../testing/telephony/stand-in-app.ts";
import { startTelnyxDouble } from "../../testing/telephony/telnyx-double.ts";
import { startTwilioDouble } from "../../testing/telephony/twilio-double.ts";
import { startVonageDouble } from "../../testing/telephony/vonage-double.ts";
import { rms } from "../audio/pcm.ts";
import plivo from "../providers/plivo/index.ts";
import telnyx from "../providers/telnyx/index.ts";
import twilio from "../providers/twilio/index.ts";
import vonage from "../providers/vonage/index.ts";
import { isRecord, objectField, stringField } from "./form.ts";
import type {
  StreamEvent,
  TelephonyAccount,
  TelephonyAdapter,
  TransferRequest,
  WebhookRequest,
  WebhookUrls,
} from "./types.ts";

/**
 * Each vendor adapter against the local double of its vendor (written separately from the same
 * public docs): numbers, an inbound call with speech both ways, marks and barge-in, DTMF both
 * ways, an outbound call with its status callbacks, a transfer, and a forged signature refused.
 * Where the two meet is where a real vendor would meet the adapter.
 */

const NUMBERS = ["+14155550100", "+14155550101", "+14155550102"];

interface Double {
  origin: string;
  transfers: TransferRecord[];
  dtmfOut: DtmfOutRecord[];
  waitForCall(where: (call: SimulatedCall) => boolean, timeoutMs?: number): Promise<SimulatedCall>;
  ringInbound(
    number: string,
    from: string,
    options?: { speech?: Int16Array; dtmf?: string[]; forgeSignature?: boolean },
  ): Promise<CallHandle<SimulatedCall>>;
  close(): Promise<void>;
}

interface Vendor {
  name: string;
  adapter: TelephonyAdapter;
  /**
   * The double sends dropped marks back after a clear. Both vendors document it; the Telnyx double
   * does not do it yet, so its check waits on the double's own record of the clear.
   */
  marksBackOnClear: boolean;
  /** Starts the double and returns it with the credentials of its account. */
  start(): Promise<{ double: Double; credentials: Record<string, string> }>;
}

const vendors: Vendor[] = [
  {
    name: "Twilio",
    adapter: twilio.telephony,
    marksBackOnClear: true,
    async start() {
      const sid = "AC0123456789abcdef0123456789abcdef";
      const double = await startTwilioDouble({ accounts: [{ sid, token: "tw-token", numbers: NUMBERS }], pageSize: 2 });
      return { double, credentials: { account_sid: sid, auth_token: "tw-token", base_url: double.origin } };
    },
  },
  {
    name: "Telnyx",
    adapter: telnyx.telephony,
    marksBackOnClear: false,
    async start() {
      const double = await startTelnyxDouble({ accounts: [{ apiKey: "KEYtelnyx", numbers: NUMBERS }], pageSize: 2 });
      // The account's TeXML application exists before Parley points it anywhere.
      const created = await fetch(`${double.origin}/v2/texml_applications`, {
        method: "POST",
        headers: { authorization: "Bearer KEYtelnyx", "content-type": "application/json" },
        body: JSON.stringify({ friendly_name: "Parley test", voice_url: "https://example.invalid/voice" }),
      });
      const body: unknown = await created.json();
      const id = isRecord(body) ? stringField(objectField(body, "data"), "id") : "";
      if (!id) throw new Error(`no application: ${JSON.stringify(body)}`);
      return {
        double,
        credentials: {
          api_key: "KEYtelnyx",
          application_id: id,
          public_key: double.publicKey,
          base_url: double.origin,
        },
      };
    },
  },
  {
    name: "Plivo",
    adapter: plivo.telephony,
    // Plivo documents that checkpoints before a clearAudio are not reported as played.
    marksBackOnClear: false,
    async start() {
      const authId = "MAZDQ1ZJIYMDZKMTZLNJ";
      const double = await startPlivoDouble({ accounts: [{ authId, authToken: "pl-token", numbers: NUMBERS }] });
      return { double, credentials: { auth_id: authId, auth_token: "pl-token", base_url: double.origin } };
    },
  },
  {
    name: "Vonage",
    adapter: vonage.telephony,
    marksBackOnClear: false,
    async start() {
      const double = await startVonageDouble({
        accounts: [{ apiKey: "vgkey", apiSecret: "vgsecret", numbers: NUMBERS }],
      });
      // The Voice application (and its key pair) exists before Parley points it anywhere.
      const created = await fetch(`${double.origin}/v2/applications`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from("vgkey:vgsecret").toString("base64")}`,
          "content-type": "application/json",
        },
        body: JSON.stringify({ name: "Parley test", capabilities: { voice: { webhooks: {} } } }),
      });
      const body: unknown = await created.json();
      const id = isRecord(body) ? stringField(body, "id") : "";
      const privateKey = isRecord(body) ? stringField(objectField(body, "keys"), "private_key") : "";
      if (!id || !privateKey) throw new Error(`no application: ${JSON.stringify(body)}`);
      return {
        double,
        credentials: {
          api_key: "vgkey",
          api_secret: "vgsecret",
          application_id: id,
          private_key: privateKey,
          signature_secret: double.signatureSecret("vgkey"),
          base_url: double.origin,
        },
      };
    },
  },
];

/** One stream as the stand-in saw it: decoded events and the socket to answer on. */
interface Stream {
  socket: WebSocket;
  events: StreamEvent[];
  send(messages: Array<string | Buffer | null>): void;
}

/** Parley's side in miniature, built only from the adapter: webhooks checked and answered, streams decoded. */
async function standIn(adapter: TelephonyAdapter, account: () => TelephonyAccount, streams: Stream[]) {
  const urls: WebhookUrls = { voiceUrl: "", statusUrl: "", streamUrl: "" };
  const app = await startStandInApp({
    async http(request: StandInRequest) {
      const webhook = toWebhook(request);
      if (!(await adapter.verifyWebhook(account(), webhook))) return { status: 403, body: "bad signature" };
      if (request.path === "/transfer" && adapter.transferMarkup && transfer.pending) {
        const markup = adapter.transferMarkup(transfer.pending);
        return { status: 200, contentType: markup.contentType, body: markup.body };
      }
      if (request.path !== "/voice") return { status: 204 };
      const call = adapter.parseIncomingCall(webhook);
      const answer = adapter.answerWithStream(urls, { call_id: "c-1" }, call);
      return { status: 200, contentType: answer.contentType, body: answer.body };
    },
    socket(socket) {
      const codec = adapter.createStreamCodec();
      const stream: Stream = {
        socket,
        events: [],
        send: (messages) => {
          for (const message of messages) if (message !== null) socket.send(message);
        },
      };
      streams.push(stream);
      socket.on("message", (data, isBinary) => {
        const buffer = Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
        stream.events.push(...codec.decode(isBinary ? buffer : buffer.toString("utf8"), isBinary));
      });
      // Encoding needs the codec too: keep it with the stream.
      streamCodecs.set(stream, codec);
    },
  });
  urls.voiceUrl = `${app.origin}/voice`;
  urls.statusUrl = `${app.origin}/status`;
  urls.streamUrl = `${app.wsOrigin}/stream`;
  return { app, urls };
}

/** The transfer in progress, for vendors that fetch its markup from the stand-in (`transferMarkup`). */
const transfer: { pending: TransferRequest | null } = { pending: null };

const streamCodecs = new Map<Stream, ReturnType<TelephonyAdapter["createStreamCodec"]>>();

function codecOf(stream: Stream) {
  const codec = streamCodecs.get(stream);
  if (!codec) throw new Error("no codec");
  return codec;
}

function toWebhook(request: StandInRequest): WebhookRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers))
    headers[name] = Array.isArray(value) ? value.join(",") : value;
  return { url: request.url, method: request.method === "GET" ? "GET" : "POST", headers, rawBody: request.body };
}

const has = (stream: Stream | undefined, type: StreamEvent["type"]) =>
  stream?.events.some((e) => e.type === type) === true;

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of cleanup) await close();
  cleanup = [];
  transfer.pending = null;
});

describe.each(vendors)("$name adapter against its double", (vendor) => {
  async function setUp() {
    const { double, credentials } = await vendor.start();
    const account: TelephonyAccount = { credentials, net: { fetch: (input, init) => globalThis.fetch(input, init) } };
    const streams: Stream[] = [];
    const { app, urls } = await standIn(vendor.adapter, () => account, streams);
    cleanup.push(
      () => double.close(),
      () => app.close(),
    );
    return { double, account, streams, app, urls };
  }

  it("imports numbers, answers an inbound call with speech, marks, barge-in and DTMF", {
    timeout: 60_000,
  }, async () => {
    const { double, account, streams, app, urls } = await setUp();
    const numbers = await vendor.adapter.listNumbers(account);
    expect(numbers.map((n) => n.number).sort()).toEqual(NUMBERS);
    const first = numbers.find((n) => n.number === NUMBERS[0]);
    if (!first) throw new Error("no number");
    await vendor.adapter.configureNumber(account, first, urls);

    const handle = await double.ringInbound(first.number, "+14155559999", { speech: sine(300, 600), dtmf: ["5"] });
    expect(handle.voice.status).toBe(200);
    const leg: PhoneLeg = await handle.stream();
    await until(() => has(streams[0], "start") && has(streams[0], "dtmf"), "start and DTMF");
    const stream = streams[0];
    if (!stream) throw new Error("no stream");
    const start = stream.events.find((e) => e.type === "start");
    expect(start).toMatchObject({ type: "start", providerCallId: handle.call.id, parameters: { call_id: "c-1" } });
    expect(stream.events.find((e) => e.type === "dtmf")).toEqual({ type: "dtmf", digit: "5" });
    const loudest = Math.max(...stream.events.map((e) => (e.type === "audio" ? rms(e.pcm) : 0)));
    expect(loudest).toBeGreaterThan(1000);

    // The assistant speaks 600 ms and marks the end: the mark comes back once the caller heard it.
    const codec = codecOf(stream);
    stream.send([...codec.encodeAudio(sine(440, 600)), codec.encodeMark("first")]);
    await until(() => stream.events.some((e) => e.type === "mark" && e.name === "first"), "the first mark back");
    expect(leg.played().length).toBeGreaterThanOrEqual(0.6 * 16_000 - 640);
    expect(isNonSilent(leg.played())).toBe(true);

    // Barge-in: queued speech is dropped, and the pending mark comes back at once.
    stream.send([...codec.encodeAudio(sine(440, 4000)), codec.encodeMark("second")]);
    await until(() => leg.queuedMs() > 1000, "queued speech");
    stream.send([codec.encodeClear()]);
    const clear = await leg.waitForEvent("clear");
    // One mark was waiting (the Vonage double names notifications by their order).
    expect(clear.droppedMarks).toHaveLength(1);
    expect(leg.queuedMs()).toBe(0);
    if (vendor.marksBackOnClear) {
      await until(() => stream.events.some((e) => e.type === "mark" && e.name === "second"), "the cleared mark back");
    }

    stream.socket.close();
    await handle.done;
    const statuses = app.requests
      .filter((r) => r.path === "/status")
      .map((r) => vendor.adapter.parseStatus(toWebhook(r))?.status);
    expect(statuses).toContain("completed");
  });

  it("refuses a webhook signed with another key", { timeout: 60_000 }, async () => {
    const { double, account, urls } = await setUp();
    const [first] = await vendor.adapter.listNumbers(account);
    if (!first) throw new Error("no number");
    await vendor.adapter.configureNumber(account, first, urls);
    const handle = await double.ringInbound(first.number, "+14155559999", { forgeSignature: true });
    expect(handle.voice.status).toBe(403);
    await handle.done;
  });

  it("places a call with status callbacks, sends DTMF and transfers it", { timeout: 60_000 }, async () => {
    const { double, account, streams, app, urls } = await setUp();
    const id = await vendor.adapter.placeCall(account, {
      from: NUMBERS[0] ?? "",
      to: "+14155557777",
      urls,
      machineDetection: false,
    });
    const call = await double.waitForCall((c) => c.id === id || ("requestUuid" in c && c.requestUuid === id));
    const leg = await call.waitForStream();
    await leg.opened;
    await until(() => has(streams[0], "start"), "the stream's start");
    // Call control goes to the id the stream names (for Plivo the CallUUID, not the request's id).
    const start = streams[0]?.events.find((e) => e.type === "start");
    const liveId = (start?.type === "start" && start.providerCallId) || id;

    await vendor.adapter.sendDtmf(account, liveId, "12", { urls, parameters: { call_id: "c-1" } });
    await until(() => double.dtmfOut.length === 1, "DTMF out");
    expect(double.dtmfOut[0]).toMatchObject({ digits: "12" });

    transfer.pending = {
      providerCallId: liveId,
      destination: "+14155558888",
      callerId: NUMBERS[0] ?? "",
      statusUrl: urls.statusUrl,
      markupUrl: `${app.origin}/transfer`,
    };
    await vendor.adapter.transfer(account, transfer.pending);
    await call.done;
    // Plivo writes numbers without "+".
    expect(double.transfers[0]?.destination.replace(/^\+/, "")).toBe("14155558888");
    const statuses = app.requests
      .filter((r) => r.path === "/status")
      .map((r) => vendor.adapter.parseStatus(toWebhook(r)))
      .filter((update) => update?.providerCallId === id || update?.placedCallId === id)
      .map((update) => update?.status);
    expect(statuses).toEqual(expect.arrayContaining(["ringing", "completed"]));
    const voice = app.requests.find((r) => r.path === "/voice");
    if (!voice) throw new Error("no voice webhook");
    const answered = vendor.adapter.parseIncomingCall(toWebhook(voice));
    expect(answered.direction).toBe("outbound");
    expect([answered.providerCallId, answered.placedCallId]).toContain(id);
  });
});
