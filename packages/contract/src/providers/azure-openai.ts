import { apiKey, credential } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import { openai } from "./openai.ts";
import type { ProviderDescriptor } from "./types.ts";

export const azureOpenai = {
  id: "azure-openai",
  label: "Azure OpenAI",
  credentials: [apiKey, credential("endpoint", "Endpoint", { url: true })],
  env: { api_key: "AZURE_OPENAI_API_KEY", endpoint: "AZURE_OPENAI_ENDPOINT" },
  integrationKinds: ["llm"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "gpt-4o-mini", deployment: "gpt-4o-mini", api_version: "2024-10-21" },
    models: [m("gpt-4o-mini", "GPT-4o mini"), m("gpt-4o", "GPT-4o"), m("gpt-4.1", "GPT-4.1"), m("gpt-4.1-mini")],
    // Azure bills the OpenAI list prices for the same models.
    price: openai.llm.price,
    needsKey: true,
    needsBaseUrl: true,
    needsDeployment: true,
    offline: false,
  },
} as const satisfies ProviderDescriptor;
