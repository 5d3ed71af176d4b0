import { bearerChatAdapters } from "../chat-completions/vendor.ts";
import { cloudOptions } from "../shared/speech-options.ts";
import type { VendorAdapters, VoiceOption } from "../vendor-adapters.ts";
import { createEmbedder } from "./embeddings.ts";
import { OpenAiStt } from "./stt.ts";
import { OpenAiTts } from "./tts.ts";

const VENDOR = {
  id: "openai",
  root: "https://api.openai.com/v1",
  // The reasoning models reject `max_tokens`.
  maxTokensField: "max_completion_tokens",
} as const;

/** OpenAI publishes no voice list endpoint; these are the documented built-in voices. */
const VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"];

export default {
  ...bearerChatAdapters(VENDOR, ["llm", "stt", "tts"]),
  stt: (options) => new OpenAiStt(cloudOptions(VENDOR.id, options)),
  tts: (options) => new OpenAiTts(cloudOptions(VENDOR.id, options)),
  listVoices: async (): Promise<VoiceOption[]> =>
    VOICES.map((id) => ({ id, name: id[0]?.toUpperCase() + id.slice(1) })),
  embeddings: (options) => createEmbedder(VENDOR.root, options),
} satisfies VendorAdapters<"openai">;
