import { apiKeyCredentials } from "./credentials.ts";
import { m, v } from "./editor-options.ts";
import { HOSTED_TTS, PIPELINE_AUDIO } from "./stage-presets.ts";
import { TtsProviderConfig } from "./tts-config.ts";
import type { ProviderDescriptor } from "./types.ts";

export const neuphonic = {
  id: "neuphonic",
  label: "Neuphonic",
  ...apiKeyCredentials("NEUPHONIC_API_KEY"),
  integrationKinds: ["tts"],
  tts: {
    config: TtsProviderConfig,
    defaults: {
      model: "neu_hq",
      voice: "e564ba7e-aa8d-46a2-96a8-8dffedade48f",
      ...PIPELINE_AUDIO,
      encoding: "pcm_linear",
      language: "en",
    },
    models: [m("neu_hq", "High quality"), m("neu_fast", "Fast")],
    voices: [
      v("e564ba7e-aa8d-46a2-96a8-8dffedade48f", "Annie"),
      v("fc854436-2dac-4d21-aa69-ae17b54e98eb", "Emily"),
      v("8e9c4bc8-3979-48ab-8626-df53befc2090", "Holly"),
      v("f8698a9e-947a-43cd-a897-57edd4070a78", "Albert"),
      v("6ffede2d-d96e-4a9b-9d4d-e654b8ef4cf2", "James"),
      v("b19687fd-c5c9-4bda-9d52-756c3b10c88e", "Miles"),
      v("6c8ad62b-1356-42df-ac82-706590b7ff43", "Richard"),
      v("ebf2c88e-e69d-4eeb-9b9b-9f3a648787a5", "Marcus"),
      v("0049e0f3-5506-4f29-9c44-344ed5a9c7c2", "Camille (French)"),
      v("691278e4-ab16-4cda-991f-129f7d1ab197", "Lucia (Spanish)"),
      v("a2103bbb-ab1f-4b1a-b4b7-f2466ce14f11", "Deepika (Hindi)"),
    ],
    encodings: ["pcm_linear", "pcm_mulaw"],
    price: { default: 0.01 },
    ...HOSTED_TTS,
  },
} as const satisfies ProviderDescriptor;
