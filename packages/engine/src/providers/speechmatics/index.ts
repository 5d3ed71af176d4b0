import { probeCheck } from "../shared/account-checks.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { SpeechmaticsStt } from "./stt.ts";

export default {
  stt: (options) => new SpeechmaticsStt(cloudOptions("speechmatics", options)),
  // The batch API answers account calls; the real-time one only speaks WebSocket.
  testConnection: probeCheck(
    "speechmatics",
    "https://asr.api.speechmatics.com",
    (key) => ({ authorization: `Bearer ${key}` }),
    "v2/jobs?limit=1",
  ),
} satisfies VendorAdapters<"speechmatics">;
