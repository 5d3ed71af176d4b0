import type { Embedder } from "../vendor-adapters.ts";

/** One request of an embeddings vendor: the texts of a batch in, one vector per text out. */
export type EmbedBatch = (input: string[], signal: AbortSignal | undefined) => Promise<number[][]>;

/** How long one embeddings request may take: a batch of long texts is slow. */
export const EMBED_TIMEOUT_MS = 60_000;

/**
 * An embedder that sends the texts `batchSize` at a time (vendors cap the inputs of one request)
 * and refuses an answer that does not hold one vector per text.
 */
export function batchedEmbedder(provider: string, model: string, batchSize: number, embedBatch: EmbedBatch): Embedder {
  return {
    provider,
    model,
    async embed(texts, signal) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const input = texts.slice(start, start + batchSize);
        const batch = await embedBatch(input, signal);
        if (batch.length !== input.length)
          throw new Error(`${provider} returned ${batch.length} embeddings for ${input.length} texts.`);
        vectors.push(...batch);
      }
      return vectors;
    },
  };
}
