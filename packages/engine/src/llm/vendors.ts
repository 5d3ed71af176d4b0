import type { LlmProviderId } from "@parley/contract";

/** How each language-model vendor is named to people (errors, the Integrations page). */
export const LLM_LABELS: Record<LlmProviderId, string> = {
  openai: "OpenAI",
  anthropic: "Anthropic",
  google: "Google Gemini",
  groq: "Groq",
  "azure-openai": "Azure OpenAI",
  deepseek: "DeepSeek",
  mistral: "Mistral",
  openrouter: "OpenRouter",
  "openai-compatible": "the OpenAI-compatible endpoint",
};

/** API roots of the vendors that speak the Chat Completions protocol. */
export const OPENAI_STYLE_ROOTS = {
  openai: "https://api.openai.com/v1",
  groq: "https://api.groq.com/openai/v1",
  deepseek: "https://api.deepseek.com",
  mistral: "https://api.mistral.ai/v1",
  openrouter: "https://openrouter.ai/api/v1",
} as const;
export type OpenAiStyleVendor = keyof typeof OPENAI_STYLE_ROOTS;

export const ANTHROPIC_ROOT = "https://api.anthropic.com";
export const GEMINI_ROOT = "https://generativelanguage.googleapis.com";
export const AZURE_DEFAULT_API_VERSION = "2024-10-21";

export function isOpenAiStyleVendor(id: string): id is OpenAiStyleVendor {
  return Object.hasOwn(OPENAI_STYLE_ROOTS, id);
}

/** Azure resource endpoint without a trailing slash or a pasted `/openai/...` path. */
export function azureEndpoint(endpoint: string): string {
  return endpoint.replace(/\/+$/, "").replace(/\/openai(\/.*)?$/, "");
}
