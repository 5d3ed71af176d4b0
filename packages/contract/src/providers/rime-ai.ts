import { apiKeyCredentials } from "./credentials.ts";
import { m, v } from "./editor-options.ts";
import { HOSTED_TTS, PIPELINE_AUDIO } from "./stage-presets.ts";
import { TtsProviderConfig } from "./tts-config.ts";
import type { ProviderDescriptor } from "./types.ts";

export const rimeAi = {
  id: "rime-ai",
  label: "Rime",
  ...apiKeyCredentials("RIME_API_KEY"),
  integrationKinds: ["tts"],
  tts: {
    config: TtsProviderConfig,
    defaults: { model: "mistv2", voice: "cove", ...PIPELINE_AUDIO, encoding: "pcm", language: "eng" },
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
    ...HOSTED_TTS,
  },
} as const satisfies ProviderDescriptor;
