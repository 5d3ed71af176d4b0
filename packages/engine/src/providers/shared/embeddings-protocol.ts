import type { Embedder, EmbedderOptions } from "../vendor-adapters.ts";
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
  return {
    provider,
    model: options.model,
    async embed(texts, signal) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += BATCH) {
        const input = texts.slice(start, start + BATCH);
        const answer = await vendorJson<EmbeddingsAnswer>({
          provider,
          url,
          headers,
          json: { model: options.model, input },
          net: options.net,
          timeoutMs: 60_000,
          ...(signal ? { signal } : {}),
        });
        const rows = [...(answer.data ?? [])].sort((a, b) => a.index - b.index);
        if (rows.length !== input.length)
          throw new Error(`${provider} returned ${rows.length} embeddings for ${input.length} texts.`);
        vectors.push(...rows.map((row) => row.embedding));
      }
      return vectors;
    },
  };
}
