import { bearerChatAdapters } from "../chat-completions/vendor.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";

export default bearerChatAdapters({
  id: "openrouter",
  root: "https://openrouter.ai/api/v1",
  // OpenRouter ranks and attributes traffic by this optional header.
  headers: { "x-title": "Parley" },
}) satisfies VendorAdapters<"openrouter">;
