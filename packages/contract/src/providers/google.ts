import { apiBaseUrl, apiKey, apiKeyCredentials } from "./credentials.ts";
import { m, v } from "./editor-options.ts";
import { LlmProviderConfig } from "./llm-config.ts";
import { HOSTED_LLM } from "./stage-presets.ts";
import type { ProviderDescriptor } from "./types.ts";

/** The Live API's prebuilt voices (`speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName`): the 30 HD voices. */
const LIVE_VOICES = [
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

export const google = {
  id: "google",
  label: "Google Gemini",
  ...apiKeyCredentials("GEMINI_API_KEY"),
  // The base URL reaches the Live API elsewhere (a proxy, a local double); the key goes only there.
  credentials: [apiKey, apiBaseUrl],
  integrationKinds: ["llm"],
  llm: {
    config: LlmProviderConfig,
    defaults: { model: "gemini-2.5-flash" },
    models: [
      m("gemini-2.5-flash", "Gemini 2.5 Flash"),
      m("gemini-2.5-flash-lite", "Gemini 2.5 Flash-Lite"),
      m("gemini-2.5-pro", "Gemini 2.5 Pro"),
      m("gemini-2.0-flash", "Gemini 2.0 Flash"),
    ],
    price: {
      default: { input: 0.3, output: 2.5 },
      models: {
        "gemini-2.5-flash": { input: 0.3, output: 2.5 },
        "gemini-2.5-flash-lite": { input: 0.1, output: 0.4 },
        "gemini-2.5-pro": { input: 1.25, output: 10 },
        "gemini-2.0-flash": { input: 0.1, output: 0.4 },
      },
    },
    ...HOSTED_LLM,
  },
  embeddings: {
    models: [m("gemini-embedding-001", "Gemini Embedding"), m("text-embedding-004", "Text Embedding 004")],
    dimensions: { "gemini-embedding-001": 3072, "text-embedding-004": 768 },
    defaultModel: "gemini-embedding-001",
    price: { default: 0.15, models: { "gemini-embedding-001": 0.15, "text-embedding-004": 0 } },
  },
  /**
   * Gemini Live (issue 32): a native-audio model over the Live API's bidirectional stream. List
   * prices per 1M tokens (paid tier, "Gemini 2.5 Flash Native Audio (Live API)") from
   * ai.google.dev/gemini-api/docs/pricing, models from ai.google.dev/gemini-api/docs/models, read
   * 2026-11-30. Audio is 32 tokens a second each way (1,920 a minute).
   */
  realtime: {
    id: "gemini-live",
    label: "Gemini Live",
    models: [
      m("gemini-2.5-flash-native-audio-preview-12-2025", "Gemini 2.5 Flash Native Audio (12-2025)"),
      m("gemini-2.5-flash-native-audio-preview-09-2025", "Gemini 2.5 Flash Native Audio (09-2025)"),
    ],
    voices: LIVE_VOICES.map((id) => v(id, id)),
    // The model transcribes both sides itself (inputAudioTranscription / outputAudioTranscription).
    transcriptionModels: [],
    price: { default: NATIVE_AUDIO },
    audioTokensPerMinute: { input: 1920, output: 1920 },
  },
} as const satisfies ProviderDescriptor;
