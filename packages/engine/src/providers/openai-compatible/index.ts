import type { LlmProviderConfig } from "@parley/contract";
import { ChatCompletionsLlm } from "../chat-completions/chat-completions-llm.ts";
import { modelIds } from "../chat-completions/vendor.ts";
import { ProviderError } from "../provider-error.ts";
import { modelCountCheck } from "../shared/account-checks.ts";
import { requireField } from "../shared/credentials.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { LlmProvider } from "../types.ts";
import type { Credentials, ModelListing, ProviderOptions, VendorAdapters } from "../vendor-adapters.ts";
import { createEmbedder } from "./embeddings.ts";

/** Local servers (Ollama, LM Studio, llama.cpp) usually need no key at all. */
function optionalBearer(credentials: Credentials): Record<string, string> {
  const key = credentials?.api_key?.trim();
  return key ? { authorization: `Bearer ${key}` } : {};
}

function createLlm(options: ProviderOptions<LlmProviderConfig>): LlmProvider {
  const root = options.config.base_url || options.credentials?.base_url?.trim();
  if (!root) {
    throw new ProviderError(
      "openai-compatible",
      "No base URL for the OpenAI-compatible endpoint. Set one in the assistant's model settings.",
      false,
    );
  }
  return new ChatCompletionsLlm({
    id: "openai-compatible",
    model: options.config.model,
    url: withOrigin(joinUrl(root, "chat/completions"), options.baseUrl),
    headers: optionalBearer(options.credentials),
    net: options.net,
    includeUsage: true,
    timeouts: options.timeouts,
  });
}

/** Every model the server lists: a self-hosted server serves chat models only. */
const listModels: ModelListing = {
  kinds: ["llm"],
  async list(_kind, credentials, net, options) {
    const root = requireField("openai-compatible", credentials, "base_url");
    const url = withOrigin(joinUrl(root, "models"), options.baseUrl);
    return modelIds("openai-compatible", url, optionalBearer(credentials), net);
  },
};

export default {
  llm: createLlm,
  listModels,
  testConnection: modelCountCheck("openai-compatible", listModels),
  embeddings: createEmbedder,
} satisfies VendorAdapters<"openai-compatible">;
