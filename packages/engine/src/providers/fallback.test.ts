import { afterEach, describe, expect, it } from "vitest";
import { type MockServer, sendJson, sendSse, startMockServer } from "../../testing/llm-servers/mock-server.ts";
import { openAiTextStream } from "../../testing/llm-servers/openai-script.ts";
import { createProvider } from "./create-provider.ts";
import { FallbackLlm, type FallbackSwitch, FallbackTts } from "./fallback.ts";
import { ProviderError } from "./provider-error.ts";
import { TtsBase } from "./stage-bases.ts";
import type { AudioChunk, LlmProvider, TtsProvider } from "./types.ts";

/** Retries are the providers' own (their stage base); these tests make them quick. */
const fast = { attempts: 2, baseDelayMs: 1 };
const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function text(provider: LlmProvider): Promise<string> {
  let out = "";
  for await (const chunk of provider.chat({ messages: [{ role: "user", content: "Hi" }] })) {
    if (chunk.type === "text") out += chunk.text;
  }
  return out;
}

async function vendor(id: "openai" | "groq", behaviour: (turn: number) => "ok" | "503" | "drop" | "partial") {
  let turn = 0;
  const path = id === "openai" ? "/v1/chat/completions" : "/openai/v1/chat/completions";
  const server = await startMockServer({
    [`POST ${path}`]: (_req, res) => {
      const mode = behaviour(++turn);
      if (mode === "503") return sendJson(res, 503, { error: { message: "busy" } });
      const events = openAiTextStream([`${id} `, "answers"]);
      if (mode === "drop") return sendSse(res, events, { dropAfter: 0 });
      if (mode === "partial") return sendSse(res, events, { dropAfter: 3, delayMs: 10 });
      return sendSse(res, events);
    },
  });
  servers.push(server);
  const llm = await createProvider("llm", id, {
    credentials: { api_key: "k" },
    config: { model: "m" },
    net: { fetch },
    baseUrl: server.url,
  });
  return { llm, server };
}

describe("FallbackLlm", () => {
  it("re-issues the request to the second provider when the first answers 503 before any output", async () => {
    const first = await vendor("openai", () => "503");
    const second = await vendor("groq", () => "ok");
    const switches: FallbackSwitch[] = [];
    const llm = new FallbackLlm([first.llm, second.llm], (s) => switches.push(s));
    expect(await text(llm)).toBe("groq answers");
    expect(first.server.requests).toHaveLength(2); // retried once, then moved on
    expect(switches).toHaveLength(1);
    expect(switches[0]).toMatchObject({ stage: "llm", from: "openai", to: "groq" });
    expect(switches[0]?.error).toBeInstanceOf(ProviderError);
  });

  it("moves on at once after a non-retryable failure", async () => {
    const first = await vendor("openai", () => "ok");
    const second = await vendor("groq", () => "ok");
    const broken: LlmProvider = {
      id: "anthropic",
      model: "claude",
      // biome-ignore lint/correctness/useYield: fails before producing anything
      async *chat() {
        throw new ProviderError("anthropic", "HTTP 401: invalid key", false, 401);
      },
    };
    const switches: FallbackSwitch[] = [];
    const llm = new FallbackLlm([broken, first.llm, second.llm], (s) => switches.push(s));
    expect(await text(llm)).toBe("openai answers");
    expect(switches.map((s) => `${s.from}>${s.to}`)).toEqual(["anthropic>openai"]);
  });

  it("switches mid-call when the first provider's connection drops on a later turn", async () => {
    const first = await vendor("openai", (turn) => (turn === 1 ? "ok" : "drop"));
    const second = await vendor("groq", () => "ok");
    const switches: FallbackSwitch[] = [];
    const llm = new FallbackLlm([first.llm, second.llm], (s) => switches.push(s));
    expect(await text(llm)).toBe("openai answers");
    expect(await text(llm)).toBe("groq answers");
    expect(switches).toEqual([expect.objectContaining({ from: "openai", to: "groq" })]);
    expect(llm.id).toBe("groq");
    // The failed provider is passed over for the next turns instead of costing a timeout each time.
    expect(await text(llm)).toBe("groq answers");
    expect(first.server.requests).toHaveLength(3);
  });

  it("does not repeat an answer that already started: the error surfaces, the next turn uses the next provider", async () => {
    const first = await vendor("openai", () => "partial");
    const second = await vendor("groq", () => "ok");
    const llm = new FallbackLlm([first.llm, second.llm], undefined);
    await expect(text(llm)).rejects.toMatchObject({ retryable: true });
    expect(await text(llm)).toBe("groq answers");
  });

  it("throws the last error when every provider fails", async () => {
    const first = await vendor("openai", () => "503");
    const second = await vendor("groq", () => "503");
    const llm = new FallbackLlm([first.llm, second.llm], undefined);
    await expect(text(llm)).rejects.toMatchObject({ provider: "groq", status: 503 });
  });
});

