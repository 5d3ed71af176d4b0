import { m, v } from "./editor-options.ts";
import type { ProviderDescriptor } from "./types.ts";

/** The Live API's prebuilt voices (`speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName`): the 30 HD voices. */
const VOICES = [
  "Puck",
  "Charon",
  "Kore",
  "Fenrir",
  "Aoede",
  "Leda",
  "Orus",
  "Zephyr",
  "Achernar",
  "Achird",
  "Algenib",
  "Algieba",
  "Alnilam",
  "Autonoe",
  "Callirrhoe",
  "Despina",
  "Enceladus",
  "Erinome",
  "Gacrux",
  "Iapetus",
  "Laomedeia",
  "Pulcherrima",
  "Rasalgethi",
  "Sadachbia",
  "Sadaltager",
  "Schedar",
  "Sulafat",
  "Umbriel",
  "Vindemiatrix",
  "Zubenelgenubi",
];

/** Native-audio Live pricing: no context caching, so cached input repeats the text input price. */
const NATIVE_AUDIO = { textInput: 0.5, audioInput: 3, cachedInput: 0.5, textOutput: 2, audioOutput: 12 } as const;

/**
 * Google Gemini Live (issue 32): a native-audio model over the Live API's bidirectional stream,
 * reached with the workspace's Gemini key (the `google` integration).
 *
 * List prices in USD per 1M tokens (paid tier, "Gemini 2.5 Flash Native Audio (Live API)") from
 * ai.google.dev/gemini-api/docs/pricing, models from ai.google.dev/gemini-api/docs/models, read
 * 2026-11-30. Audio is 32 tokens a second each way (1,920 a minute), per the Gemini token docs.
 */
export const geminiLive = {
  id: "gemini-live",
  label: "Gemini Live",
  credentials: [],
  env: {},
  integrationKinds: [],
  realtime: {
    credentialsFrom: "google",
    models: [
      m("gemini-2.5-flash-native-audio-preview-12-2025", "Gemini 2.5 Flash Native Audio (12-2025)"),
      m("gemini-2.5-flash-native-audio-preview-09-2025", "Gemini 2.5 Flash Native Audio (09-2025)"),
    ],
    voices: VOICES.map((id) => v(id, id)),
    // The model transcribes both sides itself (inputAudioTranscription / outputAudioTranscription).
    transcriptionModels: [],
    price: { default: NATIVE_AUDIO },
    audioTokensPerMinute: { input: 1920, output: 1920 },
  },
} as const satisfies ProviderDescriptor;
