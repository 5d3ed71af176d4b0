import type { CallLog } from "@parley/contract";
import type { PhoneLeg } from "@parley/engine/testing/telephony/phone-leg";
import {
  DOUBLE_USAGE,
  type RealtimeDouble,
  startRealtimeDouble,
} from "@parley/engine/testing/vendor-servers/openai-realtime-double";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "./harness.ts";
import { roomToken, startRoom, startWebhook } from "./support/calls.ts";
import { twilioVendor } from "./support/carrier-vendors.ts";
import { closedCallLog, connectRealtime } from "./support/realtime-calls.ts";
import type { RealtimeClient } from "./support/realtime-client.ts";
import {
  type BridgeWorld,
  finishedLog,
  newestCallId,
  startBridgeWorld,
} from "./support/telephony-bridge.ts";

/**
 * Issue 32's acceptance: calls on a speech-to-speech model (OpenAI Realtime, its local double)
 * over a Twilio media stream and the browser socket: the greeting, a function call, a barge-in
 * truncating the model's item where the caller stopped hearing it, the transcript in the call log,
 * and a cost priced from the model's usage events.
 */

const KEY = "sk-realtime-test";
const GREETING = "Hello from the realtime desk, how can I help?";
const ANSWER =
  "We open at nine in the morning on Monday and close at five in the afternoon, and on Tuesday we open a little later";
/** Bytes of 16 kHz pcm16 in a millisecond (the browser socket's audio). */
const BYTES_PER_MS = 32;

const vendor = twilioVendor();
let world: BridgeWorld;
let carrier: Awaited<ReturnType<typeof vendor.startDouble>>;
let webhook: Awaited<ReturnType<typeof startWebhook>>;

