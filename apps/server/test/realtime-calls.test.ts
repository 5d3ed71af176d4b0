import { AssistantFields, type CallLog } from "@parley/contract";
import type { PhoneLeg } from "@parley/engine/testing/telephony/phone-leg";
import { LIVE_DOUBLE_USAGE, startLiveDouble } from "@parley/engine/testing/vendor-servers/gemini-live-double";
import { DOUBLE_USAGE, startRealtimeDouble } from "@parley/engine/testing/vendor-servers/openai-realtime-double";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffConfigs } from "../src/modules/assistants/version-diff.ts";
import { call } from "./harness.ts";
import { roomToken, startRoom, startWebhook } from "./support/calls.ts";
import { twilioVendor } from "./support/carrier-vendors.ts";
import { closedCallLog, connectRealtime } from "./support/realtime-calls.ts";
import type { RealtimeClient } from "./support/realtime-client.ts";
import { type BridgeWorld, finishedLog, newestCallId, startBridgeWorld } from "./support/telephony-bridge.ts";

/**
 * Issue 32's acceptance: calls on a speech-to-speech model (OpenAI Realtime and Gemini Live, each
 * against its local double) over a Twilio media stream and the browser socket: the greeting, a
 * function call, a barge-in cutting the model's item where the caller stopped hearing it, the
 * transcript in the call log, and a cost priced from the model's usage events.
 */

const KEY = "sk-realtime-test";
const GREETING = "Hello from the realtime desk, how can I help?";
const QUESTION = "When are you open on Monday?";
const ANSWER =
  "We open at nine in the morning on Monday and close at five in the afternoon, and on Tuesday we open a little later";
const HOURS = { open: "9am", close: "5pm" };
/** Bytes of 16 kHz pcm16 in a millisecond (the browser socket's audio). */
const BYTES_PER_MS = 32;

/** One model vendor as the calls meet it: its double, scripted alike, behind its integration. */
interface ModelDouble {
  baseUrl: string;
  /** Waits until the greeting was asked for (the model speaks first). */
  greetingAsked(): Promise<void>;
  callerSaid(text: string): void;
  /** Waits for the function's output going back to the model; returns it. */
  functionOutput(): Promise<string>;
  /** Waits until the answer after the function was asked for (OpenAI only asks explicitly). */
  answerAsked(): Promise<void>;
  speechStarted(): void;
  /** Where the model's item was cut (OpenAI's truncate), or null for a vendor that cuts it itself. */
  truncatedAtMs(): Promise<number | null>;
  handshake(): { model: string | null; key: string | null };
  usage: { inputAudio: number; outputAudio: number };
  close(): Promise<void>;
}

interface Vendor {
  provider: "openai-realtime" | "gemini-live";
  integration: "openai" | "google";
  realtime: Record<string, unknown>;
  model: string;
  start(apiKey: string): Promise<ModelDouble>;
}

const openaiRealtime: Vendor = {
  provider: "openai-realtime",
  integration: "openai",
  model: "gpt-realtime",
  realtime: { provider: "openai-realtime", model: "gpt-realtime", voice: "marin" },
  async start(apiKey) {
    const double = await startRealtimeDouble({
      apiKey,
      replies: [
        { say: GREETING, ms: 400 },
        { call: { name: "check_hours", arguments: { day: "monday" } } },
        { say: ANSWER, ms: 4000, untilInterrupted: true },
      ],
    });
    return {
      baseUrl: double.baseUrl,
      greetingAsked: async () => void (await double.received("response.create", 1)),
      callerSaid: (text) => double.callerSaid(text),
      functionOutput: async () => {
        const created = (await double.received("conversation.item.create", 1)) as { item: { output: string } };
        return created.item.output;
      },
      answerAsked: async () => void (await double.received("response.create", 2)),
      speechStarted: () => double.speechStarted(),
      truncatedAtMs: async () => {
        const truncate = (await double.received("conversation.item.truncate", 1)) as { audio_end_ms: number };
        return truncate.audio_end_ms;
      },
      handshake: () => {
        const { model, authorization } = double.handshake();
        return { model, key: authorization?.replace(/^Bearer /, "") ?? null };
      },
      usage: {
        inputAudio: DOUBLE_USAGE.input_token_details.audio_tokens,
        outputAudio: DOUBLE_USAGE.output_token_details.audio_tokens,
      },
      close: () => double.close(),
    };
  },
};

