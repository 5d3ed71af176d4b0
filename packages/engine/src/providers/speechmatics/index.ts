import { probeCheck } from "../shared/account-checks.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { SpeechmaticsStt } from "./stt.ts";

/** The batch API answers account calls; the real-time one only speaks WebSocket. */
const BATCH_ROOT = "https://asr.api.speechmatics.com";
const auth = (key: string) => ({ authorization: `Bearer ${key}` });

export default {
  stt: (options) => new SpeechmaticsStt(cloudOptions("speechmatics", options)),
  testConnection: probeCheck("speechmatics", BATCH_ROOT, auth, "v2/jobs?limit=1"),
} satisfies VendorAdapters<"speechmatics">;
