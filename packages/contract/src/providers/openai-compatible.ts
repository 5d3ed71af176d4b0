import { credential } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import type { ProviderDescriptor } from "./types.ts";

/** Any server speaking the chat-completions API on this machine or network (Ollama, vLLM, LM Studio, llama.cpp). */
export const openaiCompatible = {
  id: "openai-compatible",
  label: "OpenAI-compatible server",
  credentials: [
    credential("base_url", "Base URL", { url: true }),
    credential("api_key", "API key", { secret: true, optional: true }),
  ],
  env: {},
  integrationKinds: ["llm"],
  llm: {
    label: "OpenAI-compatible server (Ollama, vLLM, LM Studio)",
    config: LlmProviderConfig,
    defaults: { model: "llama3.2", base_url: "http://localhost:11434/v1" },
    models: [m("llama3.2", "Llama 3.2"), m("llama3.1", "Llama 3.1"), m("qwen2.5", "Qwen 2.5"), m("mistral")],
    price: { default: { input: 0, output: 0 } },
    needsKey: false,
    needsBaseUrl: true,
    offline: true,
  },
  embeddings: {
    models: [m("nomic-embed-text", "Nomic Embed Text"), m("mxbai-embed-large", "mxbai Embed Large")],
    dimensions: { "nomic-embed-text": 768, "mxbai-embed-large": 1024 },
    defaultModel: "nomic-embed-text",
    price: { default: 0 },
  },
} as const satisfies ProviderDescriptor;