const MODEL_GEMINI = "gemini-2.5-flash-native-audio-preview-12-2025";
const geminiLive: Vendor = {
  provider: "gemini-live",
  integration: "google",
  model: MODEL_GEMINI,
  realtime: { provider: "gemini-live", model: MODEL_GEMINI, voice: "Kore" },
  async start(apiKey) {
    const double = await startLiveDouble({
      apiKey,
      replies: [
        { say: GREETING, ms: 400 },
        { call: { name: "check_hours", args: { day: "monday" } } },
        { say: ANSWER, ms: 4000, untilInterrupted: true },
      ],
    });
    const setup = () => double.received((m) => "setup" in m);
    return {
      baseUrl: double.baseUrl,
      greetingAsked: async () => {
        await double.received((m) => typeof (m.realtimeInput as { text?: unknown } | undefined)?.text === "string");
      },
      callerSaid: (text) => double.callerSaid(text),
      functionOutput: async () => {
        const message = (await double.received((m) => "toolResponse" in m)) as {
          toolResponse: { functionResponses: { response: { output?: string } }[] };
        };
        return message.toolResponse.functionResponses[0]?.response.output ?? "";
      },
      // The model goes on by itself after the tool's response.
      answerAsked: async () => undefined,
      speechStarted: () => double.speechStarted(),
      truncatedAtMs: async () => null,
      handshake: () => ({ model: null, key: double.keys()[0] ?? null }),
      usage: {
        inputAudio: LIVE_DOUBLE_USAGE.promptTokensDetails[1]?.tokenCount ?? 0,
        outputAudio: LIVE_DOUBLE_USAGE.responseTokensDetails[1]?.tokenCount ?? 0,
      },
      async close() {
        await setup().catch(() => undefined);
        await double.close();
      },
    };
  },
};

const carrierVendor = twilioVendor();
let world: BridgeWorld;
let carrier: Awaited<ReturnType<typeof carrierVendor.startDouble>>;
let webhook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  webhook = await startWebhook(HOURS);
  carrier = await carrierVendor.startDouble();
  const credentials = await carrierVendor.credentials(carrier);
  world = await startBridgeWorld({
    provider: carrierVendor.provider,
    credentials: () => credentials,
    doubleOrigin: carrier.origin,
    number: carrierVendor.number,
    assistant: { first_message: GREETING, engine_mode: "realtime", realtime: openaiRealtime.realtime },
  });
  const created = await call(world.t, "POST", "/api/v1/functions", {
    token: world.token,
    body: {
      name: "check_hours",
      description: "Opening hours for a day of the week",
      url: webhook.url,
      parameters: { type: "object", properties: { day: { type: "string" } } },
    },
  });
  expect(created.statusCode).toBe(201);
  const assigned = await call(world.t, "POST", "/api/v1/functions/assign", {
    token: world.token,
    body: { agent_id: world.agentId, function_id: created.json().id },
  });
  expect(assigned.statusCode).toBeLessThan(300);
}, 180_000);

afterAll(async () => {
  await world?.close();
  await carrier?.close();
  await webhook?.close();
});

/** The assistant on `vendor`'s model, and the workspace's integration of that vendor pointed at `baseUrl`. */
async function useModel(vendor: Vendor, baseUrl: string, apiKey = KEY) {
  const patched = await call(world.t, "PATCH", `/api/v1/agents/${world.agentId}`, {
    token: world.token,
    body: { realtime: vendor.realtime },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  const saved = await call(world.t, "PUT", `/api/v1/integrations/${vendor.integration}`, {
    token: world.token,
    body: { credentials: { api_key: apiKey, base_url: baseUrl.replace(/^ws/, "http") } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}

/**
 * The conversation both channels have: the greeting heard, a question answered through the
 * function, and the caller speaking over the answer once `heardMs` of it reached them.
 */
async function converse(double: ModelDouble, heardMs: (ms: number) => Promise<void>) {
  await double.greetingAsked();
  // The caller speaks near the greeting's end: Gemini's activity detection may cut its last words.
  await heardMs(300);
  double.callerSaid(QUESTION);
  expect(JSON.parse(await double.functionOutput())).toEqual(HOURS);
  await double.answerAsked();
  await heardMs(300 + 600);
  double.speechStarted();
  return double.truncatedAtMs();
}

/** The call log's account of the conversation (the same on every channel). */
function expectConversationLogged(log: CallLog, double: ModelDouble, truncatedAtMs: number | null) {
  expect(log.transcript).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ role: "assistant", text: GREETING }),
      expect.objectContaining({ role: "user", text: QUESTION }),
    ]),
  );
  expect(log.tool_calls).toEqual([expect.objectContaining({ name: "check_hours", arguments: '{"day":"monday"}' })]);
  const interruption = log.events.findLast((e) => e.type === "interruption");
  // What the caller heard of the answer: a prefix, in proportion to what played of its 4 s.
  const heard = interruption?.type === "interruption" ? interruption.heard_text : null;
  expect(heard).not.toBeNull();
  expect(ANSWER.startsWith(heard ?? "-")).toBe(true);
  if (truncatedAtMs !== null) {
    expect(truncatedAtMs).toBeGreaterThanOrEqual(500);
    expect(truncatedAtMs).toBeLessThan(4000);
  }
  const tokens = log.cost_breakdown?.realtime_tokens;
  // Every turn of a double reports the same usage: greeting, function call, the cut answer.
  const turns = (tokens?.input_audio ?? 0) / double.usage.inputAudio;
  expect(turns).toBeGreaterThanOrEqual(2);
  expect(tokens?.output_audio).toBe(turns * double.usage.outputAudio);
  expect(log.cost_breakdown).toMatchObject({ stt: 0, tts: 0 });
  expect(log.cost_breakdown?.llm).toBeGreaterThan(0);
  expect(log.cost).toBeGreaterThan(0);
}

