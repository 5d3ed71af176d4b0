import { apiKey } from "./credentials.ts";
import { m } from "./editor-options.ts";
import { TtsProviderConfig } from "./tts-config.ts";
import { v } from "./tts-stage.ts";
import type { ProviderDescriptor } from "./types.ts";

export const rimeAi = {
  id: "rime-ai",
  label: "Rime",
  credentials: [apiKey],
  env: { api_key: "RIME_API_KEY" },
  integrationKinds: ["tts"],
  tts: {
    config: TtsProviderConfig,
    defaults: { model: "mistv2", voice: "cove", speed: 1, sampleRate: 16000, encoding: "pcm", language: "eng" },
    models: [m("mistv2", "Mist v2"), m("arcana", "Arcana")],
    voices: [
      v("cove", "Cove"),
      v("rainforest", "Rainforest"),
      v("river", "River"),
      v("eva", "Eva"),
      v("luna", "Luna (Arcana)"),
      v("celeste", "Celeste (Arcana)"),
      v("orion", "Orion (Arcana)"),
      v("astra", "Astra (Arcana)"),
    ],
    encodings: ["pcm", "mulaw", "mp3"],
    price: { default: 0.015 },
    needsKey: true,
    offline: false,
    supportsClones: false,
  },
} as const satisfies ProviderDescriptor;
