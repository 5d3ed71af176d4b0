import { afterEach, describe, expect, it } from "vitest";
import { anthropicStream } from "../../../testing/llm-servers/anthropic-script.ts";
import { type MockServer, sendJson, sendSse, startMockServer } from "../../../testing/llm-servers/mock-server.ts";
import { createProvider } from "../create-provider.ts";
import type { LlmChunk } from "../types.ts";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function claude(baseUrl: string) {
  return createProvider("llm", "anthropic", {
    credentials: { api_key: "sk-ant-test" },
    config: { model: "claude-sonnet-4-5" },
    net: { fetch },
    baseUrl,
  });
}

describe("Anthropic Messages streaming", () => {
  it("streams text and a tool_use block rebuilt from input_json_delta fragments", async () => {
    const json = '{"city":"Lisbon","days":3}';
    server = await startMockServer({
      "POST /v1/messages": (_req, res) =>
        sendSse(
          res,
          anthropicStream(["Let me ", "check."], { id: "toolu_01", name: "forecast", json, pieceLength: 4 }),
        ),
    });
    const chunks: LlmChunk[] = [];
    for await (const chunk of (await claude(server.url)).chat({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Lisbon?" },
      ],
      tools: [{ name: "forecast", description: "Forecast", parameters: { type: "object" } }],
      temperature: 0.7,
      maxTokens: 300,
    })) {
      chunks.push(chunk);
    }
    expect(chunks).toEqual([
      { type: "text", text: "Let me " },
      { type: "text", text: "check." },
      { type: "tool_call", call: { id: "toolu_01", name: "forecast", arguments: json } },
      { type: "usage", inputTokens: 25, outputTokens: 15 },
    ]);
    const request = server.requests[0];
    expect(request?.headers["x-api-key"]).toBe("sk-ant-test");
    expect(request?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request?.json()).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 300,
      stream: true,
      system: "Be brief.",
      temperature: 0.7,
      messages: [{ role: "user", content: [{ type: "text", text: "Weather in Lisbon?" }] }],
      tools: [{ name: "forecast", description: "Forecast", input_schema: { type: "object" } }],
    });
  });

  it("sends tool results as tool_result blocks in one user message", async () => {
    server = await startMockServer({ "POST /v1/messages": (_req, res) => sendSse(res, anthropicStream(["Done."])) });
    for await (const _ of (await claude(server.url)).chat({
      messages: [
        { role: "user", content: "Two things" },
        {
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "toolu_a", name: "a", arguments: '{"x":1}' },
            { id: "toolu_b", name: "b", arguments: "" },
          ],
        },
        { role: "tool", toolCallId: "toolu_a", name: "a", content: "one" },
        { role: "tool", toolCallId: "toolu_b", name: "b", content: "two" },
      ],
    })) {
      // drain
    }
    expect(server.requests[0]?.json<{ messages: unknown[] }>().messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_a", name: "a", input: { x: 1 } },
          { type: "tool_use", id: "toolu_b", name: "b", input: {} },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_a", content: "one" },
          { type: "tool_result", tool_use_id: "toolu_b", content: "two" },
        ],
      },
    ]);
  });

  it("turns an overloaded error inside the stream into a retryable ProviderError", async () => {
    server = await startMockServer({
      "POST /v1/messages": (_req, res) =>
        sendSse(res, [
          { event: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
        ]),
    });
    const run = async () => {
      for await (const _ of (await claude(server?.url ?? "")).chat({ messages: [{ role: "user", content: "Hi" }] })) {
        // drain
      }
    };
    await expect(run()).rejects.toMatchObject({ retryable: true, message: expect.stringContaining("Overloaded") });
  });

  it("reports an invalid key as non-retryable", async () => {
    server = await startMockServer({
      "POST /v1/messages": (_req, res) =>
        sendJson(res, 401, { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }),
    });
    const run = async () => {
      for await (const _ of (await claude(server?.url ?? "")).chat({ messages: [{ role: "user", content: "Hi" }] })) {
        // drain
      }
    };
    await expect(run()).rejects.toMatchObject({ retryable: false, status: 401 });
  });
});
