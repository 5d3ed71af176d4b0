import { bearerChatAdapters } from "../chat-completions/vendor.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";

export default bearerChatAdapters({
  id: "deepseek",
  root: "https://api.deepseek.com",
}) satisfies VendorAdapters<"deepseek">;
