import { afterEach, describe, expect, it } from "vitest";
import { geminiStream } from "../../../testing/llm-servers/gemini-script.ts";
import { type MockServer, sendSse, startMockServer } from "../../../testing/llm-servers/mock-server.ts";
import { createProvider } from "../create-provider.ts";
import type { LlmChunk } from "../types.ts";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const path = "POST /v1beta/models/gemini-2.5-flash:streamGenerateContent";

async function gemini(baseUrl: string) {
  return createProvider("llm", "google", {
    credentials: { api_key: "AIza-test" },
    config: { model: "gemini-2.5-flash" },
    net: { fetch },
    baseUrl,
  });
}

describe("Gemini streamGenerateContent", () => {
  it("streams text and turns functionCall parts into tool calls with generated ids", async () => {
    server = await startMockServer({
      [path]: (_req, res) =>
        sendSse(res, geminiStream(["Checking", " now."], [{ name: "lookup_order", args: { order: "A-17" } }])),
    });
    const chunks: LlmChunk[] = [];
    for await (const chunk of (await gemini(server.url)).chat({
      messages: [
        { role: "system", content: "You are a shop assistant." },
        { role: "user", content: "Where is order A-17?" },
      ],
      tools: [
        {
          name: "lookup_order",
          description: "Find an order",
          parameters: {
            $schema: "http://json-schema.org/draft-07/schema#",
            type: "object",
            additionalProperties: false,
            properties: { order: { type: "string" } },
            required: ["order"],
          },
        },
      ],
      temperature: 0.2,
      maxTokens: 200,
    })) {
      chunks.push(chunk);
    }
    expect(chunks.slice(0, 2)).toEqual([
      { type: "text", text: "Checking" },
      { type: "text", text: " now." },
    ]);
    const call = chunks[2];
    expect(call).toMatchObject({ type: "tool_call", call: { name: "lookup_order", arguments: '{"order":"A-17"}' } });
    expect(call?.type === "tool_call" && call.call.id).toMatch(/^call_\w+/);
    expect(chunks.at(-1)).toEqual({ type: "usage", inputTokens: 9, outputTokens: 4 });

    const request = server.requests[0];
    expect(request?.query.get("alt")).toBe("sse");
    expect(request?.headers["x-goog-api-key"]).toBe("AIza-test");
    expect(request?.json()).toEqual({
      systemInstruction: { parts: [{ text: "You are a shop assistant." }] },
      contents: [{ role: "user", parts: [{ text: "Where is order A-17?" }] }],
      generationConfig: { temperature: 0.2, maxOutputTokens: 200 },
      tools: [
        {
          functionDeclarations: [
            {
              name: "lookup_order",
              description: "Find an order",
              parameters: { type: "object", properties: { order: { type: "string" } }, required: ["order"] },
            },
          ],
        },
      ],
    });
  });

  it("sends the call back as a model functionCall and the result as a functionResponse, keeping its signature", async () => {
    server = await startMockServer({
      [path]: (_req, res) => sendSse(res, geminiStream([], [{ name: "now", args: {}, thoughtSignature: "sig-1" }])),
    });
    const provider = await gemini(server.url);
    let callId = "";
    for await (const chunk of provider.chat({ messages: [{ role: "user", content: "Time?" }] })) {
      if (chunk.type === "tool_call") callId = chunk.call.id;
    }
    server.requests.length = 0;
    for await (const _ of provider.chat({
      messages: [
        { role: "user", content: "Time?" },
        { role: "assistant", content: "", toolCalls: [{ id: callId, name: "now", arguments: "{}" }] },
        { role: "tool", toolCallId: callId, name: "now", content: "10:42" },
      ],
    })) {
      // drain
    }
    expect(server.requests[0]?.json<{ contents: unknown[] }>().contents.slice(1)).toEqual([
      { role: "model", parts: [{ functionCall: { name: "now", args: {} }, thoughtSignature: "sig-1" }] },
      { role: "user", parts: [{ functionResponse: { name: "now", response: { result: "10:42" } } }] },
    ]);
  });
});
