import { apiKeyCredentials } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import { HOSTED_LLM } from "./stage-presets.ts";
import type { ProviderDescriptor } from "./types.ts";

export const deepseek = {
  id: "deepseek",
  label: "DeepSeek",
  ...apiKeyCredentials("DEEPSEEK_API_KEY"),
  integrationKinds: ["llm"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "deepseek-chat" },
    models: [m("deepseek-chat", "DeepSeek Chat"), m("deepseek-reasoner", "DeepSeek Reasoner")],
    price: { default: { input: 0.28, output: 0.42 } },
    ...HOSTED_LLM,
  },
} as const satisfies ProviderDescriptor;
