import { describe, expect, it } from "vitest";
import { closeAfterEach } from "../../testing/close-after-each.ts";
import { defaultNetwork } from "../../testing/default-network.ts";
import { startLiveDouble } from "../../testing/vendor-servers/gemini-live-double.ts";
import { startRealtimeDouble } from "../../testing/vendor-servers/openai-realtime-double.ts";
import { GeminiLiveClient } from "../providers/gemini-live/live-client.ts";
import { parseServerMessage } from "../providers/gemini-live/server-messages.ts";
import { RealtimeClient } from "../providers/openai-realtime/realtime-client.ts";
import { parseServerEvent } from "../providers/openai-realtime/server-events.ts";
import type { ProviderError } from "../providers/provider-error.ts";
import { messageText } from "../providers/shared/socket-events.ts";
import type { SpeechModelClient, SpeechModelSink } from "../providers/shared/speech-model-client.ts";
import type { NetworkDeps, ToolSpec } from "../providers/types.ts";

/**
 * The conformance run against the vendors' real APIs: it runs only with a key in the environment
 * (OPENAI_API_KEY; GEMINI_API_KEY or GOOGLE_API_KEY) and checks that a short greeting request goes
 * through the documented sequence of server messages and through the client, as the doubles assume.
 */
const OPENAI_KEY = process.env.OPENAI_API_KEY;
const GEMINI_KEY = process.env.GEMINI_API_KEY ?? process.env.GOOGLE_API_KEY;
const RUN_LIMIT_MS = 45_000;
const closing = closeAfterEach();

for (const [name, key, variable] of [
  ["OpenAI Realtime", OPENAI_KEY, "OPENAI_API_KEY"],
  ["Gemini Live", GEMINI_KEY, "GEMINI_API_KEY or GOOGLE_API_KEY"],
] as const) {
  if (!key) console.info(`${name} conformance run skipped: set ${variable} to run it against the real API.`);
}

/** A function in the session, so the vendor also accepts the tool declarations as the client writes them. */
const clock: ToolSpec = {
  name: "get_time",
  description: "The current time in a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
    additionalProperties: false,
  },
};

/** The network, with every text message the vendor sends kept in order, and a wait for one of them. */
function tappedNetwork() {
  const net = defaultNetwork();
  const raw: string[] = [];
  const waiters: Array<() => void> = [];
  const tapped: NetworkDeps = {
    ...net,
    openWebSocket: (url, options) => {
      const socket = net.openWebSocket?.(url, options);
      if (!socket) throw new Error("no WebSocket client");
      socket.addEventListener("message", ({ data }) => {
        raw.push(messageText(data));
        for (const wake of waiters.splice(0)) wake();
      });
      return socket;
    },
  };
  const until = (match: (text: string) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (raw.some(match) ? resolve() : waiters.push(check));
      check();
    });
  return { net: tapped, raw, until };
}

/** What the client reported: audio samples, the assistant's final words, and any fault. */
function recordingSink() {
  const seen = { samples: 0, finalText: "", faults: [] as ProviderError[] };
  const sink: SpeechModelSink = {
    onAudio: (_item, pcm) => {
      seen.samples += pcm.length;
    },
    onInterrupted: () => 0,
    onTranscript: (role, text, final) => {
      if (role === "assistant" && final) seen.finalText = text;
    },
    onFault: (error) => seen.faults.push(error),
  };
  return { sink, seen };
}

async function greet(client: SpeechModelClient, until: Promise<void>) {
  await client.connect();
  client.respond('Say exactly: "Hello, this is a test."');
  await until;
  client.close();
}

