import { bearerChatLlm, bearerModelListing } from "../chat-completions/vendor.ts";
import { modelCountCheck } from "../shared/account-checks.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";

const VENDOR = {
  id: "mistral",
  root: "https://api.mistral.ai/v1",
  // Mistral rejects `stream_options`; it reports usage on its own.
  noStreamOptions: true,
};
const listModels = bearerModelListing(VENDOR, ["llm"]);

export default {
  llm: (options) => bearerChatLlm(VENDOR, options),
  listModels,
  testConnection: modelCountCheck(VENDOR.id, listModels),
} satisfies VendorAdapters<"mistral">;
