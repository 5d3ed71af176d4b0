import { requireField } from "../shared/credentials.ts";
import { embeddingsProtocolEmbedder } from "../shared/embeddings-protocol.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { Embedder, EmbedderOptions } from "../vendor-adapters.ts";

/** A self-hosted server (Ollama, LM Studio, vLLM) at the workspace's base URL; a key only if it wants one. */
export function createEmbedder(options: EmbedderOptions): Embedder {
  const root = requireField("openai-compatible", options.credentials, "base_url");
  const key = options.credentials?.api_key?.trim();
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const url = withOrigin(joinUrl(root, "embeddings"), options.baseUrl);
  return embeddingsProtocolEmbedder("openai-compatible", url, headers, options);
}
