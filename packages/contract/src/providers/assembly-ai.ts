import { z } from "zod";
import { apiKeyCredentials } from "./credentials.ts";
import { languages, m } from "./editor-options.ts";
import { HOSTED_STT } from "./stage-presets.ts";
import { sttBaseShape, sttSampleRate, sttWords } from "./stt-config.ts";
import { languageFields, sampleRateField, selectField, toggleField, wordListField } from "./stt-fields.ts";
import type { ProviderDescriptor } from "./types.ts";

export const AssemblyAiSttConfig = z.object({
  ...sttBaseShape("universal-streaming", "en"),
  sample_rate: sttSampleRate,
  encoding: z.enum(["pcm_s16le", "pcm_mulaw"]).default("pcm_s16le"),
  disable_partial_transcripts: z.boolean().default(false),
  end_utterance_silence_threshold: z.number().int().min(0).max(20000).default(500),
  word_boost: sttWords.default([]),
});

const LANGUAGES = languages(["en", "es", "fr", "de", "it", "pt"]);

export const assemblyAi = {
  id: "assembly-ai",
  label: "AssemblyAI",
  ...apiKeyCredentials("ASSEMBLYAI_API_KEY"),
  integrationKinds: ["stt"],
  stt: {
    config: AssemblyAiSttConfig,
    models: [
      m("universal-streaming", "Universal-Streaming (English)"),
      m("universal-streaming-multilingual", "Universal-Streaming (multilingual)"),
    ],
    languages: LANGUAGES,
    fields: [
      ...languageFields(LANGUAGES),
      sampleRateField,
      selectField("encoding", "Audio encoding", [
        { value: "pcm_s16le", label: "PCM 16-bit" },
        { value: "pcm_mulaw", label: "μ-law" },
      ]),
      toggleField("disable_partial_transcripts", "Disable partial transcripts"),
      {
        name: "end_utterance_silence_threshold",
        kind: "number",
        label: "End-of-utterance silence (ms)",
        min: 0,
        max: 20000,
        step: 50,
      },
      wordListField("word_boost", "Word boost", "Words and phrases to recognise more reliably."),
    ],
    price: { default: 0.0025 },
    ...HOSTED_STT,
  },
} as const satisfies ProviderDescriptor;
