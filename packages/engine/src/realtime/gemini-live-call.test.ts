import { describe, expect, it } from "vitest";
import { testAssistant } from "../../testing/call-harness.ts";
import { closeAfterEach } from "../../testing/close-after-each.ts";
import { defaultNetwork } from "../../testing/default-network.ts";
import { FakeTts, ScriptedLlm } from "../../testing/fake-providers.ts";
import { type LiveDoubleReply, startLiveDouble } from "../../testing/vendor-servers/gemini-live-double.ts";
import { VirtualClock } from "../../testing/virtual-clock.ts";
import { systemClock } from "../clock/system-clock.ts";
import { type CallSettings, callSettingsOf } from "../session/call-settings.ts";
import type { CallEvent, Clock, ToolRunner } from "../session/types.ts";
import { RealtimeCallSession } from "./realtime-call-session.ts";
import type { GeminiLiveModelSettings } from "./speech-model-settings.ts";

const closing = closeAfterEach();
const KEY = "AIza-test-live-call-0000";

const gemini: GeminiLiveModelSettings = {
  provider: "gemini-live",
  model: "gemini-2.5-flash-native-audio-preview-09-2025",
  voice: "Aoede",
  turnDetection: { silenceDurationMs: 500 },
  inputTranscription: true,
};

const weather: ToolRunner = {
  tools: () => [
    { name: "get_weather", description: "The weather in a city", parameters: { type: "object", properties: {} } },
  ],
  run: async (call) => ({ ok: true, content: JSON.stringify({ city: JSON.parse(call.arguments).city, sky: "clear" }) }),
};

type Message = Record<string, unknown>;
const isText = (m: Message) => typeof (m.realtimeInput as { text?: unknown })?.text === "string";
const isSetup = (m: Message) => "setup" in m;

