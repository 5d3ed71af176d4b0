import { describe, expect, it } from "vitest";
import { testAssistant } from "../../testing/call-harness.ts";
import { closeAfterEach } from "../../testing/close-after-each.ts";
import { defaultNetwork } from "../../testing/default-network.ts";
import { FakeTts, ScriptedLlm } from "../../testing/fake-providers.ts";
import { type DoubleReply, startRealtimeDouble } from "../../testing/vendor-servers/openai-realtime-double.ts";
import { VirtualClock } from "../../testing/virtual-clock.ts";
import { decodeWav } from "../audio/wav.ts";
import { type CallSettings, callSettingsOf } from "../session/call-settings.ts";
import type { CallEvent, ToolRunner } from "../session/types.ts";
import { heardPart, RealtimeCallSession } from "./realtime-call-session.ts";

const closing = closeAfterEach();

const weather: ToolRunner = {
  tools: () => [
    { name: "get_weather", description: "The weather in a city", parameters: { type: "object", properties: {} } },
  ],
  run: async (call) => ({ ok: true, content: JSON.stringify({ city: JSON.parse(call.arguments).city, sky: "clear" }) }),
};

async function call(
  replies: DoubleReply[],
  firstMessage = "Thanks for calling the clinic.",
  adjust: (settings: CallSettings) => CallSettings = (settings) => settings,
) {
  const double = closing(await startRealtimeDouble({ apiKey: "sk-test-realtime", replies }));
  const clock = new VirtualClock();
  const events: CallEvent[] = [];
  const waiters: Array<() => void> = [];
  const session = new RealtimeCallSession({
    settings: adjust(
      callSettingsOf(testAssistant({ first_message: firstMessage, system_prompt: "You book appointments." })),
    ),
    realtime: {
      provider: "openai-realtime",
      model: "gpt-realtime",
      voice: "marin",
      turnDetection: { type: "server_vad", silenceDurationMs: 500 },
      inputTranscriptionModel: "gpt-4o-mini-transcribe",
    },
    apiKey: "sk-test-realtime",
    net: defaultNetwork(),
    baseUrl: double.baseUrl,
    callId: "call_1",
    tools: weather,
    clock,
    context: "The caller's number is +15550100.",
    sink: {
      onEvent: (event) => {
        events.push(event);
        for (const wake of waiters.splice(0)) wake();
      },
    },
  });
  closing({ close: () => session.hangup("caller_hangup") });
  const frames: Int16Array[] = [];
  session.onAudio((pcm) => frames.push(pcm));
  /** Resolves once an event matching `match` has been emitted. */
  const until = (match: (event: CallEvent) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (events.some(match) ? resolve() : waiters.push(check));
      check();
    });
  const final = (role: "user" | "assistant", text: string) => (e: CallEvent) =>
    e.type === "transcript" && e.role === role && e.final && e.text === text;
  return { double, clock, events, frames, session, until, final };
}

