import type { SttProviderId } from "@parley/contract";
import { PocketsphinxStt } from "../local/pocketsphinx-stt.ts";
import type { NetworkDeps, SttProvider } from "../providers/types.ts";
import { AssemblyAiStt } from "./assembly-ai-stt.ts";
import { DeepgramStt } from "./deepgram-stt.ts";
import { GroqStt } from "./groq-stt.ts";
import { HamsaStt } from "./hamsa-stt.ts";
import { OpenAiStt } from "./openai-stt.ts";
import { type CloudProviderOptions, missingKeyError } from "./provider-config.ts";
import { SpeechmaticsStt } from "./speechmatics-stt.ts";

export interface CreateSttOptions {
  /** The workspace's stored credentials for this provider (`api_key`), or null when none are set. */
  credentials: Record<string, string> | null;
  /** The assistant's stt_provider_config. */
  config: Record<string, unknown>;
  net: NetworkDeps;
  /** Replaces the vendor's scheme and host (tests, proxies). */
  baseUrl?: string;
}

type CloudSttId = Exclude<SttProviderId, "local">;
type CloudOptions = CloudProviderOptions<Record<string, unknown>>;

const CLOUD_STT: Record<CloudSttId, { name: string; create(options: CloudOptions): SttProvider }> = {
  deepgram: { name: "Deepgram", create: (o) => new DeepgramStt(o) },
  openai: { name: "OpenAI", create: (o) => new OpenAiStt(o) },
  groq: { name: "Groq", create: (o) => new GroqStt(o) },
  "assembly-ai": { name: "AssemblyAI", create: (o) => new AssemblyAiStt(o) },
  speechmatics: { name: "Speechmatics", create: (o) => new SpeechmaticsStt(o) },
  hamsa: { name: "Hamsa", create: (o) => new HamsaStt(o) },
};

/** Builds the speech-to-text adapter of an assistant's transcriber; a cloud one needs an `api_key`. */
export function createSttProvider(id: SttProviderId, options: CreateSttOptions): SttProvider {
  // The offline recogniser needs no key and no network.
  if (id === "local") return new PocketsphinxStt(options.config);
  const entry = CLOUD_STT[id];
  const apiKey = options.credentials?.api_key?.trim();
  if (!apiKey) throw missingKeyError(entry.name);
  return entry.create({ apiKey, config: options.config, net: options.net, baseUrl: options.baseUrl });
}
