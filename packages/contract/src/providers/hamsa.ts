import { z } from "zod";
import { apiKey } from "./credentials.ts";
import { languages, m } from "./editor-options.ts";
import { detectLanguageField, languageField, sttBaseShape } from "./stt-config.ts";
import type { ProviderDescriptor } from "./types.ts";

export const HamsaSttConfig = z.object(sttBaseShape("hamsa-stt", "ar"));

const LANGUAGES = languages(["ar", "en"]);

export const hamsa = {
  id: "hamsa",
  label: "Hamsa",
  credentials: [apiKey],
  env: { api_key: "HAMSA_API_KEY" },
  integrationKinds: ["stt"],
  stt: {
    config: HamsaSttConfig,
    models: [m("hamsa-stt", "Hamsa")],
    languages: LANGUAGES,
    fields: [languageField(LANGUAGES), detectLanguageField],
    price: { default: 0.01 },
    needsKey: true,
    offline: false,
    note: "Arabic dialects and English.",
  },
} as const satisfies ProviderDescriptor;