describe.each([openaiRealtime, geminiLive])("a realtime assistant's call on $provider", (vendor) => {
  it("runs a Twilio media-stream call on the model: greeting, function, barge-in, log and cost", async () => {
    const double = await vendor.start(KEY);
    try {
      await useModel(vendor, double.baseUrl);
      const handle = await carrier.ringInbound(carrierVendor.number, "+14155559999");
      const leg: PhoneLeg = await handle.stream();
      const truncatedAt = await converse(double, (ms) => leg.waitForAudio(ms, 20_000));
      await leg.waitForEvent("clear", () => true, 10_000);
      expect(double.handshake().key).toBe(KEY);
      if (vendor.provider === "openai-realtime") expect(double.handshake().model).toBe(vendor.model);
      const callId = await newestCallId(world);
      await handle.hangup();
      const log = await finishedLog(world, callId);
      expect(log).toMatchObject({ channel: "phone", status: "completed", end_reason: "caller_hangup" });
      expectConversationLogged(log, double, truncatedAt);
      expect(log.cost_breakdown?.telephony).toBeGreaterThan(0);
    } finally {
      await double.close();
    }
  }, 90_000);

  it("runs a browser call on the model the same way", async () => {
    const double = await vendor.start(KEY);
    try {
      await useModel(vendor, double.baseUrl);
      const { room, callId } = await startRoom(world.t, world.token, world.agentId);
      // The bridge world's PUBLIC_URL is its own address: the browser opens the page there.
      const client: RealtimeClient = await connectRealtime(world.t, await roomToken(world.t, world.token, room), {
        origin: world.t.config.publicUrl,
      });
      await client.waitFor("ready");
      const heard = () => client.audio.reduce((n, frame) => n + frame.length, 0) / BYTES_PER_MS;
      const truncatedAt = await converse(double, (ms) => client.until(() => heard() >= ms, `${ms} ms of audio`));
      await client.waitFor("interruption");
      client.send({ type: "hangup" });
      await client.closed;
      const log = await closedCallLog(world.t, world.token, callId);
      expect(log).toMatchObject({ channel: "web", status: "completed" });
      expectConversationLogged(log, double, truncatedAt);
    } finally {
      await double.close();
    }
  }, 90_000);
});

describe("a realtime call that cannot reach its model", () => {
  it("falls back to the assistant's pipeline when the model refuses the key, and logs why", async () => {
    const double = await openaiRealtime.start("another-key");
    try {
      await useModel(openaiRealtime, double.baseUrl);
      const { room, callId } = await startRoom(world.t, world.token, world.agentId);
      const client = await connectRealtime(world.t, await roomToken(world.t, world.token, room), {
        origin: world.t.config.publicUrl,
      });
      await client.waitFor("ready");
      // The pipeline says the greeting (the scripted model and the offline voice).
      await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true && m.text === GREETING);
      client.send({ type: "hangup" });
      await client.closed;
      const log = await closedCallLog(world.t, world.token, callId);
      expect(log).toMatchObject({ status: "completed", end_reason: "fallback_used" });
      expect(log.events).toContainEqual(
        expect.objectContaining({ type: "fault", stage: "llm", provider: "openai-realtime", action: "fallback" }),
      );
      expect(log.cost_breakdown?.realtime_tokens).toBeUndefined();
    } finally {
      await double.close();
    }
  }, 60_000);

  it("is refused with the pipeline's missing-key answer when the workspace has no OpenAI key", async () => {
    await useModel(openaiRealtime, "ws://127.0.0.1:9");
    const removed = await call(world.t, "DELETE", "/api/v1/integrations/openai", { token: world.token });
    expect(removed.statusCode).toBeLessThan(300);
    const res = await call(world.t, "POST", `/api/v1/agents/${world.agentId}/call`, { token: world.token });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe("No API key for OpenAI. Add one on the Integrations page.");
  });
});

describe("a realtime assistant's versions", () => {
  it("snapshot the engine mode and the realtime model, and their diff names each changed field", () => {
    const before = AssistantFields.parse({ name: "Desk" });
    const after = AssistantFields.parse({
      name: "Desk",
      engine_mode: "realtime",
      realtime: { provider: "openai-realtime", voice: "cedar", turn_detection: { type: "server_vad" } },
    });
    const fields = diffConfigs(before, after).map((change) => change.field);
    expect(fields).toEqual(expect.arrayContaining(["engine_mode", "realtime.voice", "realtime.turn_detection.type"]));
  });
});
