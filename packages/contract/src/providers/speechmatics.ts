import { z } from "zod";
import { apiKey } from "./credentials.ts";
import { languages, m } from "./editor-options.ts";
import {
  detectLanguageField,
  languageField,
  selectField,
  sttBaseShape,
  sttWords,
  wordListField,
} from "./stt-config.ts";
import type { ProviderDescriptor } from "./types.ts";

export const SpeechmaticsSttConfig = z.object({
  ...sttBaseShape("realtime", "auto"),
  operating_point: z.enum(["standard", "enhanced"]).default("enhanced"),
  additional_vocab: sttWords.default([]),
});

const LANGUAGES = languages([
  "auto",
  "en",
  "ar",
  "es",
  "fr",
  "de",
  "hi",
  "pt",
  "it",
  "nl",
  "ja",
  "ko",
  "cmn",
  "ru",
  "tr",
]);

export const speechmatics = {
  id: "speechmatics",
  label: "Speechmatics",
  credentials: [apiKey],
  env: { api_key: "SPEECHMATICS_API_KEY" },
  integrationKinds: ["stt"],
  stt: {
    config: SpeechmaticsSttConfig,
    models: [m("realtime", "Real-time")],
    languages: LANGUAGES,
    fields: [
      languageField(LANGUAGES),
      detectLanguageField,
      selectField("operating_point", "Operating point", [
        { value: "enhanced", label: "Enhanced (more accurate)" },
        { value: "standard", label: "Standard (faster)" },
      ]),
      wordListField("additional_vocab", "Additional vocabulary", "Names and terms the recogniser should know."),
    ],
    price: { default: 0.0125 },
    needsKey: true,
    offline: false,
  },
} as const satisfies ProviderDescriptor;
