import { z } from "zod";
import { apiKeyCredentials } from "./credentials.ts";
import { languages, m } from "./editor-options.ts";
import { HOSTED_STT } from "./stage-presets.ts";
import { sttBaseShape } from "./stt-config.ts";
import { languageFields } from "./stt-fields.ts";
import type { ProviderDescriptor } from "./types.ts";

export const HamsaSttConfig = z.object(sttBaseShape("hamsa-stt", "ar"));

const LANGUAGES = languages(["ar", "en"]);

export const hamsa = {
  id: "hamsa",
  label: "Hamsa",
  ...apiKeyCredentials("HAMSA_API_KEY"),
  integrationKinds: ["stt"],
  stt: {
    config: HamsaSttConfig,
    models: [m("hamsa-stt", "Hamsa")],
    languages: LANGUAGES,
    fields: languageFields(LANGUAGES),
    price: { default: 0.01 },
    ...HOSTED_STT,
    note: "Arabic dialects and English.",
  },
} as const satisfies ProviderDescriptor;
