import { TTS_CATALOG } from "@parley/contract";
import { hasModelListing, listModels, listVoices } from "@parley/engine";
import { withLabels } from "./builtin.ts";
import type { LiveCatalogSource } from "./voice-lists.ts";

/** The live lists through the engine's vendor catalog, labelled from the built-in table when known. */
export const engineCatalogSource: LiveCatalogSource = {
  voices: (provider, credentials, net) => listVoices(provider, credentials, net),
  async models(provider, credentials, net) {
    if (!(await hasModelListing(provider, "tts"))) return [];
    return withLabels(await listModels(provider, credentials, net, { kind: "tts" }), TTS_CATALOG[provider].models);
  },
};
