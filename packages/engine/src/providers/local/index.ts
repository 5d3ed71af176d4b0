import type { VendorAdapters, VoiceOption } from "../vendor-adapters.ts";
import { PocketsphinxStt } from "./stt.ts";
import { EspeakTts } from "./tts.ts";

/** The espeak-ng voices the offline synthesiser ships with. */
const VOICES: VoiceOption[] = [
  { id: "en-us", name: "English (US)" },
  { id: "en", name: "English (UK)" },
  { id: "es", name: "Spanish" },
  { id: "fr", name: "French" },
  { id: "de", name: "German" },
  { id: "hi", name: "Hindi" },
  { id: "pt-br", name: "Portuguese (Brazil)" },
  { id: "ar", name: "Arabic" },
];

/** The key-free providers that run on this server: no credentials, no network. */
export default {
  stt: () => new PocketsphinxStt(),
  tts: (options) => new EspeakTts(options.config),
  listVoices: async () => VOICES,
  testConnection: async () => "Runs on this server: no key needed.",
} satisfies VendorAdapters<"local">;
