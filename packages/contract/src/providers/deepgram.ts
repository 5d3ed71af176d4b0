import { z } from "zod";
import { apiKeyCredentials } from "./credentials.ts";
import { languages, m, v } from "./editor-options.ts";
import { HOSTED_STT, HOSTED_TTS, PIPELINE_AUDIO } from "./stage-presets.ts";
import { sttBaseShape, sttSampleRate, sttWords } from "./stt-config.ts";
import { languageFields, sampleRateField, toggleField, wordListField } from "./stt-fields.ts";
import { TtsProviderConfig } from "./tts-config.ts";
import type { ProviderDescriptor } from "./types.ts";

export const DeepgramSttConfig = z.object({
  ...sttBaseShape("nova-3", "en"),
  punctuate: z.boolean().default(true),
  sample_rate: sttSampleRate,
  numerals: z.boolean().default(false),
  filler_words: z.boolean().default(false),
  keywords: sttWords.default([]),
  keyterms: sttWords.default([]),
  profanity_filter: z.boolean().default(false),
});

const LANGUAGES = languages([
  "en",
  "en-US",
  "en-GB",
  "en-AU",
  "en-IN",
  "multi",
  "es",
  "es-419",
  "fr",
  "de",
  "hi",
  "pt",
  "pt-BR",
  "it",
  "nl",
  "ja",
  "ko",
  "ru",
  "tr",
  "pl",
  "uk",
  "sv",
  "da",
  "no",
  "zh",
]);

export const deepgram = {
  id: "deepgram",
  label: "Deepgram",
  ...apiKeyCredentials("DEEPGRAM_API_KEY"),
  integrationKinds: ["stt", "tts"],
  stt: {
    config: DeepgramSttConfig,
    models: [m("nova-3", "Nova-3"), m("nova-2", "Nova-2"), m("nova-2-phonecall", "Nova-2 phone call"), m("base")],
    languages: LANGUAGES,
    fields: [
      ...languageFields(LANGUAGES),
      toggleField("punctuate", "Punctuation and capitalisation"),
      sampleRateField,
      toggleField("numerals", "Write numbers as digits"),
      toggleField("filler_words", "Keep filler words (um, uh)"),
      wordListField("keywords", "Keywords", "Words to boost (Nova-2 and older)."),
      wordListField("keyterms", "Key terms", "Terms and phrases to boost (Nova-3)."),
      toggleField("profanity_filter", "Filter profanity"),
    ],
    price: { default: 0.0077, models: { "nova-3": 0.0077, "nova-2": 0.0058, "nova-2-phonecall": 0.0058 } },
    ...HOSTED_STT,
  },
  tts: {
    label: "Deepgram Aura",
    config: TtsProviderConfig,
    defaults: {
      model: "aura-2",
      voice: "aura-2-thalia-en",
      ...PIPELINE_AUDIO,
      encoding: "linear16",
      language: "en",
    },
    models: [m("aura-2", "Aura-2"), m("aura", "Aura")],
    voices: [
      v("aura-2-thalia-en", "Thalia"),
      v("aura-2-andromeda-en", "Andromeda"),
      v("aura-2-helena-en", "Helena"),
      v("aura-2-apollo-en", "Apollo"),
      v("aura-2-arcas-en", "Arcas"),
      v("aura-2-aries-en", "Aries"),
      v("aura-2-asteria-en", "Asteria"),
      v("aura-2-luna-en", "Luna"),
      v("aura-2-orion-en", "Orion"),
      v("aura-2-zeus-en", "Zeus"),
      v("aura-2-celeste-es", "Celeste (Spanish)"),
      v("aura-2-nestor-es", "Néstor (Spanish)"),
      v("aura-asteria-en", "Asteria (Aura)"),
      v("aura-orion-en", "Orion (Aura)"),
    ],
    encodings: ["linear16", "mulaw", "alaw"],
    price: { default: 0.0135, models: { "aura-2": 0.0135, aura: 0.0068 } },
    ...HOSTED_TTS,
  },
} as const satisfies ProviderDescriptor;
