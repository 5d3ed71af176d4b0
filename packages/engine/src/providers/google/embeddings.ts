import { requireKey } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { Embedder, EmbedderOptions } from "../vendor-adapters.ts";

interface BatchAnswer {
  embeddings?: { values: number[] }[];
}

/** Gemini's batch call takes at most 100 requests. */
const BATCH = 100;

export function createEmbedder(root: string, options: EmbedderOptions): Embedder {
  const headers = { "x-goog-api-key": requireKey("google", options.credentials) };
  const name = `models/${options.model}`;
  const url = withOrigin(joinUrl(root, `v1beta/${name}:batchEmbedContents`), options.baseUrl);
  return {
    provider: "google",
    model: options.model,
    async embed(texts, signal) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += BATCH) {
        const input = texts.slice(start, start + BATCH);
        const answer = await vendorJson<BatchAnswer>({
          provider: "google",
          url,
          headers,
          json: { requests: input.map((text) => ({ model: name, content: { parts: [{ text }] } })) },
          net: options.net,
          timeoutMs: 60_000,
          ...(signal ? { signal } : {}),
        });
        const rows = answer.embeddings ?? [];
        if (rows.length !== input.length)
          throw new Error(`google returned ${rows.length} embeddings for ${input.length} texts.`);
        vectors.push(...rows.map((row) => row.values));
      }
      return vectors;
    },
  };
}
