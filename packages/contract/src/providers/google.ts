import { apiBaseUrl, apiKey, apiKeyCredentials } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import { HOSTED_LLM } from "./stage-presets.ts";
import type { ProviderDescriptor } from "./types.ts";

export const google = {
  id: "google",
  label: "Google Gemini",
  ...apiKeyCredentials("GEMINI_API_KEY"),
  // The base URL reaches the Live API elsewhere (a proxy, a local double); the key goes only there.
  credentials: [apiKey, apiBaseUrl],
  integrationKinds: ["llm"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "gemini-2.5-flash" },
    models: [
      m("gemini-2.5-flash", "Gemini 2.5 Flash"),
      m("gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite"),
      m("gemini-2.5-pro", "Gemini 2.5 Pro"),
      m("gemini-2.0-flash", "Gemini 2.0 Flash"),
    ],
    price: {
      default: { input: 0.3, output: 2.5 },
      models: {
        "gemini-2.5-flash": { input: 0.3, output: 2.5 },
        "gemini-2.5-flash-lite": { input: 0.1, output: 0.4 },
        "gemini-2.5-pro": { input: 1.25, output: 10 },
        "gemini-2.0-flash": { input: 0.1, output: 0.4 },
      },
    },
    ...HOSTED_LLM,
  },
  embeddings: {
    models: [m("gemini-embedding-001", "Gemini Embedding"), m("text-embedding-004", "Text Embedding 004")],
    dimensions: { "gemini-embedding-001": 3072, "text-embedding-004": 768 },
    defaultModel: "gemini-embedding-001",
    price: { default: 0.15, models: { "gemini-embedding-001": 0.15, "text-embedding-004": 0 } },
  },
} as const satisfies ProviderDescriptor;
