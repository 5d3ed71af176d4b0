import { z } from "zod";
import { apiKeyCredentials } from "./credentials.ts";
import { languages, m } from "./editor-options.ts";
import { COMMON_LANGUAGE_CODES } from "./languages.ts";
import { HOSTED_STT } from "./stage-presets.ts";
import { sttBaseShape, sttWords } from "./stt-config.ts";
import { languageFields, selectField, wordListField } from "./stt-fields.ts";
import type { ProviderDescriptor } from "./types.ts";

export const SpeechmaticsSttConfig = z.object({
  ...sttBaseShape("realtime", "auto"),
  operating_point: z.enum(["standard", "enhanced"]).default("enhanced"),
  additional_vocab: sttWords.default([]),
});

const LANGUAGES = languages(["auto", ...COMMON_LANGUAGE_CODES, "cmn", "ru", "tr"]);

export const speechmatics = {
  id: "speechmatics",
  label: "Speechmatics",
  ...apiKeyCredentials("SPEECHMATICS_API_KEY"),
  integrationKinds: ["stt"],
  stt: {
    config: SpeechmaticsSttConfig,
    models: [m("realtime", "Real-time")],
    languages: LANGUAGES,
    fields: [
      ...languageFields(LANGUAGES),
      selectField("operating_point", "Operating point", [
        { value: "enhanced", label: "Enhanced (more accurate)" },
        { value: "standard", label: "Standard (faster)" },
      ]),
      wordListField("additional_vocab", "Additional vocabulary", "Names and terms the recogniser should know."),
    ],
    price: { default: 0.0125 },
    ...HOSTED_STT,
  },
} as const satisfies ProviderDescriptor;
