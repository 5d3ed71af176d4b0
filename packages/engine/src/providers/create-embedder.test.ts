import { describe, expect, it } from "vitest";
import { createEmbedder } from "./create-embedder.ts";
import type { NetworkDeps } from "./types.ts";

/** A fetch that records each request and answers with the given body. */
function recordingNet(answer: (body: Record<string, unknown>) => unknown) {
  const seen: { url: string; headers: Headers; body: Record<string, unknown> }[] = [];
  const net: NetworkDeps = {
    fetch: async (input, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      seen.push({ url: String(input), headers: new Headers(init?.headers), body });
      return new Response(JSON.stringify(answer(body)), { headers: { "content-type": "application/json" } });
    },
  };
  return { net, seen };
}

describe("createEmbedder", () => {
  it("speaks the /embeddings protocol to a self-hosted server, in order, without a key", async () => {
    const { net, seen } = recordingNet((body) => ({
      data: (body.input as string[]).map((text, index) => ({ index, embedding: [text.length, index] })).reverse(),
    }));
    const embedder = await createEmbedder("openai-compatible", {
      credentials: { base_url: "http://127.0.0.1:11434/v1" },
      model: "nomic-embed-text",
      net,
    });
    expect(await embedder.embed(["a", "bbb"])).toEqual([
      [1, 0],
      [3, 1],
    ]);
    expect(seen[0]?.url).toBe("http://127.0.0.1:11434/v1/embeddings");
    expect(seen[0]?.headers.get("authorization")).toBeNull();
    expect(seen[0]?.body).toEqual({ model: "nomic-embed-text", input: ["a", "bbb"] });
  });

  it("sends Gemini a batch of requests with the key in its header", async () => {
    const { net, seen } = recordingNet((body) => ({
      embeddings: (body.requests as unknown[]).map((_, i) => ({ values: [i] })),
    }));
    const embedder = await createEmbedder("google", {
      credentials: { api_key: "g-key" },
      model: "text-embedding-004",
      net,
      baseUrl: "http://127.0.0.1:9",
    });
    expect(await embedder.embed(["x", "y"])).toEqual([[0], [1]]);
    expect(seen[0]?.url).toBe("http://127.0.0.1:9/v1beta/models/text-embedding-004:batchEmbedContents");
    expect(seen[0]?.headers.get("x-goog-api-key")).toBe("g-key");
  });

  it("refuses a vendor without embeddings and a missing key", async () => {
    const { net } = recordingNet(() => ({}));
    await expect(createEmbedder("deepgram", { credentials: null, model: "m", net })).rejects.toThrow(
      /offers no embeddings/,
    );
    await expect(createEmbedder("openai", { credentials: null, model: "text-embedding-3-small", net })).rejects.toThrow(
      /API key/,
    );
  });
});
