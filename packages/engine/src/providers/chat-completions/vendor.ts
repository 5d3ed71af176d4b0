import type { LlmProviderConfig } from "@parley/contract";
import { modelCountCheck } from "../shared/account-checks.ts";
import { requireKey } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { LlmProvider, NetworkDeps } from "../types.ts";
import type { AccountCheck, ModelKind, ModelListing, ProviderOptions } from "../vendor-adapters.ts";
import { ChatCompletionsLlm, type ChatCompletionsOptions } from "./chat-completions-llm.ts";

/** A hosted vendor that speaks Chat Completions at `<root>/chat/completions` with a bearer key. */
export interface BearerVendor {
  id: string;
  root: string;
  /** Extra request headers (attribution and the like). */
  headers?: Record<string, string>;
  /** Set for vendors that reject `stream_options` (they report usage on their own). */
  noStreamOptions?: boolean;
  maxTokensField?: ChatCompletionsOptions["maxTokensField"];
  usageOf?: ChatCompletionsOptions["usageOf"];
}

/** The streaming model of a bearer-key Chat Completions vendor. */
export function bearerChatLlm(vendor: BearerVendor, options: ProviderOptions<LlmProviderConfig>): LlmProvider {
  const key = requireKey(vendor.id, options.credentials);
  return new ChatCompletionsLlm({
    id: vendor.id,
    model: options.config.model,
    url: withOrigin(joinUrl(vendor.root, "chat/completions"), options.baseUrl),
    headers: { authorization: `Bearer ${key}`, ...vendor.headers },
    net: options.net,
    includeUsage: !vendor.noStreamOptions,
    maxTokensField: vendor.maxTokensField,
    usageOf: vendor.usageOf,
    timeouts: options.timeouts,
  });
}

/** Models a `/models` list holds that are not chat models. */
const NOT_CHAT = /embed|whisper|tts|transcribe|dall-e|image|moderation|davinci|babbage|guard|audio|realtime|search/i;

/** Which ids of a mixed `/models` list belong to each product. */
const KIND_FILTERS: Record<ModelKind, (id: string) => boolean> = {
  llm: (id) => !NOT_CHAT.test(id),
  stt: (id) => /whisper|transcribe/i.test(id),
  tts: (id) => /tts/i.test(id),
};

/** The ids of a Chat Completions style `GET …/models` answer. */
export async function modelIds(
  provider: string,
  url: string,
  headers: Record<string, string>,
  net: NetworkDeps,
): Promise<string[]> {
  const body = await vendorJson<{ data?: { id: string }[] }>({ provider, url, headers, net });
  return (body.data ?? []).map((m) => m.id);
}

export function chatModelsOnly(ids: string[]): string[] {
  return ids.filter(KIND_FILTERS.llm);
}

/** The model listing of a bearer-key vendor whose one `/models` list mixes its products. */
export function bearerModelListing(
  vendor: Pick<BearerVendor, "id" | "root">,
  kinds: readonly ModelKind[],
): ModelListing {
  return {
    kinds,
    async list(kind, credentials, net, options) {
      const headers = { authorization: `Bearer ${requireKey(vendor.id, credentials)}` };
      const url = withOrigin(joinUrl(vendor.root, "models"), options.baseUrl);
      return (await modelIds(vendor.id, url, headers, net)).filter(KIND_FILTERS[kind]);
    },
  };
}

/**
 * The adapters of a bearer-key Chat Completions vendor: its model, its `/models` listing (of the
 * products in `kinds`) and an account check that counts the models.
 */
export function bearerChatAdapters(
  vendor: BearerVendor,
  kinds: readonly ModelKind[] = ["llm"],
): {
  llm: (options: ProviderOptions<LlmProviderConfig>) => LlmProvider;
  listModels: ModelListing;
  testConnection: AccountCheck;
} {
  const listModels = bearerModelListing(vendor, kinds);
  return {
    llm: (options) => bearerChatLlm(vendor, options),
    listModels,
    testConnection: modelCountCheck(vendor.id, listModels),
  };
}
