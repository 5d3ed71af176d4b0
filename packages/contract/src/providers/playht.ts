import { apiKey, credential } from "./credentials.ts";
import { m, v } from "./editor-options.ts";
import { HOSTED_TTS, PIPELINE_AUDIO } from "./stage-presets.ts";
import { TtsProviderConfig } from "./tts-config.ts";
import type { ProviderDescriptor } from "./types.ts";

/** PlayHT voice ids are the manifest URLs of its zero-shot voice library. */
const voice = (path: string, name: string) => v(`s3://voice-cloning-zero-shot/${path}/manifest.json`, name);

const JENNIFER = voice("d9ff78ba-d016-47f6-b0ef-dd630f59414e/female-cs", "Jennifer");

export const playht = {
  id: "playht",
  label: "PlayHT",
  credentials: [apiKey, credential("user_id", "User ID")],
  env: { api_key: "PLAYHT_API_KEY", user_id: "PLAYHT_USER_ID" },
  integrationKinds: ["tts"],
  tts: {
    config: TtsProviderConfig,
    defaults: {
      model: "Play3.0-mini",
      voice: JENNIFER.id,
      ...PIPELINE_AUDIO,
      encoding: "raw",
      language: "english",
    },
    models: [
      m("Play3.0-mini", "Play 3.0 mini"),
      m("PlayDialog", "PlayDialog"),
      m("PlayHT2.0-turbo", "PlayHT 2.0 Turbo"),
    ],
    voices: [
      JENNIFER,
      voice("baf1ef41-36b6-428c-9bdf-50ba54682bd8/original", "Angelo"),
      voice("65977f5e-a22a-4b36-861b-ecede19bdd65/original", "Arsenio"),
      voice("1591b954-8760-41a9-bc58-9176a68c5726/original", "Cillian"),
      voice("677a4ae3-252f-476e-85ce-eeed68e85951/original", "Timo"),
      voice("b27bc13e-996f-4841-b584-4d35801aea98/original", "Dexter"),
      voice("29dd9a52-bd32-4a6e-bff1-bbb98dcc286a/original", "Miles"),
      voice("71cdb799-1e03-41c6-8a05-f7cd55134b0b/original", "Briggs"),
      voice("e040bd1b-f190-4bdb-83f0-75ef85b18f84/original", "Deedee"),
    ],
    encodings: ["raw", "wav", "mulaw", "mp3"],
    price: { default: 0.03 },
    ...HOSTED_TTS,
  },
} as const satisfies ProviderDescriptor;
