import { TTS_CATALOG, type TtsProviderId, type VoicesResponse } from "@parley/contract";

/** An entry of a model or voice list fetched for a provider. */
export interface OptionItem {
  value: string;
  label: string;
  /** A voice clone of this workspace (the server merges them into the ElevenLabs and Cartesia lists). */
  isCustom?: boolean;
}

export const PROVIDER_REQUIRED = "Provider is required to fetch voices and models.";

/** Spec §5: voices and models can only be loaded for a named provider. */
export function requireProvider(provider: string | undefined | null): string {
  const trimmed = provider?.trim();
  if (!trimmed) throw new Error(PROVIDER_REQUIRED);
  return trimmed;
}

/**
 * Spec §4: when fetched options do not contain the current value, the first option is selected.
 * Returns the value to switch to, or null when nothing needs to change (or there is nothing to pick).
 */
export function firstIfMissing(current: string | undefined, options: readonly OptionItem[]): string | null {
  const first = options[0];
  if (!first) return null;
  return options.some((o) => o.value === current) ? null : first.value;
}

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
 * Whether a key turns the provider's built-in list into the account's own voices. OpenAI's voices
 * are the same for every account, and the local voice needs no key at all.
 */
export const hasAccountVoices = (provider: TtsProviderId) => TTS_CATALOG[provider].needsKey && provider !== "openai";
