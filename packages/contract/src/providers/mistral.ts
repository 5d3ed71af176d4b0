import { apiKeyCredentials } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import { HOSTED_LLM } from "./stage-presets.ts";
import type { ProviderDescriptor } from "./types.ts";

export const mistral = {
  id: "mistral",
  label: "Mistral",
  ...apiKeyCredentials("MISTRAL_API_KEY"),
  integrationKinds: ["llm"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "mistral-small-latest" },
    models: [
      m("mistral-small-latest", "Mistral Small"),
      m("mistral-medium-latest", "Mistral Medium"),
      m("mistral-large-latest", "Mistral Large"),
      m("ministral-8b-latest", "Ministral 8B"),
    ],
    price: {
      default: { input: 0.1, output: 0.3 },
      models: {
        "mistral-small-latest": { input: 0.1, output: 0.3 },
        "mistral-medium-latest": { input: 0.4, output: 2 },
        "mistral-large-latest": { input: 2, output: 6 },
        "ministral-8b-latest": { input: 0.1, output: 0.1 },
      },
    },
    ...HOSTED_LLM,
  },
} as const satisfies ProviderDescriptor;
