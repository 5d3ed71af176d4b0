import { TTS_DEFAULT_CONFIG, TTS_PREVIEW_TEXT, type TtsAudioBody, type TtsProviderId } from "@parley/contract";

export const SPEED_MIN = 0.25;
export const SPEED_MAX = 4;
export const TEXT_MAX = 500;

/** What the synthesis panel sends to POST /tts/audio, minus the workspace. */
export interface SynthesisSettings {
  provider: TtsProviderId;
  model: string;
  voice: string;
  speed: number;
  text: string;
}

/** A provider's default model and voice (spec §9), normal speed and the preview sentence. */
export function initialSettings(provider: TtsProviderId): SynthesisSettings {
  const defaults = TTS_DEFAULT_CONFIG[provider];
  return { provider, model: defaults.model, voice: defaults.voice, speed: 1, text: TTS_PREVIEW_TEXT };
}

/** Changing provider resets model and voice to that provider's defaults (as in the assistant editor). */
export function withProvider(settings: SynthesisSettings, provider: TtsProviderId): SynthesisSettings {
  if (provider === settings.provider) return settings;
  const defaults = TTS_DEFAULT_CONFIG[provider];
  return { ...settings, provider, model: defaults.model, voice: defaults.voice };
}

/** Selects one voice of a provider to listen to (a clone's "try it" action). */
export function withVoice(settings: SynthesisSettings, provider: TtsProviderId, voice: string): SynthesisSettings {
  return { ...withProvider(settings, provider), voice };
}

/** The preview request: an empty text falls back to the server's preview sentence. */
export function previewRequest(settings: SynthesisSettings): Omit<TtsAudioBody, "workspace_id"> {
  const text = settings.text.trim().slice(0, TEXT_MAX);
  const speed = Math.min(SPEED_MAX, Math.max(SPEED_MIN, settings.speed));
  return {
    provider: settings.provider,
    model: settings.model,
    voice: settings.voice,
    speed,
    ...(text ? { text } : {}),
  };
}
