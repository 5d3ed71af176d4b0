import { apiKey } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import type { ProviderDescriptor } from "./types.ts";

export const deepseek = {
  id: "deepseek",
  label: "DeepSeek",
  credentials: [apiKey],
  env: { api_key: "DEEPSEEK_API_KEY" },
  integrationKinds: ["llm"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "deepseek-chat" },
    models: [m("deepseek-chat", "DeepSeek Chat"), m("deepseek-reasoner", "DeepSeek Reasoner")],
    price: { default: { input: 0.28, output: 0.42 } },
    needsKey: true,
    needsBaseUrl: false,
    offline: false,
  },
} as const satisfies ProviderDescriptor;
