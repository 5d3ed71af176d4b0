import { TTS_CATALOG } from "@parley/contract";
import { hasModelListing, listModels, listVoices } from "@parley/engine";
import type { LiveCatalogSource } from "./voice-lists.ts";

/** The live lists through the engine's vendor catalog, labelled from the built-in table when known. */
export const engineCatalogSource: LiveCatalogSource = {
  voices: (provider, credentials, net) => listVoices(provider, credentials, net),
  async models(provider, credentials, net) {
    if (!hasModelListing(provider, "tts")) return [];
    const labels = new Map(TTS_CATALOG[provider].models.map((m) => [m.value, m.label]));
    const ids = await listModels(provider, credentials, net, { kind: "tts" });
    return ids.map((value) => {
      const label = labels.get(value);
      return label ? { value, label } : { value };
    });
  },
};
