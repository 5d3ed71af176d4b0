import { describe, expect, it } from "vitest";
import { CallHarness } from "../../testing/call-harness.ts";
import { FakeTts, ScriptedLlm } from "../../testing/fake-providers.ts";
import { FallbackLlm, type FallbackSwitch, FallbackTts } from "../providers/fallback.ts";
import { ProviderError } from "../providers/provider-error.ts";
import type { AudioChunk, ChatRequest, LlmChunk, LlmProvider, TtsProvider } from "../providers/types.ts";

/** A model that answers its first `okTurns` requests, then is down (503, as an overloaded vendor). */
class FlakyLlm implements LlmProvider {
  readonly id = "primary-llm";
  readonly model = "primary";
  private calls = 0;
  constructor(
    private readonly inner: ScriptedLlm,
    private readonly okTurns: number,
  ) {}
  async *chat(request: ChatRequest): AsyncIterable<LlmChunk> {
    this.calls += 1;
    if (this.calls > this.okTurns) throw new ProviderError(this.id, "HTTP 503: overloaded", true, 503);
    yield* this.inner.chat(request);
  }
}

/** A voice that speaks its first `okTexts` pieces of text, then its connection drops. */
class FlakyTts implements TtsProvider {
  readonly id = "primary-tts";
  readonly model = "primary";
  readonly voice = "primary";
  private calls = 0;
  constructor(
    private readonly inner: FakeTts,
    private readonly okTexts: number,
  ) {}
  async *synthesize(text: string): AsyncIterable<AudioChunk> {
    this.calls += 1;
    if (this.calls > this.okTexts) throw new ProviderError(this.id, "socket closed", true);
    yield* this.inner.synthesize(text);
  }
}

describe("provider fallback mid-call", () => {
  it("answers from the next model when the first goes down between turns", async () => {
    const switches: FallbackSwitch[] = [];
    const primary = new ScriptedLlm(["Primary says hello."]);
    const call = new CallHarness({
      assistant: { first_speaker: "user" },
      heard: ["Hi.", "What are your hours?"],
      replies: ["Backup says nine to five."],
      wrapLlm: (backup) => new FallbackLlm([new FlakyLlm(primary, 1), backup], (s) => switches.push(s)),
    });
    await call.start();
    await call.say();
    await call.untilListening();
    await call.say();
    await call.untilListening();
    expect(call.transcript()).toEqual([
      "user: Hi.",
      "assistant: Primary says hello.",
      "user: What are your hours?",
      "assistant: Backup says nine to five.",
    ]);
    expect(switches).toEqual([expect.objectContaining({ stage: "llm", from: "primary-llm", to: "scripted-llm" })]);
    // The backup model saw the whole conversation so far, including the primary's answer.
    expect(call.llm.requests[0]?.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    await call.session.hangup("caller_hangup");
  });

  it("keeps speaking with the next voice when the first drops mid-call", async () => {
    const switches: FallbackSwitch[] = [];
    const call = new CallHarness({
      assistant: { first_speaker: "assistant", first_message: "Welcome." },
      heard: ["Hello?"],
      replies: ["Still here with another voice."],
      wrapTts: (backup) =>
        new FallbackTts([new FlakyTts(new FakeTts({ msPerWord: 100 }), 1), backup], (s) => switches.push(s)),
    });
    await call.start();
    await call.untilListening();
    const framesAfterGreeting = call.audio.length;
    await call.say();
    await call.untilListening();
    const answerAudio = call.audio.slice(framesAfterGreeting).filter((f) => f.some((s) => s !== 0));
    // Four words at 100 ms each: about 20 frames of speech from the backup voice.
    expect(answerAudio.length).toBeGreaterThanOrEqual(15);
    expect(switches).toEqual([expect.objectContaining({ stage: "tts", from: "primary-tts", to: "fake-tts" })]);
    expect(call.transcript()).toContain("assistant: Still here with another voice.");
    await call.session.hangup("caller_hangup");
  });
});
