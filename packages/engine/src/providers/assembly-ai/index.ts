import { probeCheck } from "../shared/account-checks.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { AssemblyAiStt } from "./stt.ts";

export default {
  stt: (options) => new AssemblyAiStt(cloudOptions("assembly-ai", options)),
  testConnection: probeCheck(
    "assembly-ai",
    "https://api.assemblyai.com",
    (key) => ({ authorization: key }),
    "v2/transcript?limit=1",
  ),
} satisfies VendorAdapters<"assembly-ai">;