async function call(
  replies: LiveDoubleReply[],
  settings: CallSettings = callSettingsOf(
    testAssistant({ first_message: "Thanks for calling the clinic.", system_prompt: "You book appointments." }),
  ),
  clock: Clock = new VirtualClock(),
) {
  const double = closing(await startLiveDouble({ apiKey: KEY, replies }));
  const events: CallEvent[] = [];
  const waiters: Array<() => void> = [];
  const session = new RealtimeCallSession({
    settings,
    realtime: gemini,
    apiKey: KEY,
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
  session.onAudio((pcm) => {
    frames.push(pcm);
    for (const wake of waiters.splice(0)) wake();
  });
  const until = (match: (event: CallEvent) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => (events.some(match) ? resolve() : waiters.push(check));
      check();
    });
  const final = (role: "user" | "assistant", text: string) => (e: CallEvent) =>
    e.type === "transcript" && e.role === role && e.final && e.text === text;
  /** Resolves once `n` frames have been played. */
  const played = (n: number) =>
    new Promise<void>((resolve) => {
      const check = () => (frames.length >= n ? resolve() : waiters.push(check));
      check();
    });
  return { double, events, frames, session, until, final, played };
}

describe("a call on Gemini Live", () => {
  it("greets with the first message, paced in 20 ms frames at 16 kHz", async () => {
    const clock = new VirtualClock();
    const { double, events, frames, session, until, final } = await call(
      [{ say: "Thanks for calling the clinic.", ms: 600 }],
      undefined,
      clock,
    );
    await session.start();
    const setup = double.messages[0]?.setup as { systemInstruction: unknown; tools: unknown[] };
    expect(setup.systemInstruction).toEqual({
      parts: [{ text: "You book appointments.\n\nThe caller's number is +15550100." }],
    });
    const declarations = (setup.tools[0] as { functionDeclarations: Array<{ name: string }> }).functionDeclarations;
    expect(declarations.map((d) => d.name)).toContain("send_dtmf");
    expect(declarations.at(-1)?.name).toBe("get_weather");
    expect(await double.received(isText)).toEqual({
      realtimeInput: { text: 'Greet the caller by saying exactly: "Thanks for calling the clinic."' },
    });
    await until(final("assistant", "Thanks for calling the clinic."));
    expect(frames).toHaveLength(1);
    await clock.advance(700);
    expect(frames.length).toBe(30);
    expect(frames.every((f) => f.length === 320)).toBe(true);
    const states = events.filter((e) => e.type === "state").map((e) => (e as { state: string }).state);
    expect(states).toEqual(["listening", "speaking", "listening"]);
  });

  it("runs a function call, answers, and stops playout on interrupted with the heard share", async () => {
    const clock = new VirtualClock();
    const { double, events, frames, session, until, final } = await call(
      [
        { say: "Hello.", ms: 200 },
        { call: { name: "get_weather", args: { city: "Porto" } } },
        {
          say: "It is clear in Porto today, with a light breeze from the west all afternoon.",
          ms: 4000,
          untilInterrupted: true,
        },
      ],
      callSettingsOf(testAssistant({ first_message: "Hello." })),
      clock,
    );
    await session.start();
    await until(final("assistant", "Hello."));
    await clock.advance(300);
    const before = frames.length;
    double.callerSaid("What's the weather in Porto?");
    await until((e) => e.type === "tool_call");
    expect(await double.received((m) => "toolResponse" in m)).toEqual({
      toolResponse: {
        functionResponses: [
          {
            id: expect.stringMatching(/^function-call-\d+$/),
            name: "get_weather",
            response: { output: '{"city":"Porto","sky":"clear"}' },
          },
        ],
      },
    });
    await until((e) => e.type === "transcript" && e.role === "assistant" && !e.final && e.text.includes("afternoon."));
    await clock.advance(1000);
    double.speechStarted();
    await until((e) => e.type === "interruption");
    const heardMs = (frames.length - before) * 20;
    expect(heardMs).toBe(1020);
    const atBargeIn = frames.length;
    await clock.advance(500);
    expect(frames.length).toBe(atBargeIn);

    expect(events.find((e) => e.type === "tool_call")).toMatchObject({
      name: "get_weather",
      arguments: '{"city":"Porto"}',
      result: '{"city":"Porto","sky":"clear"}',
      ok: true,
    });
    expect(events.some(final("user", "What's the weather in Porto?"))).toBe(true);
    const interruption = events.find((e) => e.type === "interruption") as { heardText: string };
    expect(interruption.heardText).toBe("It is clear");
    // Two turns completed with usage: the greeting, and the answer the function call led to (cut).
    expect(session.usage).toEqual({
      inputTextTokens: 20,
      inputAudioTokens: 50,
      cachedInputTokens: 8,
      outputTextTokens: 24,
      outputAudioTokens: 96,
    });
    // The vendor's ACTIVITY_END started the caller's turn; the answer's first frame went out at once.
    const metrics = events.find((e) => e.type === "turn_metrics");
    expect(metrics?.type === "turn_metrics" && metrics.metrics).toMatchObject({
      turn: 1,
      sttMs: null,
      voiceToVoiceMs: 0,
      engineOverheadMs: 0,
    });
  });

  it("end_call: the goodbye rides along with the function's answer, and the call ends once it has played", async () => {
    const clock = new VirtualClock();
    const settings = callSettingsOf(
      testAssistant({ first_message: "", end_call_function: true, end_call_goodbye_message: "Goodbye, take care." }),
    );
    const { double, frames, session, played } = await call(
      [{ call: { name: "end_call", args: {} } }, { say: "Goodbye, take care.", ms: 400 }],
      settings,
      clock,
    );
    await session.start();
    double.callerSaid("That's all, thanks.");
    const response = (await double.received((m) => "toolResponse" in m)).toolResponse as {
      functionResponses: Array<{ name: string; response: Record<string, unknown> }>;
    };
    expect(response.functionResponses[0]).toMatchObject({
      name: "end_call",
      response: { instructions: 'Say exactly: "Goodbye, take care."' },
    });
    let ended = false;
    void session.done.then(() => {
      ended = true;
    });
    await played(1);
    await clock.advance(200);
    expect(ended).toBe(false);
    await clock.advance(300);
    expect((await session.done).reason).toBe("assistant_ended");
    expect(frames).toHaveLength(20);
  });

  it("hands the call to the next assistant by resuming the session set up with its prompt", async () => {
    const { double, session, until, final, events } = await call(
      [{ say: "Sure.", ms: 200 }],
      callSettingsOf(testAssistant({ first_message: "" })),
    );
    await session.start();
    session.pushText("Can I talk to billing?");
    await until(final("assistant", "Sure."));
    await session.switchAssistant({
      from: "Front desk",
      to: "Billing",
      reason: "billing question",
      next: {
        settings: callSettingsOf(testAssistant({ system_prompt: "You handle billing." })),
        llm: new ScriptedLlm(),
        tts: new FakeTts(),
      },
      history: [],
    });
    const setup = (await double.received(isSetup, 2)).setup as Record<string, unknown>;
    expect(setup.systemInstruction).toEqual({ parts: [{ text: "You handle billing." }] });
    expect(setup.sessionResumption).toEqual({ handle: expect.stringMatching(/^handle_/) });
    expect(events.find((e) => e.type === "handoff")).toMatchObject({ from: "Front desk", to: "Billing" });
  });

  it("ends at once with a rejected fault when the key is refused", async () => {
    const double = closing(await startLiveDouble({ apiKey: "another-key", replies: [] }));
    const session = new RealtimeCallSession({
      settings: callSettingsOf(testAssistant()),
      realtime: gemini,
      apiKey: KEY,
      net: defaultNetwork(),
      baseUrl: double.baseUrl,
      sink: { onEvent: () => undefined },
    });
    await session.start();
    const summary = await session.done;
    expect(summary.reason).toBe("assistant_error");
    expect(summary.faults[0]).toMatchObject({ provider: "gemini-live", kind: "rejected", action: "gave_up" });
    expect(summary.faults[0]?.error).not.toContain(KEY);
  });
});

describe("a Gemini Live service that sends no voiceActivity", () => {
  it("ends the caller's turn at the reply without turn metrics, and still prompts after the caller's silence", async () => {
    const double = closing(
      await startLiveDouble({
        apiKey: KEY,
        voiceActivity: false,
        replies: [
          { say: "Yes, we are open.", ms: 200 },
          { say: "Are you still there?", ms: 200 },
        ],
      }),
    );
    const clock = new VirtualClock();
    const events: CallEvent[] = [];
    const waiters: Array<() => void> = [];
    const settings = callSettingsOf(testAssistant({ first_message: "" }));
    const session = new RealtimeCallSession({
      settings: { ...settings, silence: { seconds: 10, prompt: "Are you still there?", maxPrompts: 2 } },
      realtime: gemini,
      apiKey: KEY,
      net: defaultNetwork(),
      baseUrl: double.baseUrl,
      clock,
      sink: {
        onEvent: (event) => {
          events.push(event);
          for (const wake of waiters.splice(0)) wake();
        },
      },
    });
    closing({ close: () => session.hangup("caller_hangup") });
    await session.start();
    double.callerSaid("Are you open?");
    await new Promise<void>((resolve) => {
      const check = () =>
        events.some((e) => e.type === "transcript" && e.final && e.text === "Yes, we are open.")
          ? resolve()
          : waiters.push(check);
      check();
    });
    await clock.advance(300);
    await clock.advance(10_000);
    expect(await double.received(isText)).toEqual({ realtimeInput: { text: 'Say exactly: "Are you still there?"' } });
    expect(events.some((e) => e.type === "turn_metrics")).toBe(false);
  });
});

describe("latency on the real clock with Gemini Live", () => {
  it("hands out the answer's first frame within 100 ms of the caller's end of speech with an instant double", async () => {
    const { double, events, session, until } = await call(
      [{ say: "Yes.", ms: 200 }],
      callSettingsOf(testAssistant({ first_message: "" })),
      systemClock,
    );
    await session.start();
    double.callerSaid("Is it open today?");
    await until((e) => e.type === "turn_metrics");
    const metrics = events.find((e) => e.type === "turn_metrics");
    if (metrics?.type !== "turn_metrics") throw new Error("no turn metrics");
    expect(metrics.metrics.voiceToVoiceMs).toBeLessThanOrEqual(100);
    expect(metrics.metrics.engineOverheadMs).toBeLessThanOrEqual(100);
  });
});