class FakeTts extends TtsBase {
  readonly model: string;
  readonly voice: string;
  calls = 0;

  constructor(
    readonly id: string,
    private readonly behaviour: () => "ok" | "fail-before" | "fail-after",
  ) {
    super();
    this.model = `${id}-model`;
    this.voice = `${id}-voice`;
    this.retry = fast;
  }

  protected async *run(): AsyncIterable<AudioChunk> {
    this.calls++;
    const mode = this.behaviour();
    if (mode === "fail-before") throw new ProviderError(this.id, "socket closed", true);
    yield { pcm: new Int16Array(160).fill(this.id.length), sampleRate: 16000 };
    if (mode === "fail-after") throw new ProviderError(this.id, "socket closed", true);
    yield { pcm: new Int16Array(160).fill(this.id.length), sampleRate: 16000 };
  }
}

const fakeTts = (id: string, behaviour: () => "ok" | "fail-before" | "fail-after") => new FakeTts(id, behaviour);

async function audio(tts: TtsProvider): Promise<AudioChunk[]> {
  const out: AudioChunk[] = [];
  for await (const chunk of tts.synthesize("Hello there.")) out.push(chunk);
  return out;
}

describe("FallbackTts", () => {
  it("sends the sentence to the next voice when the first fails before any audio", async () => {
    const first = fakeTts("cartesia", () => "fail-before");
    const second = fakeTts("elevenlabs", () => "ok");
    const switches: FallbackSwitch[] = [];
    const tts = new FallbackTts([first, second], (s) => switches.push(s));
    const chunks = await audio(tts);
    expect(chunks).toHaveLength(2);
    expect(chunks[0]?.pcm[0]).toBe("elevenlabs".length);
    expect(first.calls).toBe(2);
    expect(switches).toEqual([expect.objectContaining({ stage: "tts", from: "cartesia", to: "elevenlabs" })]);
    expect(tts.voice).toBe("elevenlabs-voice");
  });

  it("switches mid-call: a voice that starts failing on a later sentence hands over to the next", async () => {
    let sentence = 0;
    const first = fakeTts("cartesia", () => (++sentence === 1 ? "ok" : "fail-before"));
    const second = fakeTts("elevenlabs", () => "ok");
    const switches: FallbackSwitch[] = [];
    const tts = new FallbackTts([first, second], (s) => switches.push(s));
    expect((await audio(tts))[0]?.pcm[0]).toBe("cartesia".length);
    expect((await audio(tts))[0]?.pcm[0]).toBe("elevenlabs".length);
    expect(switches).toHaveLength(1);
  });

  it("stops the provider's stream when the consumer stops early (barge-in)", async () => {
    let closed = false;
    const slow: TtsProvider = {
      id: "rime-ai",
      model: "mistv2",
      voice: "cove",
      async *synthesize() {
        try {
          for (;;) yield { pcm: new Int16Array(160), sampleRate: 16000 };
        } finally {
          closed = true;
        }
      },
    };
    const tts = new FallbackTts([slow], undefined);
    for await (const _ of tts.synthesize("Long text")) break;
    expect(closed).toBe(true);
  });
});