describe("a call on a speech-to-speech model", () => {
  it("greets with the first message, paced in 20 ms frames at 16 kHz", async () => {
    const { double, clock, events, frames, session, until, final } = await call([
      { say: "Thanks for calling the clinic.", ms: 600 },
    ]);
    await session.start();
    const update = double.events[0] as { session: { instructions: string; tools: unknown[] } };
    expect(update.session.instructions).toBe("You book appointments.\n\nThe caller's number is +15550100.");
    // The engine's own tools the settings switch on, then the call's functions.
    const names = update.session.tools.map((tool) => (tool as { name: string }).name);
    expect(names.at(-1)).toBe("get_weather");
    expect(names).toContain("send_dtmf");
    expect(await double.received("response.create")).toEqual({
      type: "response.create",
      response: { instructions: 'Greet the caller by saying exactly: "Thanks for calling the clinic."' },
    });
    await until(final("assistant", "Thanks for calling the clinic."));
    // Paced: one frame at once, then one each 20 ms of the call's clock.
    expect(frames).toHaveLength(1);
    await clock.advance(700);
    expect(frames.length).toBe(30);
    expect(frames.every((f) => f.length === 320)).toBe(true);
    const states = events.filter((e) => e.type === "state").map((e) => (e as { state: string }).state);
    expect(states).toEqual(["listening", "speaking", "listening"]);
  });

  it("runs a function call, answers, and truncates the reply at the heard position on barge-in", async () => {
    const { double, clock, events, frames, session, until, final } = await call(
      [
        { say: "Hello.", ms: 200 },
        { call: { name: "get_weather", arguments: { city: "Porto" } } },
        {
          say: "It is clear in Porto today, with a light breeze from the west all afternoon.",
          ms: 4000,
          untilInterrupted: true,
        },
      ],
      "Hello.",
    );
    await session.start();
    await until(final("assistant", "Hello."));
    await clock.advance(300);
    const before = frames.length;
    double.callerSaid("What's the weather in Porto?");
    await until((e) => e.type === "tool_call");
    await until(
      (e) => e.type === "transcript" && e.role === "assistant" && !e.final && e.text.startsWith("It is clear"),
    );
    // All 4 s have arrived; 1 s of it is played before the caller speaks.
    await double.received("response.create", 2);
    // One frame plays as the reply arrives, then one each 20 ms.
    await clock.advance(1000);
    const heardMs = (frames.length - before) * 20;
    double.speechStarted();
    const truncate = await double.received("conversation.item.truncate");
    expect(truncate).toMatchObject({ content_index: 0, audio_end_ms: heardMs });
    await until((e) => e.type === "interruption");
    // Playout stopped at once: no frame after the barge-in.
    const atBargeIn = frames.length;
    await clock.advance(500);
    expect(frames.length).toBe(atBargeIn);

    const tool = events.find((e) => e.type === "tool_call");
    expect(tool).toMatchObject({
      name: "get_weather",
      arguments: '{"city":"Porto"}',
      result: '{"city":"Porto","sky":"clear"}',
      ok: true,
    });
    expect(events.some(final("user", "What's the weather in Porto?"))).toBe(true);
    const interruption = events.find((e) => e.type === "interruption") as { heardText: string };
    expect(interruption.heardText).toBe("It is clear");
    expect(session.usage.outputAudioTokens).toBeGreaterThan(0);
    // The caller's turn: answered by the function call's follow-up, whose first frame went out at once.
    const metrics = events.find((e) => e.type === "turn_metrics");
    expect(metrics?.type === "turn_metrics" && metrics.metrics).toMatchObject({
      turn: 1,
      sttMs: null,
      voiceToVoiceMs: 0,
      engineOverheadMs: 0,
    });
  });

  it("logs a vendor error event and goes on; a lost connection ends the call as an assistant error", async () => {
    const { double, events, session, until } = await call([], "");
    await session.start();
    double.send({ type: "error", error: { type: "invalid_request_error", code: "invalid_value", message: "bad" } });
    await until((e) => e.type === "fault");
    expect(events.find((e) => e.type === "fault")).toMatchObject({ stage: "llm", action: "skipped", kind: "failed" });
    await double.close();
    const summary = await session.done;
    expect(summary.reason).toBe("assistant_error");
    expect(summary.faults.map((f) => f.action)).toEqual(["skipped", "gave_up"]);
  });

  it("ends at once with the fault when the model cannot be reached", async () => {
    const double = closing(await startRealtimeDouble({ apiKey: "another-key-000", replies: [] }));
    const session = new RealtimeCallSession({
      settings: callSettingsOf(testAssistant()),
      realtime: {
        provider: "openai-realtime",
        model: "gpt-realtime",
        voice: "marin",
        turnDetection: { type: "semantic_vad" },
        inputTranscriptionModel: null,
      },
      apiKey: "sk-test-realtime",
      net: defaultNetwork(),
      baseUrl: double.baseUrl,
      sink: { onEvent: () => undefined },
    });
    await session.start();
    const summary = await session.done;
    expect(summary.reason).toBe("assistant_error");
    expect(summary.faults[0]).toMatchObject({ kind: "rejected", action: "gave_up" });
  });
});

describe("the engine's own tools on a realtime call", () => {
  it("end_call: the model says the goodbye given, and the call ends once it has played", async () => {
    const double = closing(
      await startRealtimeDouble({
        apiKey: "sk-test-realtime",
        replies: [{ call: { name: "end_call", arguments: {} } }, { say: "Goodbye, take care.", ms: 400 }],
      }),
    );
    const clock = new VirtualClock();
    const settings = callSettingsOf(
      testAssistant({ first_message: "", end_call_function: true, end_call_goodbye_message: "Goodbye, take care." }),
    );
    const session = new RealtimeCallSession({
      settings,
      realtime: {
        provider: "openai-realtime",
        model: "gpt-realtime",
        voice: "marin",
        turnDetection: { type: "semantic_vad" },
        inputTranscriptionModel: null,
      },
      apiKey: "sk-test-realtime",
      net: defaultNetwork(),
      baseUrl: double.baseUrl,
      clock,
      sink: { onEvent: () => undefined },
    });
    closing({ close: () => session.hangup("caller_hangup") });
    let frames = 0;
    let firstFrame: () => void = () => undefined;
    const playing = new Promise<void>((resolve) => {
      firstFrame = resolve;
    });
    session.onAudio(() => {
      frames++;
      firstFrame();
    });
    await session.start();
    double.callerSaid("That's all, thanks.");
    expect(await double.received("response.create")).toEqual({
      type: "response.create",
      response: { instructions: 'Say exactly: "Goodbye, take care."' },
    });
    let ended = false;
    void session.done.then(() => {
      ended = true;
    });
    // The goodbye arrives and plays out; the call ends only after its last frame.
    await playing;
    await clock.advance(200);
    expect(ended).toBe(false);
    await clock.advance(300);
    const summary = await session.done;
    expect(summary.reason).toBe("assistant_ended");
    expect(frames).toBe(20);
    // Recorded as played: a stereo WAV of 16 kHz 16-bit (44-byte header), 400 ms on the assistant side.
    expect(summary.recording?.subarray(0, 4).toString()).toBe("RIFF");
    expect(summary.recording?.length).toBe(44 + 4 * 6400);
  });
});

