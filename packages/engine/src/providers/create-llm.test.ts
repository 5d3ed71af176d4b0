import { afterEach, describe, expect, it } from "vitest";
import { type MockServer, sendSse, startMockServer } from "../../testing/llm-servers/mock-server.ts";
import { openAiTextStream } from "../../testing/llm-servers/openai-script.ts";
import { createProvider } from "./create-provider.ts";
import { ProviderError } from "./provider-error.ts";

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

describe('createProvider("llm")', () => {
  it("refuses a vendor without a key with a message that says where to add it", async () => {
    const create = () => createProvider("llm", "openai", { credentials: null, config: { model: "gpt-4o-mini" }, net });
    await expect(create()).rejects.toThrow(ProviderError);
    await expect(create()).rejects.toHaveProperty(
      "message",
      "openai: No API key for OpenAI. Add one on the Integrations page.",
    );
    await expect(create()).rejects.toMatchObject({ retryable: false });
  });

  it("calls Azure at /openai/deployments/{deployment}/chat/completions with api-version and api-key", async () => {
    server = await startMockServer({
      "POST /openai/deployments/prod-4o/chat/completions": (_req, res) => sendSse(res, openAiTextStream(["ok"])),
    });
    const provider = await createProvider("llm", "azure-openai", {
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
    const provider = await createProvider("llm", id, {
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
    const provider = await createProvider("llm", "openai-compatible", {
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
