import { bearerChatLlm, bearerModelListing } from "../chat-completions/vendor.ts";
import { modelCountCheck } from "../shared/account-checks.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";

const VENDOR = {
  id: "deepseek",
  root: "https://api.deepseek.com",
};
const listModels = bearerModelListing(VENDOR, ["llm"]);

export default {
  llm: (options) => bearerChatLlm(VENDOR, options),
  listModels,
  testConnection: modelCountCheck(VENDOR.id, listModels),
} satisfies VendorAdapters<"deepseek">;
