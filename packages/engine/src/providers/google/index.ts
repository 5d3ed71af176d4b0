import { modelCountCheck } from "../shared/account-checks.ts";
import { requireKey } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { ModelListing, VendorAdapters } from "../vendor-adapters.ts";
import { createEmbedder } from "./embeddings.ts";
import { GeminiLlm } from "./llm.ts";

const ROOT = "https://generativelanguage.googleapis.com";

interface GeminiModels {
  models?: { name: string; supportedGenerationMethods?: string[] }[];
}

const listModels: ModelListing = {
  kinds: ["llm"],
  async list(_kind, credentials, net, options) {
    const headers = { "x-goog-api-key": requireKey("google", credentials) };
    const url = withOrigin(joinUrl(ROOT, "v1beta/models?pageSize=1000"), options.baseUrl);
    const body = await vendorJson<GeminiModels>({ provider: "google", url, headers, net });
    return (body.models ?? [])
      .filter((m) => m.supportedGenerationMethods?.includes("generateContent") ?? true)
      .map((m) => m.name.replace(/^models\//, ""));
  },
};

export default {
  llm: (options) =>
    new GeminiLlm({
      model: options.config.model,
      apiKey: requireKey("google", options.credentials),
      baseUrl: withOrigin(ROOT, options.baseUrl),
      net: options.net,
      timeouts: options.timeouts,
    }),
  listModels,
  testConnection: modelCountCheck("google", listModels),
  embeddings: (options) => createEmbedder(ROOT, options),
} satisfies VendorAdapters<"google">;
