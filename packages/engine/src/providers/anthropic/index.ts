import { modelCountCheck } from "../shared/account-checks.ts";
import { requireKey } from "../shared/credentials.ts";
import { vendorJson } from "../shared/vendor-request.ts";
import { joinUrl, withOrigin } from "../shared/vendor-url.ts";
import type { ModelListing, VendorAdapters } from "../vendor-adapters.ts";
import { ANTHROPIC_VERSION, AnthropicLlm } from "./llm.ts";

const ROOT = "https://api.anthropic.com";

const listModels: ModelListing = {
  kinds: ["llm"],
  async list(_kind, credentials, net, options) {
    const headers = { "x-api-key": requireKey("anthropic", credentials), "anthropic-version": ANTHROPIC_VERSION };
    const url = withOrigin(joinUrl(ROOT, "v1/models?limit=1000"), options.baseUrl);
    const body = await vendorJson<{ data?: { id: string }[] }>({ provider: "anthropic", url, headers, net });
    return (body.data ?? []).map((m) => m.id);
  },
};

export default {
  llm: (options) =>
    new AnthropicLlm({
      model: options.config.model,
      apiKey: requireKey("anthropic", options.credentials),
      baseUrl: withOrigin(ROOT, options.baseUrl),
      net: options.net,
      timeouts: options.timeouts,
    }),
  listModels,
  testConnection: modelCountCheck("anthropic", listModels),
} satisfies VendorAdapters<"anthropic">;