/** The greeting request against the Realtime API at `baseUrl` (the vendor's when absent), checked as documented. */
async function openAiGreeting(apiKey: string, baseUrl?: string) {
  const { net, raw, until } = tappedNetwork();
  const { sink, seen } = recordingSink();
  const client = new RealtimeClient({
    apiKey,
    baseUrl,
    net,
    sink,
    settings: {
      model: process.env.OPENAI_REALTIME_MODEL ?? "gpt-realtime",
      instructions: "You are a test. Say only what you are asked to say.",
      voice: "marin",
      turnDetection: { type: "server_vad" },
      inputTranscriptionModel: "gpt-4o-mini-transcribe",
      tools: [clock],
    },
  });
  await greet(
    client,
    until((text) => text.includes('"response.done"')),
  );
  const events = raw.map(parseServerEvent);
  expect(events.filter((e) => e.kind === "malformed")).toEqual([]);
  const types: string[] = events.flatMap((e) => (e.kind === "event" ? [e.event.type] : []));
  expect(types[0]).toBe("session.created");
  const order = ["session.updated", "response.created", "response.output_audio.delta", "response.done"];
  const at = order.map((type) => types.indexOf(type));
  expect(at.every((index) => index >= 0)).toBe(true);
  expect([...at].sort((a, b) => a - b)).toEqual(at);
  expect(types.lastIndexOf("response.output_audio.delta")).toBeLessThan(types.indexOf("response.done"));
  expect(seen.samples).toBeGreaterThan(0);
  expect(seen.finalText.toLowerCase()).toContain("hello");
  expect(client.totals.outputAudioTokens).toBeGreaterThan(0);
  expect(seen.faults).toEqual([]);
}

/** The greeting request against the Live API at `baseUrl` (the vendor's when absent), checked as documented. */
async function geminiGreeting(apiKey: string, baseUrl?: string) {
  const { net, raw, until } = tappedNetwork();
  const { sink, seen } = recordingSink();
  const client = new GeminiLiveClient({
    apiKey,
    baseUrl,
    net,
    sink,
    settings: {
      model: process.env.GEMINI_LIVE_MODEL ?? "gemini-2.5-flash-native-audio-preview-09-2025",
      instructions: "You are a test. Say only what you are asked to say.",
      voice: "Kore",
      turnDetection: {},
      inputTranscription: true,
      tools: [clock],
    },
  });
  await greet(
    client,
    until((text) => text.includes('"turnComplete"')),
  );
  const parsed = raw.map(parseServerMessage);
  expect(parsed.filter((p) => p.kind === "malformed")).toEqual([]);
  const messages = parsed.flatMap((p) => (p.kind === "message" ? [p.message] : []));
  expect(messages[0]?.setupComplete).toBeDefined();
  const audioAt = messages.findIndex((m) =>
    m.serverContent?.modelTurn?.parts?.some((part) => part.inlineData?.mimeType?.startsWith("audio/pcm")),
  );
  const completeAt = messages.findIndex((m) => m.serverContent?.turnComplete);
  expect(audioAt).toBeGreaterThan(0);
  expect(completeAt).toBeGreaterThan(audioAt);
  expect(messages.some((m) => m.serverContent?.outputTranscription?.text)).toBe(true);
  expect(messages.some((m) => m.usageMetadata)).toBe(true);
  expect(seen.samples).toBeGreaterThan(0);
  expect(seen.finalText.toLowerCase()).toContain("hello");
  expect(client.totals.outputAudioTokens).toBeGreaterThan(0);
  expect(seen.faults).toEqual([]);
}

const GREETING = [{ say: "Hello, this is a test.", ms: 300 }];

describe("the conformance checks hold on the local doubles", () => {
  it("OpenAI Realtime double", async () => {
    const double = closing(await startRealtimeDouble({ apiKey: "sk-conformance", replies: GREETING }));
    await openAiGreeting("sk-conformance", double.baseUrl);
  });

  it("Gemini Live double", async () => {
    const double = closing(await startLiveDouble({ apiKey: "AIza-conformance", replies: GREETING }));
    await geminiGreeting("AIza-conformance", double.baseUrl);
  });
});

describe.skipIf(!OPENAI_KEY)("OpenAI Realtime, the real API", () => {
  it(
    "answers a greeting request with session.created, session.updated, response.created, audio deltas and response.done with usage",
    () => openAiGreeting(OPENAI_KEY ?? ""),
    RUN_LIMIT_MS,
  );
});

describe.skipIf(!GEMINI_KEY)("Gemini Live, the real API", () => {
  it(
    "answers a greeting request with setupComplete, audio parts, output transcription and turnComplete with usageMetadata",
    () => geminiGreeting(GEMINI_KEY ?? ""),
    RUN_LIMIT_MS,
  );
});
