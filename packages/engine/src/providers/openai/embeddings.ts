import { requireKey } from "../shared/credentials.ts";
import { embeddingsProtocolEmbedder } from "../shared/embeddings-protocol.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { Embedder, EmbedderOptions } from "../vendor-adapters.ts";

export function createEmbedder(root: string, options: EmbedderOptions): Embedder {
  const headers = { authorization: `Bearer ${requireKey("openai", options.credentials)}` };
  return embeddingsProtocolEmbedder(
    "openai",
    withOrigin(joinUrl(root, "embeddings"), options.baseUrl),
    headers,
    options,
  );
}
