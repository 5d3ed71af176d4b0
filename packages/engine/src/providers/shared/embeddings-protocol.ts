import type { Embedder, EmbedderOptions } from "../vendor-adapters.ts";
import { batchedEmbedder, EMBED_TIMEOUT_MS } from "./batched-embedder.ts";
import { vendorJson } from "./vendor-request.ts";

interface EmbeddingsAnswer {
  data?: { index: number; embedding: number[] }[];
}

/** Vendors cap the inputs of one request; 96 stays under every cap we know. */
const BATCH = 96;

/** The `/embeddings` protocol of the chat-completions family: `{model, input[]}` in, `data[].embedding` out. */
export function embeddingsProtocolEmbedder(
  provider: string,
  url: string,
  headers: Record<string, string>,
  options: EmbedderOptions,
): Embedder {
  return batchedEmbedder(provider, options.model, BATCH, async (input, signal) => {
    const answer = await vendorJson<EmbeddingsAnswer>({
      provider,
      url,
      headers,
      json: { model: options.model, input },
      net: options.net,
      timeoutMs: EMBED_TIMEOUT_MS,
      ...(signal ? { signal } : {}),
    });
    return [...(answer.data ?? [])].sort((a, b) => a.index - b.index).map((row) => row.embedding);
  });
}
