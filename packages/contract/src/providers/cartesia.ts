import { apiKeyCredentials } from "./credentials.ts";
import { m, v } from "./editor-options.ts";
import { HOSTED_TTS, PIPELINE_AUDIO } from "./stage-presets.ts";
import { TtsProviderConfig } from "./tts-config.ts";
import type { ProviderDescriptor } from "./types.ts";

export const cartesia = {
  id: "cartesia",
  label: "Cartesia",
  ...apiKeyCredentials("CARTESIA_API_KEY"),
  integrationKinds: ["tts"],
  tts: {
    config: TtsProviderConfig,
    defaults: {
      model: "sonic-2",
      voice: "694f9389-aac1-45b6-b726-9d9369183238",
      ...PIPELINE_AUDIO,
      encoding: "pcm_s16le",
      language: "en",
    },
    models: [m("sonic-2", "Sonic 2"), m("sonic-turbo", "Sonic Turbo"), m("sonic-3", "Sonic 3")],
    voices: [
      v("694f9389-aac1-45b6-b726-9d9369183238", "Sarah (mindful woman)"),
      v("a0e99841-438c-4a64-b679-ae501e7d6091", "Greg (supporter)"),
      v("248be419-c632-4f23-adf1-5324ed7dbf1d", "Elizabeth (manager)"),
      v("829ccd10-f8b3-43cd-b8a0-4aeaa81f3b30", "Linda (conversational guide)"),
      v("5619d38c-cf51-4d8e-9575-48f61a280413", "Mark (promotion lead)"),
      v("efa653e5-314d-46ca-9f90-70ac7d6ca71e", "Kurt (phone support)"),
      v("f6ff7c0c-e396-40a9-a70b-f7607edb6937", "Emma (customer care)"),
      v("9626c31c-bec5-4cca-baa8-f8ba9e84c8bc", "Jacqueline (reassuring agent)"),
      v("c0925108-d541-4dc4-bbae-39f4e57ba10c", "Lucia (Spanish)"),
      v("9904416a-0831-44ea-b8ee-5f145e8f9bbf", "Alice (Brazilian Portuguese)"),
    ],
    encodings: ["pcm_s16le", "pcm_f32le", "pcm_mulaw", "pcm_alaw"],
    price: { default: 0.02 },
    ...HOSTED_TTS,
    supportsClones: true,
  },
} as const satisfies ProviderDescriptor;
