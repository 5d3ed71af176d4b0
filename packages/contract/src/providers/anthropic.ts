import { apiKeyCredentials } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import { HOSTED_LLM } from "./stage-presets.ts";
import type { ProviderDescriptor } from "./types.ts";

export const anthropic = {
  id: "anthropic",
  label: "Anthropic",
  ...apiKeyCredentials("ANTHROPIC_API_KEY"),
  integrationKinds: ["llm"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "claude-sonnet-4-5" },
    models: [
      m("claude-sonnet-4-5", "Claude Sonnet 4.5"),
      m("claude-haiku-4-5", "Claude Haiku 4.5"),
      m("claude-opus-4-1", "Claude Opus 4.1"),
      m("claude-sonnet-4-0", "Claude Sonnet 4"),
      m("claude-3-5-haiku-latest", "Claude 3.5 Haiku"),
    ],
    price: {
      default: { input: 3, output: 15 },
      models: {
        "claude-sonnet-4-5": { input: 3, output: 15 },
        "claude-sonnet-4-0": { input: 3, output: 15 },
        "claude-haiku-4-5": { input: 1, output: 5 },
        "claude-opus-4-1": { input: 15, output: 75 },
        "claude-3-5-haiku-latest": { input: 0.8, output: 4 },
      },
    },
    ...HOSTED_LLM,
  },
} as const satisfies ProviderDescriptor;
