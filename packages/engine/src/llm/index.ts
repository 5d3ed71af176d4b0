import type { LlmProviderConfig, LlmProviderId } from "@parley/contract";
import { ProviderError } from "../providers/provider-error.ts";
import type { StreamTimeouts } from "../providers/sse-stream.ts";
import type { LlmProvider, NetworkDeps } from "../providers/types.ts";
import { joinUrl, withOrigin } from "../providers/vendor-url.ts";
import { AnthropicLlm } from "./anthropic.ts";
import { GeminiLlm } from "./gemini.ts";
import { OpenAiCompatibleLlm } from "./openai-compatible.ts";
import {
  ANTHROPIC_ROOT,
  AZURE_DEFAULT_API_VERSION,
  azureEndpoint,
  GEMINI_ROOT,
  LLM_LABELS,
  OPENAI_STYLE_ROOTS,
  type OpenAiStyleVendor,
} from "./vendors.ts";

export interface CreateLlmOptions {
  /** The workspace's stored secrets for this vendor: `api_key`; Azure also `endpoint`. */
  credentials: Record<string, string> | null;
  config: LlmProviderConfig;
  net: NetworkDeps;
  /** Replaces the vendor's origin (scheme, host, port), keeping its paths: for tests. */
  baseUrl?: string;
  timeouts?: Partial<StreamTimeouts>;
}

/** Vendors that do not accept `stream_options` (they report usage on their own). */
const NO_STREAM_OPTIONS = new Set<string>(["mistral"]);

/** Builds the streaming adapter for one assistant's language model. */
export function createLlmProvider(id: LlmProviderId, options: CreateLlmOptions): LlmProvider {
  const model = options.config.model;
  switch (id) {
    case "anthropic":
      return new AnthropicLlm({
        model,
        apiKey: requireKey(id, options.credentials),
        baseUrl: withOrigin(ANTHROPIC_ROOT, options.baseUrl),
        net: options.net,
        timeouts: options.timeouts,
      });
    case "google":
      return new GeminiLlm({
        model,
        apiKey: requireKey(id, options.credentials),
        baseUrl: withOrigin(GEMINI_ROOT, options.baseUrl),
        net: options.net,
        timeouts: options.timeouts,
      });
    case "azure-openai":
      return createAzure(options);
    case "openai-compatible":
      return createCompatible(options);
    default:
      return createOpenAiStyle(id, options);
  }
}

function createOpenAiStyle(id: OpenAiStyleVendor, options: CreateLlmOptions): LlmProvider {
  const headers: Record<string, string> = { authorization: `Bearer ${requireKey(id, options.credentials)}` };
  // OpenRouter ranks and attributes traffic by these optional headers.
  if (id === "openrouter") headers["x-title"] = "Parley";
  return new OpenAiCompatibleLlm({
    id,
    model: options.config.model,
    url: withOrigin(joinUrl(OPENAI_STYLE_ROOTS[id], "chat/completions"), options.baseUrl),
    headers,
    net: options.net,
    includeUsage: !NO_STREAM_OPTIONS.has(id),
    // OpenAI's reasoning models reject `max_tokens`; the others only know `max_tokens`.
    maxTokensField: id === "openai" ? "max_completion_tokens" : "max_tokens",
    timeouts: options.timeouts,
  });
}

function createAzure(options: CreateLlmOptions): LlmProvider {
  const apiKey = requireKey("azure-openai", options.credentials);
  const endpoint = options.credentials?.endpoint?.trim() || options.config.base_url;
  if (!endpoint) {
    throw new ProviderError("azure-openai", "No endpoint for Azure OpenAI. Add it on the Integrations page.", false);
  }
  const deployment = options.config.deployment?.trim() || options.config.model;
  const version = options.config.api_version?.trim() || AZURE_DEFAULT_API_VERSION;
  const path = `openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${encodeURIComponent(version)}`;
  return new OpenAiCompatibleLlm({
    id: "azure-openai",
    model: options.config.model,
    url: withOrigin(joinUrl(azureEndpoint(endpoint), path), options.baseUrl),
    headers: { "api-key": apiKey },
    net: options.net,
    omitModel: true,
    includeUsage: true,
    timeouts: options.timeouts,
  });
}

function createCompatible(options: CreateLlmOptions): LlmProvider {
  const root = options.config.base_url || options.credentials?.base_url?.trim();
  if (!root) {
    throw new ProviderError(
      "openai-compatible",
      "No base URL for the OpenAI-compatible endpoint. Set one in the assistant's model settings.",
      false,
    );
  }
  // Local servers (Ollama, LM Studio, llama.cpp) usually need no key at all.
  const key = options.credentials?.api_key?.trim();
  return new OpenAiCompatibleLlm({
    id: "openai-compatible",
    model: options.config.model,
    url: withOrigin(joinUrl(root, "chat/completions"), options.baseUrl),
    headers: key ? { authorization: `Bearer ${key}` } : {},
    net: options.net,
    includeUsage: true,
    timeouts: options.timeouts,
  });
}

function requireKey(id: LlmProviderId, credentials: Record<string, string> | null): string {
  const key = credentials?.api_key?.trim();
  if (!key) throw new ProviderError(id, `No API key for ${LLM_LABELS[id]}. Add one on the Integrations page.`, false);
  return key;
}

export { AnthropicLlm } from "./anthropic.ts";
export { GeminiLlm } from "./gemini.ts";
export { OpenAiCompatibleLlm } from "./openai-compatible.ts";
export { LLM_LABELS } from "./vendors.ts";
