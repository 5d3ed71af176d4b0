import { describe, expect, it } from "vitest";
import { instrumentLlm, instrumentTts, type LlmRequestMetric, type TtsRequestMetric } from "./metrics.ts";
import { ProviderError } from "./provider-error.ts";
import type { LlmProvider, TtsProvider } from "./types.ts";

/** A clock that advances 100 ms each time it is read after a chunk is produced. */
function steppingClock() {
  let t = 0;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe("instrumentLlm", () => {
  it("reports time to first token, duration and usage of each request", async () => {
    const clock = steppingClock();
    const llm: LlmProvider = {
      id: "openai",
      model: "gpt-4o-mini",
      async *chat() {
        clock.advance(250);
        yield { type: "text", text: "Hi" };
        clock.advance(50);
        yield { type: "text", text: "!" };
        yield { type: "usage", inputTokens: 10, outputTokens: 2 };
      },
    };
    const metrics: LlmRequestMetric[] = [];
    for await (const _ of instrumentLlm(llm, (m) => metrics.push(m), clock.now).chat({ messages: [] })) {
      // drain
    }
    expect(metrics).toEqual([
      {
        stage: "llm",
        provider: "openai",
        model: "gpt-4o-mini",
        ttftMs: 250,
        durationMs: 300,
        inputTokens: 10,
        outputTokens: 2,
        outcome: "ok",
      },
    ]);
  });

  it("records failures and early stops", async () => {
    const failing: LlmProvider = {
      id: "groq",
      model: "llama",
      // biome-ignore lint/correctness/useYield: fails before producing anything
      async *chat() {
        throw new ProviderError("groq", "HTTP 503: busy", true, 503);
      },
    };
    const metrics: LlmRequestMetric[] = [];
    const wrapped = instrumentLlm(failing, (m) => metrics.push(m));
    await expect(
      (async () => {
        for await (const _ of wrapped.chat({ messages: [] })) {
          // drain
        }
      })(),
    ).rejects.toThrow("busy");
    expect(metrics[0]).toMatchObject({ outcome: "error", ttftMs: null, error: "groq: HTTP 503: busy" });
  });
});

describe("instrumentTts", () => {
  it("reports time to first audio and the length of audio produced", async () => {
    const clock = steppingClock();
    const tts: TtsProvider = {
      id: "cartesia",
      model: "sonic-2",
      voice: "v1",
      async *synthesize() {
        clock.advance(120);
        yield { pcm: new Int16Array(8000), sampleRate: 16000 };
        clock.advance(30);
        yield { pcm: new Int16Array(12000), sampleRate: 24000 };
      },
    };
    const metrics: TtsRequestMetric[] = [];
    for await (const _ of instrumentTts(tts, (m) => metrics.push(m), clock.now).synthesize("Hello!")) {
      // drain
    }
    expect(metrics).toEqual([
      {
        stage: "tts",
        provider: "cartesia",
        model: "sonic-2",
        voice: "v1",
        ttfbMs: 120,
        durationMs: 150,
        audioMs: 1000,
        characters: 6,
        outcome: "ok",
      },
    ]);
  });

  it("marks a synthesis the consumer stopped early as cancelled", async () => {
    const tts: TtsProvider = {
      id: "local",
      model: "espeak-ng",
      voice: "en-us",
      async *synthesize() {
        for (;;) yield { pcm: new Int16Array(320), sampleRate: 16000 };
      },
    };
    const metrics: TtsRequestMetric[] = [];
    for await (const _ of instrumentTts(tts, (m) => metrics.push(m)).synthesize("x")) break;
    expect(metrics[0]?.outcome).toBe("cancelled");
  });
});
