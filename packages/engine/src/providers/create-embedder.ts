import { loadVendor } from "./load-vendor.ts";
import { ProviderError } from "./provider-error.ts";
import type { Embedder, EmbedderOptions } from "./vendor-adapters.ts";

/** Builds the embeddings adapter of a vendor that offers one (the contract's EMBEDDINGS_DESCRIPTORS). */
export async function createEmbedder(id: string, options: EmbedderOptions): Promise<Embedder> {
  const factory = (await loadVendor(id))?.embeddings;
  if (!factory) throw new ProviderError(id, `"${id}" offers no embeddings.`, false);
  return factory(options);
}
