import type { LlmProviderConfig } from "@parley/contract";
import { ChatCompletionsLlm } from "../chat-completions/chat-completions-llm.ts";
import { chatModelsOnly, modelIds } from "../chat-completions/vendor.ts";
import { ProviderError } from "../provider-error.ts";
import { modelCountCheck } from "../shared/account-checks.ts";
import { requireField, requireKey } from "../shared/credentials.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { LlmProvider } from "../types.ts";
import type { ModelListing, ProviderOptions, VendorAdapters } from "../vendor-adapters.ts";

const DEFAULT_API_VERSION = "2024-10-21";

/** The resource endpoint without a trailing slash or a pasted `/openai/...` path. */
function resourceEndpoint(endpoint: string): string {
  return endpoint.replace(/\/+$/, "").replace(/\/openai(\/.*)?$/, "");
}

/** Azure routes by deployment in the URL and authenticates with `api-key`. */
function createLlm(options: ProviderOptions<LlmProviderConfig>): LlmProvider {
  const apiKey = requireKey("azure-openai", options.credentials);
  const endpoint = options.credentials?.endpoint?.trim() || options.config.base_url;
  if (!endpoint) {
    throw new ProviderError("azure-openai", "No endpoint for Azure OpenAI. Add it on the Integrations page.", false);
  }
  const deployment = options.config.deployment?.trim() || options.config.model;
  const version = options.config.api_version?.trim() || DEFAULT_API_VERSION;
  const path = `openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${encodeURIComponent(version)}`;
  return new ChatCompletionsLlm({
    id: "azure-openai",
    model: options.config.model,
    url: withOrigin(joinUrl(resourceEndpoint(endpoint), path), options.baseUrl),
    headers: { "api-key": apiKey },
    net: options.net,
    omitModel: true,
    includeUsage: true,
    timeouts: options.timeouts,
  });
}

const listModels: ModelListing = {
  kinds: ["llm"],
  async list(_kind, credentials, net, options) {
    const headers = { "api-key": requireKey("azure-openai", credentials) };
    const endpoint = resourceEndpoint(requireField("azure-openai", credentials, "endpoint"));
    const version = encodeURIComponent(options.apiVersion ?? DEFAULT_API_VERSION);
    const url = withOrigin(joinUrl(endpoint, `openai/models?api-version=${version}`), options.baseUrl);
    return chatModelsOnly(await modelIds("azure-openai", url, headers, net));
  },
};

export default {
  llm: createLlm,
  listModels,
  testConnection: modelCountCheck("azure-openai", listModels),
} satisfies VendorAdapters<"azure-openai">;
