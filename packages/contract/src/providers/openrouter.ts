import { apiKeyCredentials } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import { HOSTED_LLM } from "./stage-presets.ts";
import type { ProviderDescriptor } from "./types.ts";

export const openrouter = {
  id: "openrouter",
  label: "OpenRouter",
  ...apiKeyCredentials("OPENROUTER_API_KEY"),
  integrationKinds: ["llm"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "openai/gpt-4o-mini" },
    models: [
      m("openai/gpt-4o-mini", "OpenAI GPT-4o mini"),
      m("anthropic/claude-sonnet-4.5", "Anthropic Claude Sonnet 4.5"),
      m("google/gemini-2.5-flash", "Google Gemini 2.5 Flash"),
      m("meta-llama/llama-3.3-70b-instruct", "Meta Llama 3.3 70B"),
      m("deepseek/deepseek-chat", "DeepSeek Chat"),
    ],
    price: {
      default: { input: 0.15, output: 0.6 },
      models: {
        "anthropic/claude-sonnet-4.5": { input: 3, output: 15 },
        "google/gemini-2.5-flash": { input: 0.3, output: 2.5 },
        "meta-llama/llama-3.3-70b-instruct": { input: 0.13, output: 0.4 },
        "deepseek/deepseek-chat": { input: 0.28, output: 0.42 },
      },
    },
    ...HOSTED_LLM,
  },
} as const satisfies ProviderDescriptor;
