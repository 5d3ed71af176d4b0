import { batchedEmbedder, EMBED_TIMEOUT_MS } from "../shared/batched-embedder.ts";
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
  return batchedEmbedder("google", options.model, BATCH, async (input, signal) => {
    const answer = await vendorJson<BatchAnswer>({
      provider: "google",
      url,
      headers,
      json: { requests: input.map((text) => ({ model: name, content: { parts: [{ text }] } })) },
      net: options.net,
      timeoutMs: EMBED_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    });
    return (answer.embeddings ?? []).map((row) => row.values);
  });
}
