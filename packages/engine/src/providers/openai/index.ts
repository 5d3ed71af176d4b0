import { bearerChatLlm, bearerModelListing } from "../chat-completions/vendor.ts";
import { modelCountCheck } from "../shared/account-checks.ts";
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
const listModels = bearerModelListing(VENDOR, ["llm", "stt", "tts"]);

/** OpenAI publishes no voice list endpoint; these are the documented built-in voices. */
const VOICES = ["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"];

export default {
  llm: (options) => bearerChatLlm(VENDOR, options),
  stt: (options) => new OpenAiStt(cloudOptions(VENDOR.id, options)),
  tts: (options) => new OpenAiTts(cloudOptions(VENDOR.id, options)),
  listModels,
  listVoices: async (): Promise<VoiceOption[]> =>
    VOICES.map((id) => ({ id, name: id[0]?.toUpperCase() + id.slice(1) })),
  testConnection: modelCountCheck(VENDOR.id, listModels),
  embeddings: (options) => createEmbedder(VENDOR.root, options),
} satisfies VendorAdapters<"openai">;
