import { afterEach, describe, expect, it } from "vitest";
import { ProviderError } from "../providers/provider-error.ts";
import { type MockServer, sendSse, startMockServer } from "../testing/llm-servers/mock-server.ts";
import { openAiTextStream } from "../testing/llm-servers/openai-script.ts";
import { createLlmProvider } from "./index.ts";

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const net = { fetch };

async function drain(iterable: AsyncIterable<unknown>) {
  for await (const _ of iterable) {
    // drain
  }
}

describe("createLlmProvider", () => {
  it("refuses a vendor without a key with a message that says where to add it", () => {
    const create = () => createLlmProvider("openai", { credentials: null, config: { model: "gpt-4o-mini" }, net });
    expect(create).toThrow(ProviderError);
    expect(create).toThrow("No API key for OpenAI. Add one on the Integrations page.");
    try {
      create();
    } catch (error) {
      expect((error as ProviderError).retryable).toBe(false);
    }
  });

  it("calls Azure at /openai/deployments/{deployment}/chat/completions with api-version and api-key", async () => {
    server = await startMockServer({
      "POST /openai/deployments/prod-4o/chat/completions": (_req, res) => sendSse(res, openAiTextStream(["ok"])),
    });
    const provider = createLlmProvider("azure-openai", {
      credentials: { api_key: "azure-key", endpoint: "https://myres.openai.azure.com/" },
      config: { model: "gpt-4o-mini", deployment: "prod-4o", api_version: "2024-10-21" },
      net,
      baseUrl: server.url,
    });
    await drain(provider.chat({ messages: [{ role: "user", content: "Hi" }] }));
    const request = server.requests[0];
    expect(request?.url).toBe("/openai/deployments/prod-4o/chat/completions?api-version=2024-10-21");
    expect(request?.headers["api-key"]).toBe("azure-key");
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.json()).not.toHaveProperty("model");
  });

  it.each([
    ["groq", "/openai/v1/chat/completions"],
    ["deepseek", "/chat/completions"],
    ["mistral", "/v1/chat/completions"],
    ["openrouter", "/api/v1/chat/completions"],
  ] as const)("sends %s requests to its documented path", async (id, path) => {
    server = await startMockServer({ [`POST ${path}`]: (_req, res) => sendSse(res, openAiTextStream(["ok"])) });
    const provider = createLlmProvider(id, {
      credentials: { api_key: "k" },
      config: { model: "m" },
      net,
      baseUrl: server.url,
    });
    await drain(provider.chat({ messages: [{ role: "user", content: "Hi" }] }));
    expect(server.requests[0]?.headers.authorization).toBe("Bearer k");
  });

  it("talks to a keyless OpenAI-compatible server at its configured base URL", async () => {
    server = await startMockServer({
      "POST /v1/chat/completions": (_req, res) => sendSse(res, openAiTextStream(["local"])),
    });
    const provider = createLlmProvider("openai-compatible", {
      credentials: null,
      config: { model: "llama3.2", base_url: `${server.url}/v1` },
      net,
    });
    const texts: string[] = [];
    for await (const chunk of provider.chat({ messages: [{ role: "user", content: "Hi" }] })) {
      if (chunk.type === "text") texts.push(chunk.text);
    }
    expect(texts).toEqual(["local"]);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});
