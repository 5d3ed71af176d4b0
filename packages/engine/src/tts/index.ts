import type { TtsProviderConfig, TtsProviderId } from "@parley/contract";
import { EspeakTts } from "../local/espeak-tts.ts";
import { ProviderError } from "../providers/provider-error.ts";
import type { NetworkDeps, TtsProvider } from "../providers/types.ts";
import { type CloudProviderOptions, missingKeyError } from "../stt/provider-config.ts";
import { CartesiaTts } from "./cartesia-tts.ts";
import { DeepgramTts } from "./deepgram-tts.ts";
import { ElevenLabsTts } from "./elevenlabs-tts.ts";
import { NeuphonicTts } from "./neuphonic-tts.ts";
import { OpenAiTts } from "./openai-tts.ts";
import { PlayHtTts } from "./playht-tts.ts";
import { RimeTts } from "./rime-tts.ts";

export interface CreateTtsOptions {
  /** The workspace's stored credentials for this provider (`api_key`; PlayHT also `user_id`), or null. */
  credentials: Record<string, string> | null;
  /** The assistant's tts_provider_config. */
  config: TtsProviderConfig;
  net: NetworkDeps;
  /** Replaces the vendor's scheme and host (tests, proxies). */
  baseUrl?: string;
}

type CloudTtsId = Exclude<TtsProviderId, "local">;
type Factory = (options: CloudProviderOptions<TtsProviderConfig>, credentials: Record<string, string>) => TtsProvider;

const CLOUD_TTS: Record<CloudTtsId, { name: string; create: Factory }> = {
  openai: { name: "OpenAI", create: (o) => new OpenAiTts(o) },
  elevenlabs: { name: "ElevenLabs", create: (o) => new ElevenLabsTts(o) },
  cartesia: { name: "Cartesia", create: (o) => new CartesiaTts(o) },
  deepgram: { name: "Deepgram", create: (o) => new DeepgramTts(o) },
  playht: {
    name: "PlayHT",
    create: (o, credentials) => {
      const userId = credentials.user_id?.trim();
      if (!userId) throw new ProviderError("PlayHT", "No user ID for PlayHT. Add it on the Integrations page.", false);
      return new PlayHtTts({ ...o, userId });
    },
  },
  "rime-ai": { name: "Rime", create: (o) => new RimeTts(o) },
  neuphonic: { name: "Neuphonic", create: (o) => new NeuphonicTts(o) },
};

/** Builds the text-to-speech adapter of an assistant's voice; a cloud one needs an `api_key`. */
export function createTtsProvider(id: TtsProviderId, options: CreateTtsOptions): TtsProvider {
  // The offline voice needs no key and no network.
  if (id === "local") return new EspeakTts(options.config);
  const entry = CLOUD_TTS[id];
  const credentials = options.credentials ?? {};
  const apiKey = credentials.api_key?.trim();
  if (!apiKey) throw missingKeyError(entry.name);
  return entry.create({ apiKey, config: options.config, net: options.net, baseUrl: options.baseUrl }, credentials);
}
