import type { TtsProviderConfig } from "@parley/contract";
import { httpTts } from "../shared/http-tts.ts";
import { vendorUrl } from "../shared/vendor-url.ts";

const PCM_RATES = [8_000, 16_000, 22_050, 24_000, 44_100, 48_000];

/** The `pcm_<rate>` output format: the configured one, or the nearest to the configured sample rate. */
export function elevenLabsOutputFormat(config: TtsProviderConfig): { format: string; sampleRate: number } {
  const explicit = /^pcm_(\d+)$/.exec(config.encoding ?? "");
  const wanted = explicit ? Number(explicit[1]) : config.sampleRate;
  const sampleRate = PCM_RATES.reduce((best, rate) =>
    Math.abs(rate - wanted) < Math.abs(best - wanted) ? rate : best,
  );
  return { format: `pcm_${sampleRate}`, sampleRate };
}

/** The voice_settings of the assistant's `settings`, with ElevenLabs' defaults for what is missing. */
export function elevenLabsVoiceSettings(config: TtsProviderConfig): Record<string, number | boolean> {
  const settings = config.settings ?? {};
  const number = (key: string, fallback: number) => (typeof settings[key] === "number" ? settings[key] : fallback);
  return {
    stability: number("stability", 0.5),
    similarity_boost: number("similarity_boost", 0.75),
    style: number("style", 0),
    use_speaker_boost: typeof settings.use_speaker_boost === "boolean" ? settings.use_speaker_boost : true,
    speed: config.speed,
  };
}

/** ElevenLabs speech through `POST /v1/text-to-speech/{voice}/stream`, streamed as raw PCM. */
export const ElevenLabsTts = httpTts("elevenlabs", "ElevenLabs", (text, { config, apiKey, baseUrl }) => {
  const { format, sampleRate } = elevenLabsOutputFormat(config);
  const url = vendorUrl(
    "https://api.elevenlabs.io",
    `/v1/text-to-speech/${encodeURIComponent(config.voice)}/stream`,
    baseUrl,
  );
  url.searchParams.set("output_format", format);
  // Only the v2.5 Flash and Turbo models accept a language code; the others reject the request.
  const language = config.language && /(flash|turbo)_v2_5/.test(config.model) ? { language_code: config.language } : {};
  return {
    url: url.toString(),
    headers: { "xi-api-key": apiKey, accept: "audio/pcm" },
    json: { text, model_id: config.model, voice_settings: elevenLabsVoiceSettings(config), ...language },
    sampleRate,
  };
});
