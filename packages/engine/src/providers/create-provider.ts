import { loadVendor } from "./load-vendor.ts";
import { ProviderError } from "./provider-error.ts";
import type { ProviderOptions, Stage, StageConfig, StageFactories, StageProvider } from "./vendor-adapters.ts";

/**
 * Builds the adapter of one stage ("llm", "stt" or "tts") for a vendor id, the key-free "local"
 * providers included, from the vendor's own folder. Fails with a non-retryable ProviderError for a
 * vendor that does not offer the stage or credentials it cannot work without.
 */
export async function createProvider<S extends Stage>(
  stage: S,
  id: string,
  options: ProviderOptions<StageConfig<S>>,
): Promise<StageProvider[S]> {
  const factories: Partial<StageFactories> | null = await loadVendor(id);
  const factory = factories?.[stage];
  if (!factory) throw new ProviderError(id, `"${id}" offers no ${STAGE_NAMES[stage]}.`, false);
  return factory(options);
}

const STAGE_NAMES: Record<Stage, string> = {
  llm: "language model",
  stt: "speech recognition",
  tts: "voices",
};
