import { bearerChatLlm, bearerModelListing } from "../chat-completions/vendor.ts";
import { modelCountCheck } from "../shared/account-checks.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";

const VENDOR = {
  id: "openrouter",
  root: "https://openrouter.ai/api/v1",
  // OpenRouter ranks and attributes traffic by this optional header.
  headers: { "x-title": "Parley" },
};
const listModels = bearerModelListing(VENDOR, ["llm"]);

export default {
  llm: (options) => bearerChatLlm(VENDOR, options),
  listModels,
  testConnection: modelCountCheck(VENDOR.id, listModels),
} satisfies VendorAdapters<"openrouter">;
