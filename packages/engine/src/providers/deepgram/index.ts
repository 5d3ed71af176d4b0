import { probeCheck } from "../shared/account-checks.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import type { VendorAdapters } from "../vendor-adapters.ts";
import { auth, listModels, listVoices, ROOT } from "./catalog.ts";
import { DeepgramStt } from "./stt.ts";
import { DeepgramTts } from "./tts.ts";

export default {
  stt: (options) => new DeepgramStt(cloudOptions("deepgram", options)),
  tts: (options) => new DeepgramTts(cloudOptions("deepgram", options)),
  listModels,
  listVoices,
  testConnection: probeCheck("deepgram", ROOT, auth, "v1/projects", (body) => {
    const projects = typeof body === "object" && body !== null && "projects" in body ? body.projects : undefined;
    const first: unknown = Array.isArray(projects) ? projects[0] : undefined;
    const name = typeof first === "object" && first !== null && "name" in first ? first.name : undefined;
    return typeof name === "string" && name ? `Connected to Deepgram project "${name}".` : "Connected to Deepgram.";
  }),
} satisfies VendorAdapters<"deepgram">;
