import { bearerChatAdapters } from "../chat-completions/vendor.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";

export default bearerChatAdapters({
  id: "mistral",
  root: "https://api.mistral.ai/v1",
  // Mistral rejects `stream_options`; it reports usage on its own.
  noStreamOptions: true,
}) satisfies VendorAdapters<"mistral">;
