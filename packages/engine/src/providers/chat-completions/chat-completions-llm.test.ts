import { afterEach, describe, expect, it } from "vitest";
import { type MockServer, sendJson, sendSse, startMockServer } from "../../../testing/llm-servers/mock-server.ts";
import { openAiTextStream, openAiToolCallStream } from "../../../testing/llm-servers/openai-script.ts";
import { createProvider } from "../create-provider.ts";
import { ProviderError } from "../provider-error.ts";
import type { LlmChunk, LlmProvider } from "../types.ts";

const net = { fetch };
let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function collect(provider: LlmProvider, signal?: AbortSignal): Promise<LlmChunk[]> {
  const out: LlmChunk[] = [];
  for await (const chunk of provider.chat({ messages: [{ role: "user", content: "Hi" }], signal })) out.push(chunk);
  return out;
}

async function openai(baseUrl: string, timeouts?: { firstEventMs?: number; idleMs?: number }) {
  return createProvider("llm", "openai", {
    credentials: { api_key: "sk-test" },
    config: { model: "gpt-4o-mini" },
    net,
    baseUrl,
    timeouts,
  });
}

describe("OpenAI-compatible chat streaming", () => {
  it("streams text, then usage, and sends the Chat Completions request", async () => {
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) => sendSse(res, openAiTextStream(["Hel", "lo", " there"])),
    });
    const chunks = await collect(await openai(server.url));
    expect(chunks).toEqual([
      { type: "text", text: "Hel" },
      { type: "text", text: "lo" },
      { type: "text", text: " there" },
      { type: "usage", inputTokens: 12, outputTokens: 7 },
    ]);
    const request = server.requests[0];
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(request?.json()).toMatchObject({
      model: "gpt-4o-mini",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "Hi" }],
    });
  });

  it("rebuilds two parallel tool calls whose arguments arrive in many fragments", async () => {
    const calls = [
      { id: "call_weather", name: "get_weather", arguments: '{"city":"Paris","unit":"celsius"}' },
      { id: "call_time", name: "get_time", arguments: '{"timezone":"Europe/Paris"}' },
    ];
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) => sendSse(res, openAiToolCallStream(calls, 3)),
    });
    const provider = await openai(server.url);
    const chunks: LlmChunk[] = [];
    const tools = [{ name: "get_weather", description: "Weather", parameters: { type: "object", properties: {} } }];
    for await (const chunk of provider.chat({ messages: [{ role: "user", content: "Weather?" }], tools })) {
      chunks.push(chunk);
    }
    expect(chunks.filter((c) => c.type === "tool_call")).toEqual(calls.map((call) => ({ type: "tool_call", call })));
    expect(chunks.at(-1)).toEqual({ type: "usage", inputTokens: 30, outputTokens: 20 });
    expect(server.requests[0]?.json()).toMatchObject({
      tool_choice: "auto",
      tools: [{ type: "function", function: { name: "get_weather", description: "Weather" } }],
    });
  });

  it("completes pending tool calls when a local server ends the stream without finish_reason or [DONE]", async () => {
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) =>
        sendSse(res, [
          {
            choices: [
              { index: 0, delta: { tool_calls: [{ index: 0, function: { name: "end_call", arguments: "" } }] } },
            ],
          },
          { choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "{}" } }] } }] },
        ]),
    });
    const chunks = await collect(
      await createProvider("llm", "openai-compatible", {
        credentials: null,
        config: { model: "llama3.2", base_url: `${server.url}/v1` },
        net,
      }),
    );
    expect(chunks).toEqual([
      { type: "tool_call", call: { id: expect.stringMatching(/^call_/), name: "end_call", arguments: "{}" } },
    ]);
  });

  it("sends tool results back in the tool message format", async () => {
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) => sendSse(res, openAiTextStream(["Sunny."])),
    });
    const call = { id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' };
    const provider = await openai(server.url);
    for await (const _ of provider.chat({
      messages: [
        { role: "user", content: "Weather?" },
        { role: "assistant", content: "", toolCalls: [call] },
        { role: "tool", toolCallId: "call_1", name: "get_weather", content: '{"sky":"clear"}' },
      ],
    })) {
      // drain
    }
    expect(server.requests[0]?.json<{ messages: unknown[] }>().messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: '{"sky":"clear"}' },
    ]);
  });

  it("reports a 401 as a non-retryable ProviderError with the vendor's message", async () => {
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) =>
        sendJson(res, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error" } }),
    });
    const error = await collect(await openai(server.url)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: false, status: 401 });
    expect((error as Error).message).toContain("Incorrect API key provided");
  });

  it("reports a 503 as retryable", async () => {
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) => sendJson(res, 503, { error: { message: "overloaded" } }),
    });
    await expect(collect(await openai(server.url))).rejects.toMatchObject({ retryable: true, status: 503 });
  });

  it("stops the HTTP request when the caller aborts mid-stream", async () => {
    let closed = false;
    server = await startMockServer({
      "POST /v1/chat/completions": async (_req, res) => {
        res.on("close", () => {
          closed = true;
        });
        await sendSse(res, openAiTextStream(Array.from({ length: 50 }, (_, i) => `w${i} `)), { delayMs: 20 });
      },
    });
    const controller = new AbortController();
    const seen: LlmChunk[] = [];
    const run = (async () => {
      for await (const chunk of (await openai(server.url)).chat({
        messages: [{ role: "user", content: "Hi" }],
        signal: controller.signal,
      })) {
        seen.push(chunk);
        if (seen.length === 3) controller.abort();
      }
    })();
    await expect(run).rejects.toThrow();
    expect(seen).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });

  it("bounds the time to the first token with a retryable timeout", async () => {
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        // headers only, never a token
      },
    });
    const error = await collect(await openai(server.url, { firstEventMs: 100 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: true });
    expect((error as Error).message).toMatch(/within 100 ms/);
  });

  it("bounds a stall in the middle of the stream", async () => {
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "Hi" } }] })}\n\n`);
      },
    });
    const chunks: LlmChunk[] = [];
    const run = (async () => {
      for await (const chunk of (await openai(server.url, { idleMs: 100 })).chat({
        messages: [{ role: "user", content: "x" }],
      })) {
        chunks.push(chunk);
      }
    })();
    await expect(run).rejects.toMatchObject({ retryable: true, message: expect.stringMatching(/stalled/) });
    expect(chunks).toEqual([{ type: "text", text: "Hi" }]);
  });
});

describe("OpenAI-compatible stream pacing", () => {
  it("does not count a slow consumer as a stalled vendor", async () => {
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) => sendSse(res, openAiTextStream(["a", "b", "c"]), { delayMs: 5 }),
    });
    const texts: string[] = [];
    for await (const chunk of (await openai(server.url, { idleMs: 50 })).chat({
      messages: [{ role: "user", content: "x" }],
    })) {
      if (chunk.type === "text") texts.push(chunk.text);
      await new Promise((resolve) => setTimeout(resolve, 120)); // e.g. waiting for TTS
    }
    expect(texts).toEqual(["a", "b", "c"]);
  });
});