describe("the call's time limit", () => {
  it("has the model say the warning, then ends at the limit", async () => {
    const double = closing(
      await startRealtimeDouble({ apiKey: "sk-test-realtime", replies: [{ say: "Only a minute left.", ms: 200 }] }),
    );
    const clock = new VirtualClock();
    const settings = callSettingsOf(testAssistant({ first_message: "" }));
    const session = new RealtimeCallSession({
      settings: {
        ...settings,
        maxDuration: { seconds: 120, warningShare: 0.5, warningMessage: "Only a minute left." },
        silence: { seconds: 600, prompt: "Hello?", maxPrompts: 1 },
      },
      realtime: {
        provider: "openai-realtime",
        model: "gpt-realtime",
        voice: "marin",
        turnDetection: { type: "semantic_vad" },
        inputTranscriptionModel: null,
      },
      apiKey: "sk-test-realtime",
      net: defaultNetwork(),
      baseUrl: double.baseUrl,
      clock,
      sink: { onEvent: () => undefined },
    });
    closing({ close: () => session.hangup("caller_hangup") });
    await session.start();
    await clock.advance(60_000);
    expect(await double.received("response.create")).toEqual({
      type: "response.create",
      response: { instructions: 'Say exactly: "Only a minute left."' },
    });
    await clock.advance(60_000);
    expect((await session.done).reason).toBe("max_duration");
  });
});

describe("typed text and hand-offs", () => {
  it("answers typed text and hands the call to the next assistant's prompt and tools in the same session", async () => {
    const { double, events, session, until, final } = await call([{ say: "Sure.", ms: 200 }], "");
    await session.start();
    session.pushText("Can I talk to billing?");
    expect(await double.received("conversation.item.create")).toEqual({
      type: "conversation.item.create",
      item: { type: "message", role: "user", content: [{ type: "input_text", text: "Can I talk to billing?" }] },
    });
    await until(final("assistant", "Sure."));
    const next = callSettingsOf(testAssistant({ system_prompt: "You handle billing." }));
    await session.switchAssistant({
      from: "Front desk",
      to: "Billing",
      reason: "billing question",
      // The pipeline's model and voice are part of an assistant's parts; a realtime call uses neither.
      next: { settings: next, llm: new ScriptedLlm(), tts: new FakeTts() },
      history: [],
    });
    const update = (await double.received("session.update", 2)) as { session: Record<string, unknown> };
    expect(update.session.instructions).toBe("You handle billing.");
    expect(update.session).not.toHaveProperty("audio");
    expect(events.some(final("user", "Can I talk to billing?"))).toBe(true);
    expect(events.find((e) => e.type === "handoff")).toMatchObject({ from: "Front desk", to: "Billing" });
  });
});

describe("the caller's silence", () => {
  it("has the model prompt after the silence, then say goodbye and end", async () => {
    const double = closing(
      await startRealtimeDouble({
        apiKey: "sk-test-realtime",
        replies: [
          { say: "Are you still there?", ms: 200 },
          { say: "Goodbye.", ms: 200 },
        ],
      }),
    );
    const clock = new VirtualClock();
    const settings = callSettingsOf(testAssistant({ first_message: "", end_call_goodbye_message: "Goodbye." }));
    const session = new RealtimeCallSession({
      settings: { ...settings, silence: { seconds: 10, prompt: "Are you still there?", maxPrompts: 1 } },
      realtime: {
        provider: "openai-realtime",
        model: "gpt-realtime",
        voice: "marin",
        turnDetection: { type: "semantic_vad" },
        inputTranscriptionModel: null,
      },
      apiKey: "sk-test-realtime",
      net: defaultNetwork(),
      baseUrl: double.baseUrl,
      clock,
      sink: { onEvent: () => undefined },
    });
    closing({ close: () => session.hangup("caller_hangup") });
    /** Resolves at the `n`-th frame played. */
    let frames = 0;
    const frameWaiters: Array<() => void> = [];
    session.onAudio(() => {
      frames++;
      for (const wake of frameWaiters.splice(0)) wake();
    });
    const frame = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (frames >= n ? resolve() : frameWaiters.push(check));
        check();
      });
    await session.start();
    await clock.advance(10_000);
    expect(await double.received("response.create")).toMatchObject({
      response: { instructions: 'Say exactly: "Are you still there?"' },
    });
    await frame(1);
    await clock.advance(300);
    // The prompt went unanswered for another 10 s: the model is asked for the goodbye.
    await clock.advance(10_000);
    expect(await double.received("response.create", 2)).toMatchObject({
      response: { instructions: 'Say exactly: "Goodbye."' },
    });
    await frame(11);
    await clock.advance(300);
    expect((await session.done).reason).toBe("silence_timeout");
  });
});

