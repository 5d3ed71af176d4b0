import { describe, expect, it } from "vitest";
import { closeAfterEach } from "../../../testing/close-after-each.ts";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { SpeechModelRecorder } from "../../../testing/speech-model-recorder.ts";
import {
  BAD_KEY_REASON,
  LIVE_DOUBLE_USAGE,
  type LiveDoubleOptions,
  type LiveDoubleReply,
  startLiveDouble,
} from "../../../testing/vendor-servers/gemini-live-double.ts";
import { faultKind, faultMessage } from "../fault-kind.ts";
import { ProviderError } from "../provider-error.ts";
import type { ToolOutcome } from "../shared/speech-model-client.ts";
import type { ToolCall } from "../types.ts";
import { GeminiLiveClient } from "./live-client.ts";
import type { GeminiLiveSettings } from "./live-settings.ts";

const closing = closeAfterEach();
const KEY = "AIza-test-live-key-0000";

const settings: GeminiLiveSettings = {
  model: "gemini-2.5-flash-native-audio-preview-09-2025",
  instructions: "You are the front desk of a dental clinic.",
  voice: "Kore",
  language: "en-US",
  turnDetection: { startSensitivity: "low", endSensitivity: "high", prefixPaddingMs: 20, silenceDurationMs: 500 },
  inputTranscription: true,
  tools: [
    {
      name: "get_weather",
      description: "The weather in a city",
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
};

async function conversation(
  replies: LiveDoubleReply[],
  runTool?: (call: ToolCall, signal: AbortSignal) => Promise<ToolOutcome>,
  doubleOptions: Partial<LiveDoubleOptions> = {},
) {
  const double = closing(await startLiveDouble({ apiKey: KEY, replies, ...doubleOptions }));
  const sink = new SpeechModelRecorder();
  const client = new GeminiLiveClient({
    apiKey: KEY,
    settings,
    net: defaultNetwork(),
    baseUrl: double.baseUrl,
    sink,
    runTool,
  });
  closing({ close: async () => client.close() });
  await client.connect();
  return { double, sink, client };
}

const isText = (m: Record<string, unknown>) => typeof (m.realtimeInput as { text?: unknown })?.text === "string";
const isAudio = (m: Record<string, unknown>) => (m.realtimeInput as { audio?: unknown })?.audio !== undefined;
const isSetup = (m: Record<string, unknown>) => "setup" in m;
const final = (sink: SpeechModelRecorder, role: string, text: string) => () =>
  sink.transcripts.some((t) => t.role === role && t.final && t.text === text);

describe("GeminiLiveClient against the Live API double", () => {
  it("sets the session up with the documented setup message and the key in the query", async () => {
    const { double } = await conversation([]);
    expect(double.keys()).toEqual([KEY]);
    expect(double.messages[0]).toEqual({
      setup: {
        model: "models/gemini-2.5-flash-native-audio-preview-09-2025",
        generationConfig: {
          responseModalities: ["AUDIO"],
          speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } }, languageCode: "en-US" },
        },
        systemInstruction: { parts: [{ text: "You are the front desk of a dental clinic." }] },
        tools: [
          {
            functionDeclarations: [
              {
                name: "get_weather",
                description: "The weather in a city",
                parametersJsonSchema: settings.tools[0]?.parameters,
              },
            ],
          },
        ],
        realtimeInputConfig: {
          automaticActivityDetection: {
            disabled: false,
            startOfSpeechSensitivity: "START_SENSITIVITY_LOW",
            endOfSpeechSensitivity: "END_SENSITIVITY_HIGH",
            prefixPaddingMs: 20,
            silenceDurationMs: 500,
          },
          activityHandling: "START_OF_ACTIVITY_INTERRUPTS",
        },
        inputAudioTranscription: {},
        outputAudioTranscription: {},
        sessionResumption: {},
      },
    });
  });

  it("streams caller audio as 16 kHz realtimeInput in 40 ms messages", async () => {
    const { double, client } = await conversation([]);
    for (let i = 0; i < 4; i++) client.appendAudio(new Int16Array(320).fill(100));
    const audio = (await double.received(isAudio, 2)).realtimeInput as { audio: { data: string; mimeType: string } };
    expect(audio.audio.mimeType).toBe("audio/pcm;rate=16000");
    expect(Buffer.from(audio.audio.data, "base64").length).toBe(1280);
  });

  it("plays a reply at 16 kHz with both transcripts, and sums usage per turn", async () => {
    const { double, sink, client } = await conversation([
      { say: "Thanks for calling.", ms: 500 },
      { say: "We open at nine.", ms: 300 },
    ]);
    client.respond('Greet the caller by saying exactly: "Thanks for calling."');
    expect(await double.received(isText)).toEqual({
      realtimeInput: { text: 'Greet the caller by saying exactly: "Thanks for calling."' },
    });
    await sink.until(final(sink, "assistant", "Thanks for calling."));
    expect(sink.audio.get("turn_1")).toBe(8000);
    expect(sink.done).toEqual(["turn_1"]);
    double.callerSaid("When do you open?");
    await sink.until(final(sink, "assistant", "We open at nine."));
    expect(sink.transcripts.filter((t) => t.role === "user")).toEqual([
      { role: "user", text: "When do you open?", final: false },
      { role: "user", text: "When do you open?", final: true },
    ]);
    // The vendor's voiceActivity gave the end of the caller's speech.
    expect(sink.stopped).toEqual([true]);
    const { promptTokensDetails: input, responseTokensDetails: output } = LIVE_DOUBLE_USAGE;
    expect(client.totals).toEqual({
      inputTextTokens: 2 * (input[0]?.tokenCount ?? 0),
      inputAudioTokens: 2 * (input[1]?.tokenCount ?? 0),
      cachedInputTokens: 2 * LIVE_DOUBLE_USAGE.cachedContentTokenCount,
      outputTextTokens: 2 * (output[0]?.tokenCount ?? 0),
      outputAudioTokens: 2 * (output[1]?.tokenCount ?? 0),
    });
  });

  it("runs a function call, answers it with a toolResponse matched by id, and holds caller audio meanwhile", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { double, sink, client } = await conversation(
      [{ call: { name: "get_weather", args: { city: "Porto" } } }, { say: "It is clear in Porto.", ms: 200 }],
      async (call) => {
        started();
        await gate;
        return { ok: true, content: JSON.stringify({ city: JSON.parse(call.arguments).city, sky: "clear" }) };
      },
    );
    double.callerSaid("What's the weather in Porto?");
    await running;
    // While the call runs, caller audio is not sent (some models close the connection on it).
    for (let i = 0; i < 4; i++) client.appendAudio(new Int16Array(320));
    release();
    const response = await double.received((m) => "toolResponse" in m);
    expect(response).toEqual({
      toolResponse: {
        functionResponses: [
          { id: "function-call-1", name: "get_weather", response: { output: '{"city":"Porto","sky":"clear"}' } },
        ],
      },
    });
    await sink.until(final(sink, "assistant", "It is clear in Porto."));
    expect(sink.tools[0]?.call).toEqual({ id: "function-call-1", name: "get_weather", arguments: '{"city":"Porto"}' });
    expect(double.messages.filter(isAudio)).toHaveLength(0);
  });

  it("stops on interrupted and reports the heard share of the cut turn", async () => {
    const { double, sink, client } = await conversation([
      { say: "It is clear in Porto today with a light breeze.", ms: 1000, untilInterrupted: true },
      { say: "Go ahead.", ms: 200 },
    ]);
    client.sendText("What's the weather?");
    // 1 s at 16 kHz, less the few samples the resampler holds until the turn's audio is done.
    await sink.until(() => (sink.audio.get("turn_1") ?? 0) >= 15_900);
    sink.heardMs = 400;
    double.speechStarted();
    await sink.until(() => sink.truncated.length > 0);
    expect(sink.truncated[0]).toEqual({
      itemId: "turn_1",
      audioEndMs: 400,
      transcript: "It is clear in Porto today with a light breeze.",
    });
    expect(sink.started).toBe(1);
    double.callerSaid("Wait, one question.");
    await sink.until(final(sink, "assistant", "Go ahead."));
    expect([...sink.audio.keys()]).toEqual(["turn_1", "turn_2"]);
    expect(sink.done).toEqual(["turn_2"]);
  });

  it("refuses a bad key with the vendor's 1008 close, not retryable, and never logs the key", async () => {
    const double = closing(await startLiveDouble({ apiKey: "another-key", replies: [] }));
    const client = new GeminiLiveClient({
      apiKey: KEY,
      settings,
      net: defaultNetwork(),
      baseUrl: double.baseUrl,
      sink: new SpeechModelRecorder(),
    });
    const error = await client.connect().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).retryable).toBe(false);
    expect((error as ProviderError).message).toBe(`gemini-live: connection closed (1008: ${BAD_KEY_REASON})`);
    expect(faultKind(error)).toBe("rejected");
    expect(faultMessage(error)).not.toContain(KEY);
  });

  it("ignores unknown messages, reports malformed ones, and survives out-of-order content", async () => {
    const { double, sink, client } = await conversation([{ say: "Hello there.", ms: 200 }]);
    double.send({ somethingNew: { value: 1 } });
    double.send("not json");
    double.send({ serverContent: "wrong" });
    double.send({ serverContent: { turnComplete: true } });
    double.send({ toolCallCancellation: { ids: ["unknown"] } });
    // Audio after `interrupted` but before the cut turn's `turnComplete` belongs to the cut turn: dropped.
    const part = { inlineData: { mimeType: "audio/pcm;rate=24000", data: Buffer.alloc(4800).toString("base64") } };
    double.send({ serverContent: { modelTurn: { parts: [part] } } });
    double.send({ serverContent: { interrupted: true } });
    double.send({ serverContent: { modelTurn: { parts: [part] } } });
    double.send({ serverContent: { turnComplete: true } });
    // A transcript before any audio opens the turn; the audio then joins it.
    double.send({ serverContent: { outputTranscription: { text: "Hi" } } });
    client.sendText("Hello?");
    await sink.until(final(sink, "assistant", "HiHello there."));
    expect(sink.faults.map((f) => f.fatal)).toEqual([false, false]);
    expect(sink.faults[0]?.error.message).toContain("not JSON");
    expect(sink.faults[1]?.error.message).toContain("serverContent");
    expect(sink.truncated).toEqual([{ itemId: "turn_1", audioEndMs: 0, transcript: "" }]);
    // 100 ms at 16 kHz, less what the resampler held: the cut turn is never flushed.
    expect(sink.audio.get("turn_1")).toBeGreaterThan(1500);
    expect(sink.audio.get("turn_1")).toBeLessThan(1600);
    expect(sink.audio.get("turn_2")).toBe(3200);
  });

  it("without voiceActivity the caller's turn ends with the reply, untimed", async () => {
    const { double, sink } = await conversation([{ say: "Yes.", ms: 200 }], undefined, { voiceActivity: false });
    double.callerSaid("Are you open?");
    await sink.until(final(sink, "assistant", "Yes."));
    expect(sink.started).toBe(1);
    expect(sink.stopped).toEqual([false]);
  });

  it("moves the session to a new connection with its handle on goAway, and goes on there", async () => {
    const { double, sink, client } = await conversation([
      { say: "One.", ms: 200 },
      { say: "Two.", ms: 200 },
    ]);
    client.sendText("Count.");
    await sink.until(final(sink, "assistant", "One."));
    double.goAway("10s");
    const resumed = (await double.received(isSetup, 2)).setup as { sessionResumption: { handle: string } };
    expect(resumed.sessionResumption.handle).toMatch(/^handle_/);
    // The client closes the old connection once the new one is set up, and talks on the new one.
    await double.closedConnections(1);
    expect(double.sessions).toBe(2);
    client.sendText("Again.");
    await sink.until(final(sink, "assistant", "Two."));
    expect(sink.faults).toEqual([]);
  });

  it("applies a new prompt and tools by resuming on a connection set up with them", async () => {
    const { double, sink, client } = await conversation([{ say: "Sure.", ms: 200 }]);
    client.sendText("Billing, please.");
    await sink.until(final(sink, "assistant", "Sure."));
    client.update({ instructions: "You handle billing.", tools: [] });
    const setup = (await double.received(isSetup, 2)).setup as Record<string, unknown>;
    expect(setup.systemInstruction).toEqual({ parts: [{ text: "You handle billing." }] });
    expect(setup).not.toHaveProperty("tools");
    expect(setup.sessionResumption).toEqual({ handle: expect.stringMatching(/^handle_/) });
    expect(setup.generationConfig).toMatchObject({
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: "Kore" } } },
    });
  });

  it("resumes from the last handle when the connection drops without goAway, and goes on", async () => {
    const { double, sink, client } = await conversation([
      { say: "One.", ms: 200 },
      { say: "Two.", ms: 200 },
    ]);
    client.sendText("Count.");
    await sink.until(final(sink, "assistant", "One."));
    double.closeWith(1011, "Internal error encountered.");
    await sink.until(() => sink.faults.length > 0);
    expect(sink.faults[0]?.fatal).toBe(false);
    expect(sink.faults[0]?.error.message).toContain("1011");
    expect(double.sessions).toBe(2);
    client.sendText("Again.");
    await sink.until(final(sink, "assistant", "Two."));
  });

  it("reports a connection the vendor closes before any handle as a fatal, retryable fault", async () => {
    const { double, sink } = await conversation([]);
    double.closeWith(1011, "Internal error encountered.");
    await sink.until(() => sink.faults.length > 0);
    expect(sink.faults[0]?.fatal).toBe(true);
    expect(sink.faults[0]?.error.retryable).toBe(true);
    expect(sink.faults[0]?.error.message).toContain("1011");
  });
});
