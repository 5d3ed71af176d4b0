import {
  LLM_DEFAULT_CONFIG,
  type LlmProviderConfig,
  type LlmProviderId,
  type SttProviderId,
  sttDefaultConfig,
  TTS_DEFAULT_CONFIG,
  type TtsProviderConfig,
  type TtsProviderId,
} from "@parley/contract";

/**
 * Spec §4: changing a provider resets its model and configuration to that provider's defaults.
 * Each function returns the form values to set; copies, so editing never mutates the contract's table.
 */
export function llmProviderChange(provider: LlmProviderId): {
  llm_provider: LlmProviderId;
  llm_provider_config: LlmProviderConfig;
} {
  return { llm_provider: provider, llm_provider_config: { ...LLM_DEFAULT_CONFIG[provider] } };
}

export function sttProviderChange(provider: SttProviderId): {
  stt_provider: SttProviderId;
  stt_provider_config: Record<string, unknown>;
} {
  return { stt_provider: provider, stt_provider_config: { ...sttDefaultConfig(provider) } };
}

export function ttsProviderChange(provider: TtsProviderId): {
  tts_provider: TtsProviderId;
  tts_provider_config: TtsProviderConfig;
} {
  const defaults = TTS_DEFAULT_CONFIG[provider];
  return {
    tts_provider: provider,
    tts_provider_config: { ...defaults, ...(defaults.settings ? { settings: { ...defaults.settings } } : {}) },
  };
}
