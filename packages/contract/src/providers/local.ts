import { z } from "zod";
import { languages, m, v } from "./editor-options.ts";
import { PIPELINE_AUDIO } from "./stage-presets.ts";
import { sttBaseShape } from "./stt-config.ts";
import { languageFields } from "./stt-fields.ts";
import { TtsProviderConfig } from "./tts-config.ts";
import type { ProviderDescriptor } from "./types.ts";

/** The offline recogniser (pocketsphinx): per utterance, English, weak on free speech. */
export const LocalSttConfig = z.object(sttBaseShape("pocketsphinx-en-us", "en"));

const LANGUAGES = languages(["en"]);

/** Speech that runs on this server with no key or network: pocketsphinx to listen, eSpeak NG to speak. */
export const local = {
  id: "local",
  label: "Local (offline)",
  credentials: [],
  env: {},
  integrationKinds: [],
  stt: {
    label: "Local (offline, pocketsphinx)",
    config: LocalSttConfig,
    models: [m("pocketsphinx-en-us", "PocketSphinx US English")],
    languages: LANGUAGES,
    fields: languageFields(LANGUAGES),
    price: { default: 0 },
    needsKey: false,
    offline: true,
    note: "Runs on this server with no key or network. Good for short commands; weak on free speech.",
  },
  tts: {
    label: "Local (offline, eSpeak NG)",
    config: TtsProviderConfig,
    defaults: {
      model: "espeak-ng",
      voice: "en-us",
      ...PIPELINE_AUDIO,
      encoding: "pcm_s16le",
      language: "en",
    },
    models: [m("espeak-ng", "eSpeak NG")],
    voices: [
      v("en-us", "English (US)"),
      v("en", "English (UK)"),
      v("es", "Spanish (Spain)"),
      v("es-419", "Spanish (Latin America)"),
      v("fr", "French"),
      v("de", "German"),
      v("ar", "Arabic"),
      v("hi", "Hindi"),
      v("pt-br", "Portuguese (Brazil)"),
      v("pt", "Portuguese (Portugal)"),
      v("it", "Italian"),
      v("nl", "Dutch"),
    ],
    encodings: ["pcm_s16le"],
    price: { default: 0 },
    needsKey: false,
    offline: true,
    supportsClones: false,
  },
} as const satisfies ProviderDescriptor;