describe("latency on the real clock", () => {
  it("hands out the answer's first frame within 100 ms of the caller's end of speech with an instant double", async () => {
    const double = closing(
      await startRealtimeDouble({ apiKey: "sk-test-realtime", replies: [{ say: "Yes.", ms: 200 }] }),
    );
    const events: CallEvent[] = [];
    let metricsArrived: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => {
      metricsArrived = resolve;
    });
    const session = new RealtimeCallSession({
      settings: callSettingsOf(testAssistant({ first_message: "" })),
      realtime: {
        provider: "openai-realtime",
        model: "gpt-realtime",
        voice: "marin",
        turnDetection: { type: "semantic_vad" },
        inputTranscriptionModel: null,
      },
      apiKey: "sk-test-realtime",
      net: defaultNetwork(),
      baseUrl: double.baseUrl,
      sink: {
        onEvent: (event) => {
          events.push(event);
          if (event.type === "turn_metrics") metricsArrived();
        },
      },
    });
    closing({ close: () => session.hangup("caller_hangup") });
    await session.start();
    double.callerSaid("Is it open today?");
    await arrived;
    const metrics = events.find((e) => e.type === "turn_metrics");
    if (metrics?.type !== "turn_metrics") throw new Error("no turn metrics");
    expect(metrics.metrics.voiceToVoiceMs).toBeLessThanOrEqual(100);
    expect(metrics.metrics.engineOverheadMs).toBeLessThanOrEqual(100);
  });
  it("with PII redaction, keeps an e-mail out of every event and silences the speech that held it", async () => {
    const { double, clock, events, session, until, final } = await call(
      [
        { say: "Hello.", ms: 200 },
        { say: "I will write to jane@example.com today.", ms: 600 },
      ],
      "Hello.",
      (settings) => ({ ...settings, record: true, piiRedaction: { ...settings.piiRedaction, stored: true } }),
    );
    await session.start();
    await until(final("assistant", "Hello."));
    await clock.advance(300);
    double.speechStarted();
    // The caller speaks for half a second at full scale.
    const speech = new Int16Array(320).fill(12_000);
    for (let i = 0; i < 25; i++) session.pushAudio(speech);
    double.callerSaid("My email is jane@example.com");
    await until((e) => e.type === "transcript" && e.role === "assistant" && e.final && e.text.includes("write to"));
    await clock.advance(1000);
    session.hangup("caller_hangup");
    const summary = await session.done;

    const said = JSON.stringify(events);
    expect(said).not.toContain("jane@example.com");
    expect(
      events.some((e) => e.type === "transcript" && e.role === "user" && e.final && /\[EMAIL_1\]/.test(e.text)),
    ).toBe(true);
    if (!summary.recording) throw new Error("the call was recorded");
    const [caller, assistant] = decodeWav(summary.recording).channels;
    // The caller's loud half second is silent; the greeting before it is still heard on the other side.
    expect(caller?.some((s) => s !== 0)).toBe(false);
    // Each side holds what was played of it, back to back: 0.2 s of greeting, then 0.6 s of reply.
    const greeting = assistant?.subarray(0, 16_000 * 0.2);
    expect(greeting?.some((s) => s !== 0)).toBe(true);
    // The reply that said the address is silent from its first frame to its last.
    const reply = assistant?.subarray(16_000 * 0.2);
    expect(reply?.length).toBe(16_000 * 0.6);
    expect(reply?.some((s) => s !== 0)).toBe(false);
  });
});

describe("heardPart", () => {
  it("keeps the share of words the played audio covers", () => {
    expect(heardPart("one two three four", 500, 1000)).toBe("one two");
    expect(heardPart("one two", 5000, 1000)).toBe("one two");
    expect(heardPart("one two", 0, 0)).toBe("");
  });
});
