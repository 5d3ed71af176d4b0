import type { TtsProviderId } from "./assistants.ts";
import type { ModelOption } from "./catalog.ts";

/**
 * Built-in voices, models and output encodings of every text-to-speech provider: real vendor
 * voice ids, so an assistant works before anyone fetched the live list. With a workspace key the
 * server adds the vendor's own list (GET /voices/{provider}).
 */

export interface BuiltinVoice {
  id: string;
  name: string;
}

export interface TtsProviderInfo {
  label: string;
  models: ModelOption[];
  voices: BuiltinVoice[];
  encodings: string[];
  needsKey: boolean;
  offline: boolean;
  /** Voice clones of the workspace are merged into this provider's list. */
  supportsClones: boolean;
}

const v = (id: string, name: string): BuiltinVoice => ({ id, name });
const playht = (path: string, name: string) => v(`s3://voice-cloning-zero-shot/${path}/manifest.json`, name);

export const TTS_CATALOG: Record<TtsProviderId, TtsProviderInfo> = {
  openai: {
    label: "OpenAI",
    models: [
      { value: "tts-1", label: "TTS-1 (fast)" },
      { value: "tts-1-hd", label: "TTS-1 HD" },
      { value: "gpt-4o-mini-tts", label: "GPT-4o mini TTS" },
    ],
    voices: ["alloy", "ash", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"].map((id) =>
      v(id, id.charAt(0).toUpperCase() + id.slice(1)),
    ),
    encodings: ["pcm", "wav", "mp3", "opus", "aac", "flac"],
    needsKey: true,
    offline: false,
    supportsClones: false,
  },
  playht: {
    label: "PlayHT",
    models: [
      { value: "Play3.0-mini", label: "Play 3.0 mini" },
      { value: "PlayDialog", label: "PlayDialog" },
      { value: "PlayHT2.0-turbo", label: "PlayHT 2.0 Turbo" },
    ],
    voices: [
      playht("d9ff78ba-d016-47f6-b0ef-dd630f59414e/female-cs", "Jennifer"),
      playht("baf1ef41-36b6-428c-9bdf-50ba54682bd8/original", "Angelo"),
      playht("65977f5e-a22a-4b36-861b-ecede19bdd65/original", "Arsenio"),
      playht("1591b954-8760-41a9-bc58-9176a68c5726/original", "Cillian"),
      playht("677a4ae3-252f-476e-85ce-eeed68e85951/original", "Timo"),
      playht("b27bc13e-996f-4841-b584-4d35801aea98/original", "Dexter"),
      playht("29dd9a52-bd32-4a6e-bff1-bbb98dcc286a/original", "Miles"),
      playht("71cdb799-1e03-41c6-8a05-f7cd55134b0b/original", "Briggs"),
      playht("e040bd1b-f190-4bdb-83f0-75ef85b18f84/original", "Deedee"),
    ],
    encodings: ["raw", "wav", "mulaw", "mp3"],
    needsKey: true,
    offline: false,
    supportsClones: false,
  },
  cartesia: {
    label: "Cartesia",
    models: [
      { value: "sonic-2", label: "Sonic 2" },
      { value: "sonic-turbo", label: "Sonic Turbo" },
      { value: "sonic-3", label: "Sonic 3" },
    ],
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
    needsKey: true,
    offline: false,
    supportsClones: true,
  },
  elevenlabs: {
    label: "ElevenLabs",
    models: [
      { value: "eleven_flash_v2_5", label: "Flash v2.5" },
      { value: "eleven_turbo_v2_5", label: "Turbo v2.5" },
      { value: "eleven_multilingual_v2", label: "Multilingual v2" },
    ],
    voices: [
      v("21m00Tcm4TlvDq8ikWAM", "Rachel"),
      v("EXAVITQu4vr4xnSDxMaL", "Sarah"),
      v("9BWtsMINqrJLrRacOk9x", "Aria"),
      v("FGY2WhTYpPnrIDTdsKH5", "Laura"),
      v("XB0fDUnXU5powFXDhCwa", "Charlotte"),
      v("XrExE9yKIg1WjnnlVkGX", "Matilda"),
      v("pFZP5JQG7iQjIQuC4Bku", "Lily"),
      v("pNInz6obpgDQGcFmaJgB", "Adam"),
      v("CwhRBWXzGAHq8TQ4Fs17", "Roger"),
      v("JBFqnCBsd6RMkjVDRZzb", "George"),
      v("TX3LPaxmHKxFdv7VOQHJ", "Liam"),
      v("nPczCjzI2devNBz1zQrb", "Brian"),
      v("onwK4e9ZLuTAKqWW03F9", "Daniel"),
      v("iP95p4xoKVk53GoZ742B", "Chris"),
    ],
    encodings: ["pcm_16000", "pcm_22050", "pcm_24000", "ulaw_8000", "mp3_44100_128"],
    needsKey: true,
    offline: false,
    supportsClones: true,
  },
  deepgram: {
    label: "Deepgram Aura",
    models: [
      { value: "aura-2", label: "Aura-2" },
      { value: "aura", label: "Aura" },
    ],
    voices: [
      v("aura-2-thalia-en", "Thalia"),
      v("aura-2-andromeda-en", "Andromeda"),
      v("aura-2-helena-en", "Helena"),
      v("aura-2-apollo-en", "Apollo"),
      v("aura-2-arcas-en", "Arcas"),
      v("aura-2-aries-en", "Aries"),
      v("aura-2-asteria-en", "Asteria"),
      v("aura-2-luna-en", "Luna"),
      v("aura-2-orion-en", "Orion"),
      v("aura-2-zeus-en", "Zeus"),
      v("aura-2-celeste-es", "Celeste (Spanish)"),
      v("aura-2-nestor-es", "Néstor (Spanish)"),
      v("aura-asteria-en", "Asteria (Aura)"),
      v("aura-orion-en", "Orion (Aura)"),
    ],
    encodings: ["linear16", "mulaw", "alaw"],
    needsKey: true,
    offline: false,
    supportsClones: false,
  },
  "rime-ai": {
    label: "Rime",
    models: [
      { value: "mistv2", label: "Mist v2" },
      { value: "arcana", label: "Arcana" },
    ],
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
    needsKey: true,
    offline: false,
    supportsClones: false,
  },
  neuphonic: {
    label: "Neuphonic",
    models: [
      { value: "neu_hq", label: "High quality" },
      { value: "neu_fast", label: "Fast" },
    ],
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
    needsKey: true,
    offline: false,
    supportsClones: false,
  },
  local: {
    label: "Local (offline, eSpeak NG)",
    models: [{ value: "espeak-ng", label: "eSpeak NG" }],
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
    needsKey: false,
    offline: true,
    supportsClones: false,
  },
};
