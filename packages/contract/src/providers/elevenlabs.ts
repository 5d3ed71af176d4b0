import { z } from "zod";
import { apiKeyCredentials } from "./credentials.ts";
import { m, type SettingFieldSpec, v } from "./editor-options.ts";
import { HOSTED_TTS, PIPELINE_AUDIO } from "./stage-presets.ts";
import { TtsProviderConfig } from "./tts-config.ts";
import type { ProviderDescriptor } from "./types.ts";

/** Voice settings (spec §9 defaults), sent with every synthesis request. */
export const ElevenLabsVoiceSettings = z.object({
  stability: z.number().min(0).max(1).default(0.5),
  similarity_boost: z.number().min(0).max(1).default(0.75),
  style: z.number().min(0).max(1).default(0),
  use_speaker_boost: z.boolean().default(true),
});

/** The same settings as the editor renders them; providers.test.ts checks they agree with the schema. */
const slider = (name: string, label: string, value: number): SettingFieldSpec => ({
  name,
  kind: "number",
  label,
  min: 0,
  max: 1,
  step: 0.05,
  default: value,
});
const SETTINGS: SettingFieldSpec[] = [
  slider("stability", "Stability", 0.5),
  slider("similarity_boost", "Similarity boost", 0.75),
  slider("style", "Style exaggeration", 0),
  { name: "use_speaker_boost", kind: "boolean", label: "Speaker boost", default: true },
];

/** Missing settings take their defaults, so a stored config always carries all four. */
export const ElevenLabsTtsConfig = TtsProviderConfig.extend({ settings: ElevenLabsVoiceSettings.prefault({}) });

export const elevenlabs = {
  id: "elevenlabs",
  label: "ElevenLabs",
  ...apiKeyCredentials("ELEVENLABS_API_KEY"),
  integrationKinds: ["tts"],
  tts: {
    config: ElevenLabsTtsConfig,
    defaults: {
      model: "eleven_flash_v2_5",
      voice: "21m00Tcm4TlvDq8ikWAM",
      ...PIPELINE_AUDIO,
      encoding: "pcm_16000",
      language: "en",
      settings: ElevenLabsVoiceSettings.parse({}),
    },
    models: [
      m("eleven_flash_v2_5", "Flash v2.5"),
      m("eleven_turbo_v2_5", "Turbo v2.5"),
      m("eleven_multilingual_v2", "Multilingual v2"),
    ],
    voices: [
      v("21m00Tcm4TlvDq8ikWAM", "Rachel"),
      v("EXAVITQu4vr4xnSDxMaL", "Sarah"),
      v("9BWtsMINqrJLrRacOk9x", "Aria"),
      v("FGY2WhTYpPnrIDTdsKH5", "Laura"),
      v("XB0fDUnXU5powFXDhCwa", "Charlotte"),
      v("XrExE9yKIg1WjnnlVkGX", "Matilda"),
      v("pFZP5JQG7iQjIQuC4Bku", "Lily"),
      v("pNInz6obpgDQGcFmaJgB", "Adam"),
      v("CwhRBWXzGAHq8TQ4Fs17", "Roger"),
      v("JBFqnCBsd6RMkjVDRZzb", "George"),
      v("TX3LPaxmHKxFdv7VOQHJ", "Liam"),
      v("nPczCjzI2devNBz1zQrb", "Brian"),
      v("onwK4e9ZLuTAKqWW03F9", "Daniel"),
      v("iP95p4xoKVk53GoZ742B", "Chris"),
    ],
    encodings: ["pcm_16000", "pcm_22050", "pcm_24000", "ulaw_8000", "mp3_44100_128"],
    price: {
      default: 0.03,
      models: { eleven_flash_v2_5: 0.03, eleven_turbo_v2_5: 0.03, eleven_multilingual_v2: 0.06 },
    },
    ...HOSTED_TTS,
    supportsClones: true,
    settings: SETTINGS,
  },
} as const satisfies ProviderDescriptor;