beforeAll(async () => {
  webhook = await startWebhook({ open: "9am", close: "5pm" });
  carrier = await vendor.startDouble();
  const credentials = await vendor.credentials(carrier);
  world = await startBridgeWorld({
    provider: vendor.provider,
    credentials: () => credentials,
    doubleOrigin: carrier.origin,
    number: vendor.number,
    assistant: {
      first_message: GREETING,
      engine_mode: "realtime",
      realtime: { provider: "openai-realtime", model: "gpt-realtime", voice: "marin" },
    },
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

/** A realtime double for one call, and the workspace's OpenAI integration pointed at it. */
async function realtimeDouble(): Promise<RealtimeDouble> {
  const double = await startRealtimeDouble({
    apiKey: KEY,
    replies: [
      { say: GREETING, ms: 400 },
      { call: { name: "check_hours", arguments: { day: "monday" } } },
      { say: ANSWER, ms: 4000, untilInterrupted: true },
    ],
  });
  const saved = await call(world.t, "PUT", "/api/v1/integrations/openai", {
    token: world.token,
    body: { credentials: { api_key: KEY, base_url: double.baseUrl.replace(/^ws/, "http") } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  return double;
}

/**
 * The conversation both channels have: the greeting heard, a question answered through the
 * function, and the caller speaking over the answer once `heardMs` of it reached them.
 */
async function converse(double: RealtimeDouble, heardMs: (afterMs: number) => Promise<void>) {
  await double.received("response.create", 1);
  await heardMs(300);
  double.callerSaid("When are you open on Monday?");
  const output = await double.received("conversation.item.create", 1);
  expect(output.item).toMatchObject({
    type: "function_call_output",
    output: JSON.stringify({ open: "9am", close: "5pm" }),
  });
  await double.received("response.create", 2);
  await heardMs(300 + 600);
  double.speechStarted();
  return (await double.received("conversation.item.truncate", 1)) as { item_id: string; audio_end_ms: number };
}

/** The call log's account of the conversation (the same on every channel). */
function expectConversationLogged(log: CallLog, truncatedAtMs: number) {
  expect(log.transcript).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ role: "assistant", text: GREETING }),
      expect.objectContaining({ role: "user", text: "When are you open on Monday?" }),
    ]),
  );
  expect(log.tool_calls).toEqual([expect.objectContaining({ name: "check_hours", arguments: '{"day":"monday"}' })]);
  const interruption = log.events.find((e) => e.type === "interruption") as { heard_text?: string } | undefined;
  expect(interruption).toBeDefined();
  // The heard part is a prefix of the answer, in proportion to what played of its 4 s.
  const heard = interruption?.heard_text ?? "";
  expect(ANSWER.startsWith(heard)).toBe(true);
  expect(truncatedAtMs).toBeGreaterThanOrEqual(500);
  expect(truncatedAtMs).toBeLessThan(4000);
  const tokens = log.cost_breakdown?.realtime_tokens;
  // Every response.done of the double reports DOUBLE_USAGE: greeting, function call, the cut answer.
  const responses = (tokens?.input_audio ?? 0) / DOUBLE_USAGE.input_token_details.audio_tokens;
  expect(responses).toBeGreaterThanOrEqual(3);
  expect(tokens?.output_audio).toBe(responses * DOUBLE_USAGE.output_token_details.audio_tokens);
  expect(log.cost_breakdown).toMatchObject({ stt: 0, tts: 0 });
  expect(log.cost_breakdown?.llm).toBeGreaterThan(0);
  expect(log.cost).toBeGreaterThan(0);
}

describe("a realtime assistant's call", () => {
  it("runs a Twilio media-stream call on the model: greeting, function, barge-in truncation, log and cost", async () => {
    const double = await realtimeDouble();
    try {
      const handle = await carrier.ringInbound(vendor.number, "+14155559999");
      const leg: PhoneLeg = await handle.stream();
      const truncate = await converse(double, (ms) => leg.waitForAudio(ms, 20_000));
      expect(double.handshake()).toEqual({ model: "gpt-realtime", authorization: `Bearer ${KEY}` });
      const callId = await newestCallId(world);
      await handle.hangup();
      const log = await finishedLog(world, callId);
      expect(log).toMatchObject({ channel: "phone", status: "completed", end_reason: "caller_hangup" });
      expectConversationLogged(log, truncate.audio_end_ms);
      expect(log.cost_breakdown?.telephony).toBeGreaterThan(0);
    } finally {
      await double.close();
    }
  }, 90_000);

  it("runs a browser call on the model the same way", async () => {
    const double = await realtimeDouble();
    let client: RealtimeClient | null = null;
    try {
      const { room, callId } = await startRoom(world.t, world.token, world.agentId);
      // The bridge world's PUBLIC_URL is its own address: the browser opens the page there.
      client = await connectRealtime(world.t, await roomToken(world.t, world.token, room), {
        origin: world.t.config.publicUrl,
      });
      await client.waitFor("ready");
      const browser = client;
      const heard = () => browser.audio.reduce((n, frame) => n + frame.length, 0) / BYTES_PER_MS;
      const truncate = await converse(double, (ms) => browser.until(() => heard() >= ms, `${ms} ms of audio`));
      client.send({ type: "hangup" });
      await client.closed;
      const log = await closedCallLog(world.t, world.token, callId);
      expect(log).toMatchObject({ channel: "web", status: "completed" });
      expectConversationLogged(log, truncate.audio_end_ms);
    } finally {
      await double.close();
    }
  }, 90_000);

  it("falls back to the assistant's pipeline when the model refuses the connection, and logs why", async () => {
    const double = await startRealtimeDouble({ apiKey: "another-key", replies: [] });
    try {
      const saved = await call(world.t, "PUT", "/api/v1/integrations/openai", {
        token: world.token,
        body: { credentials: { api_key: KEY, base_url: double.baseUrl.replace(/^ws/, "http") } },
      });
      expect(saved.statusCode).toBe(200);
      const { room, callId } = await startRoom(world.t, world.token, world.agentId);
      const client = await connectRealtime(world.t, await roomToken(world.t, world.token, room), {
        origin: world.t.config.publicUrl,
      });
      await client.waitFor("ready");
      // The pipeline's voice says the greeting (the scripted model and the offline voice).
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

  it("refuses the call with the pipeline's missing-key answer when the workspace has no OpenAI key", async () => {
    const removed = await call(world.t, "DELETE", "/api/v1/integrations/openai", { token: world.token });
    expect(removed.statusCode).toBeLessThan(300);
    const res = await call(world.t, "POST", `/api/v1/agents/${world.agentId}/call`, { token: world.token });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe("No API key for OpenAI. Add one on the Integrations page.");
  });
});
