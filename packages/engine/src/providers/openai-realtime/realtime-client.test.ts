import { describe, expect, it } from "vitest";
import { closeAfterEach } from "../../../testing/close-after-each.ts";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { SpeechModelRecorder } from "../../../testing/speech-model-recorder.ts";
import {
  DOUBLE_USAGE,
  type DoubleReply,
  startRealtimeDouble,
} from "../../../testing/vendor-servers/openai-realtime-double.ts";
import type { ToolCall } from "../types.ts";
import { RealtimeClient, type RealtimeClientSink, type ToolOutcome } from "./realtime-client.ts";
import { type RealtimeSessionSettings, realtimeUrl } from "./session-update.ts";
import type { RealtimeUsage } from "./usage.ts";

const closing = closeAfterEach();

const settings: RealtimeSessionSettings = {
  model: "gpt-realtime",
  instructions: "You are the front desk of a dental clinic.",
  voice: "marin",
  turnDetection: { type: "semantic_vad", eagerness: "high" },
  inputTranscriptionModel: "gpt-4o-mini-transcribe",
  language: "en",
  tools: [
    {
      name: "get_weather",
      description: "The weather in a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
};

/** The shared recorder, with each response's usage report. */
class Recorder extends SpeechModelRecorder implements RealtimeClientSink {
  usage: RealtimeUsage | null = null;

  onUsage(_report: unknown, totals: RealtimeUsage) {
    this.usage = totals;
    this.wake();
  }
}

async function conversation(replies: DoubleReply[], runTool?: (call: ToolCall) => Promise<ToolOutcome>) {
  const double = closing(await startRealtimeDouble({ apiKey: "sk-test-realtime", replies }));
  const sink = new Recorder();
  const client = new RealtimeClient({
    apiKey: "sk-test-realtime",
    settings,
    net: defaultNetwork(),
    sink,
    baseUrl: double.baseUrl,
    runTool,
  });
  closing({ close: async () => client.close() });
  await client.connect();
  return { double, sink, client };
}

describe("Realtime client against the local double", () => {
  it("configures the session as documented and plays the greeting's audio at 16 kHz", async () => {
    const { double, sink, client } = await conversation([{ say: "Hello, how can I help?", ms: 1000 }]);
    expect(double.handshake()).toEqual({ model: "gpt-realtime", authorization: "Bearer sk-test-realtime" });
    expect(double.events[0]).toEqual({
      type: "session.update",
      session: {
        type: "realtime",
        instructions: settings.instructions,
        output_modalities: ["audio"],
        audio: {
          input: {
            format: { type: "audio/pcm", rate: 24000 },
            transcription: { model: "gpt-4o-mini-transcribe", language: "en" },
            turn_detection: {
              type: "semantic_vad",
              eagerness: "high",
              create_response: true,
              interrupt_response: true,
            },
          },
          output: { format: { type: "audio/pcm", rate: 24000 }, voice: "marin" },
        },
        tools: [{ type: "function", ...settings.tools[0] }],
        tool_choice: "auto",
      },
    });

    client.respond("Greet the caller.");
    expect(await double.received("response.create")).toEqual({
      type: "response.create",
      response: { instructions: "Greet the caller." },
    });
    await sink.until(() => sink.finals("assistant").length === 1);
    expect(sink.finals("assistant")).toEqual(["Hello, how can I help?"]);
    // One second at 24 kHz comes out as one second at 16 kHz (the resampler's tail flushed at done).
    const samples = [...sink.audio.values()].reduce((a, b) => a + b, 0);
    expect(Math.abs(samples - 16_000)).toBeLessThanOrEqual(2);
    // A partial transcript came before the final one.
    expect(sink.transcripts.some((t) => t.role === "assistant" && !t.final && t.text === "Hello,")).toBe(true);
  });

  it("appends caller audio as 24 kHz pcm16 in 50 ms messages", async () => {
    const { double, client } = await conversation([]);
    for (let i = 0; i < 15; i++) client.appendAudio(new Int16Array(320).fill(1000));
    // 300 ms pushed; the resampler holds back a few samples, so five whole messages are due.
    await double.received("input_audio_buffer.append", 5);
    const appends = double.events.filter((e) => e.type === "input_audio_buffer.append");
    const bytes = appends.map((e) => Buffer.from(String(e.audio), "base64").length);
    // Each message holds at least 50 ms: 2,400 bytes (24 kHz × 2 bytes × 50 ms).
    for (const size of bytes) expect(size).toBeGreaterThanOrEqual(2_400);
    expect(bytes.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(12_000);
  });

  it("runs a function the model calls, gives its output, and asks for the answer", async () => {
    const calls: ToolCall[] = [];
    const { double, sink } = await conversation(
      [{ call: { name: "get_weather", arguments: { city: "Lisbon" } } }, { say: "It is sunny in Lisbon.", ms: 300 }],
      async (call) => {
        calls.push(call);
        return { ok: true, content: JSON.stringify({ forecast: "sunny" }) };
      },
    );
    double.callerSaid("What's the weather in Lisbon?");
    const output = await double.received("conversation.item.create");
    expect(output).toEqual({
      type: "conversation.item.create",
      item: { type: "function_call_output", call_id: calls[0]?.id, output: '{"forecast":"sunny"}' },
    });
    expect(calls).toEqual([
      { id: expect.stringMatching(/^call_/), name: "get_weather", arguments: '{"city":"Lisbon"}' },
    ]);
    // The answer is asked for only after the output was given.
    await double.received("response.create");
    const order = double.events.map((e) => e.type).filter((t) => t !== "session.update");
    expect(order).toEqual(["conversation.item.create", "response.create"]);
    await sink.until(() => sink.finals("assistant").length === 1);
    expect(sink.finals("user")).toEqual(["What's the weather in Lisbon?"]);
    expect(sink.finals("assistant")).toEqual(["It is sunny in Lisbon."]);
    expect(sink.tools[0]?.result.ok).toBe(true);
  });

  it("switches prompt and tools mid-call without resending the voice", async () => {
    const { double, client } = await conversation([]);
    client.update({ instructions: "You are billing now.", tools: [] });
    expect(await double.received("session.update", 2)).toEqual({
      type: "session.update",
      session: { type: "realtime", instructions: "You are billing now.", tools: [], tool_choice: "none" },
    });
  });

  it("truncates the assistant's item at the heard position when the caller barges in", async () => {
    const { double, sink, client } = await conversation([
      {
        say: "Our opening hours are nine to five on weekdays and ten to two on Saturdays.",
        ms: 3000,
        untilInterrupted: true,
      },
    ]);
    client.respond();
    await sink.until(() => [...sink.audio.values()].reduce((a, b) => a + b, 0) >= 47_000);
    sink.heardMs = 1_240;
    double.speechStarted();
    const truncate = await double.received("conversation.item.truncate");
    const itemId = [...sink.audio.keys()][0];
    expect(truncate).toEqual({
      type: "conversation.item.truncate",
      item_id: itemId,
      content_index: 0,
      audio_end_ms: 1_240,
    });
    await sink.until(() => sink.truncated.length === 1 && sink.usage !== null);
    expect(sink.truncated[0]).toMatchObject({ itemId, audioEndMs: 1_240 });
    // The delta in flight after speech_started is never played: only the 3 s before it came out.
    const samples = sink.audio.get(itemId ?? "") ?? 0;
    expect(samples).toBeLessThan(48_010);
  });

  it("leaves an item whole when the caller speaks after it was all played", async () => {
    const { double, sink, client } = await conversation([{ say: "Goodbye.", ms: 500 }]);
    client.respond();
    await sink.until(() => sink.finals("assistant").length === 1);
    sink.heardMs = 500;
    double.speechStarted();
    double.callerSaid("Thanks");
    await sink.until(() => sink.finals("user").length === 1);
    expect(double.events.some((e) => e.type === "conversation.item.truncate")).toBe(false);
  });

  it("collects both sides' transcripts and adds up usage by modality", async () => {
    const { double, sink, client } = await conversation([
      { say: "Hello there.", ms: 200 },
      { say: "Sure, Tuesday at ten.", ms: 400 },
    ]);
    client.respond();
    await sink.until(() => sink.finals("assistant").length === 1);
    double.callerSaid("Can I book Tuesday?");
    await sink.until(() => sink.finals("assistant").length === 2 && client.totals.outputAudioTokens === 96);
    expect(sink.finals("user")).toEqual(["Can I book Tuesday?"]);
    expect(sink.finals("assistant")).toEqual(["Hello there.", "Sure, Tuesday at ten."]);
    const twice = (n: number) => 2 * n;
    expect(client.totals).toEqual({
      inputTextTokens: twice(DOUBLE_USAGE.input_token_details.text_tokens),
      inputAudioTokens: twice(DOUBLE_USAGE.input_token_details.audio_tokens),
      cachedInputTokens: twice(DOUBLE_USAGE.input_token_details.cached_tokens),
      outputTextTokens: twice(DOUBLE_USAGE.output_token_details.text_tokens),
      outputAudioTokens: twice(DOUBLE_USAGE.output_token_details.audio_tokens),
    });
  });

  it("ignores unknown events, reads beta names and out-of-order deltas, and surfaces an error event as a fault", async () => {
    const { double, sink } = await conversation([]);
    double.send({ type: "rate_limits.updated", rate_limits: [] });
    double.send({ type: "response.some_future_event", detail: 1 });
    // Audio of an item never announced, under its beta name, before any response.created.
    double.send({ type: "response.audio.delta", item_id: "item_early", delta: Buffer.alloc(4800).toString("base64") });
    double.send({ type: "response.audio_transcript.done", item_id: "item_early", transcript: "Early words." });
    double.send({
      type: "error",
      error: { type: "invalid_request_error", code: "invalid_value", message: "Invalid value: 'pcm8'", event_id: "e1" },
    });
    double.send({ type: "error", error: { type: "server_error", message: "The server had an error" } });
    await sink.until(() => sink.faults.length === 2);
    expect(sink.audio.get("item_early")).toBeGreaterThan(0);
    expect(sink.finals("assistant")).toEqual(["Early words."]);
    expect(sink.faults.map((f) => [f.error.message, f.error.retryable, f.fatal])).toEqual([
      ["openai-realtime: invalid_request_error/invalid_value: Invalid value: 'pcm8'", false, false],
      ["openai-realtime: server_error: The server had an error", true, false],
    ]);
  });

  it("refuses a bad key at the handshake as a non-retryable 401", async () => {
    const double = closing(await startRealtimeDouble({ apiKey: "sk-right-key-0000", replies: [] }));
    const client = new RealtimeClient({
      apiKey: "sk-wrong",
      settings,
      net: defaultNetwork(),
      sink: new Recorder(),
      baseUrl: double.baseUrl,
    });
    await expect(client.connect()).rejects.toMatchObject({ status: 401, retryable: false });
  });

  it("talks to an Azure resource on its GA path with the deployment as model and the api-key header", async () => {
    const double = closing(
      await startRealtimeDouble({ apiKey: "azure-key-0000", replies: [{ say: "Hello.", ms: 200 }], azure: true }),
    );
    const sink = new Recorder();
    const client = new RealtimeClient({
      apiKey: "azure-key-0000",
      settings: { ...settings, model: "my-realtime-deployment", azureEndpoint: "https://clinic.openai.azure.com/" },
      net: defaultNetwork(),
      sink,
      baseUrl: double.baseUrl,
    });
    closing({ close: async () => client.close() });
    await client.connect();
    expect(double.handshake()).toEqual({ model: "my-realtime-deployment", authorization: undefined });
    client.respond();
    await sink.until(() => sink.transcripts.some((t) => t.final && t.text === "Hello."));
  });

  it("builds the Azure resource's URL from its endpoint, whatever path was pasted", () => {
    expect(realtimeUrl("my-deployment", undefined, "https://clinic.openai.azure.com/openai/deployments/x")).toBe(
      "wss://clinic.openai.azure.com/openai/v1/realtime?model=my-deployment",
    );
    expect(realtimeUrl("gpt-realtime")).toBe("wss://api.openai.com/v1/realtime?model=gpt-realtime");
    // An integration's REST base URL (a proxy) gives its origin and path prefix, not its `/v1`.
    expect(realtimeUrl("gpt-realtime", "https://proxy.example.com/openai/v1/")).toBe(
      "wss://proxy.example.com/openai/v1/realtime?model=gpt-realtime",
    );
  });

  it("reports the socket closing under a live conversation as a fatal fault", async () => {
    const { double, sink } = await conversation([]);
    await double.close();
    await sink.until(() => sink.faults.length === 1);
    expect(sink.faults[0]?.fatal).toBe(true);
    expect(sink.faults[0]?.error.retryable).toBe(true);
  });
});
