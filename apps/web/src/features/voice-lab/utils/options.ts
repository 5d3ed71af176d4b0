export {
  firstIfMissing,
  type OptionItem,
  PROVIDER_REQUIRED,
  requireProvider,
} from "../../../lib/provider-options.ts";

import { providerDescriptor, TTS_CATALOG, type TtsProviderId, type VoicesResponse } from "@parley/contract";
import type { OptionItem } from "../../../lib/provider-options.ts";

export interface ProviderOptions {
  models: OptionItem[];
  voices: OptionItem[];
}

/**
 * The model and voice options of a provider: the server's answer, or — when that request failed —
 * the built-in catalog, so a sample can still be played with a known voice.
 */
export function providerOptions(provider: TtsProviderId, response: VoicesResponse | undefined): ProviderOptions {
  const catalog = TTS_CATALOG[provider];
  const models = response?.models ?? catalog.models;
  const voices = response?.voices ?? catalog.voices.map((v) => ({ ...v, isCustom: false }));
  return {
    models: models.map((m) => ({ value: m.value, label: m.label ?? m.value })),
    voices: voices.map((v) => ({ value: v.id, label: v.name, isCustom: v.isCustom })),
  };
}

/**
 * Whether a key turns the provider's built-in list into the account's own voices: not where every
 * account has the same voices, nor for the local voice, which needs no key at all.
 */
export const hasAccountVoices = (provider: TtsProviderId) => {
  const tts = providerDescriptor(provider)?.tts;
  return Boolean(tts?.needsKey && !tts.sharedVoices);
};
