import { z } from "zod";
import { anthropic } from "./anthropic.ts";
import { assemblyAi } from "./assembly-ai.ts";
import { azureOpenai } from "./azure-openai.ts";
import { cartesia } from "./cartesia.ts";
import { deepgram } from "./deepgram.ts";
import { deepseek } from "./deepseek.ts";
import { idsOf, settingsOptions } from "./derive.ts";
import { elevenlabs } from "./elevenlabs.ts";
import { google } from "./google.ts";
import { groq } from "./groq.ts";
import { hamsa } from "./hamsa.ts";
import { local } from "./local.ts";
import { mistral } from "./mistral.ts";
import { neuphonic } from "./neuphonic.ts";
import { openai } from "./openai.ts";
import { openaiCompatible } from "./openai-compatible.ts";
import { openrouter } from "./openrouter.ts";
import { playht } from "./playht.ts";
import { plivo } from "./plivo.ts";
import { rimeAi } from "./rime-ai.ts";
import { speechmatics } from "./speechmatics.ts";
import { telnyx } from "./telnyx.ts";
import { twilio } from "./twilio.ts";
import type {
  EmbeddingsStage,
  LlmStage,
  ProviderDescriptor,
  RealtimeStage,
  SttStage,
  TelephonyStage,
  TtsStage,
} from "./types.ts";
import { vonage } from "./vonage.ts";
import { whatsapp } from "./whatsapp.ts";

/**
 * The provider registry: every vendor descriptor, and every provider list of the contract derived
 * from them. Adding a vendor means one descriptor file and one line in each list it belongs to.
 */

export { AssemblyAiSttConfig } from "./assembly-ai.ts";
export { DeepgramSttConfig } from "./deepgram.ts";
export { ElevenLabsTtsConfig, ElevenLabsVoiceSettings } from "./elevenlabs.ts";
export { GroqSttConfig } from "./groq.ts";
export { HamsaSttConfig } from "./hamsa.ts";
export { LocalSttConfig } from "./local.ts";
export { OpenAiSttConfig } from "./openai.ts";
export { SpeechmaticsSttConfig } from "./speechmatics.ts";

/** Every provider in display order (the Integrations page order; the offline provider last). */
export const PROVIDERS = [
  openai,
  anthropic,
  google,
  groq,
  deepseek,
  mistral,
  openrouter,
  azureOpenai,
  openaiCompatible,
  deepgram,
  assemblyAi,
  speechmatics,
  hamsa,
  elevenlabs,
  cartesia,
  playht,
  rimeAi,
  neuphonic,
  twilio,
  telnyx,
  vonage,
  plivo,
  whatsapp,
  local,
] as const satisfies readonly ProviderDescriptor[];
export type ProviderId = (typeof PROVIDERS)[number]["id"];

// Each stage lists its providers in the order the editor offers them; the first one is the
// spec §9 default of a new assistant (ASSISTANT_DEFAULTS).

export const LLM_DESCRIPTORS = [
  openai,
  anthropic,
  google,
  groq,
  azureOpenai,
  deepseek,
  mistral,
  openrouter,
  openaiCompatible,
] as const satisfies readonly { llm: LlmStage }[];
export const STT_DESCRIPTORS = [
  deepgram,
  openai,
  groq,
  assemblyAi,
  speechmatics,
  hamsa,
  local,
] as const satisfies readonly { stt: SttStage }[];
export const TTS_DESCRIPTORS = [
  openai,
  playht,
  cartesia,
  elevenlabs,
  deepgram,
  rimeAi,
  neuphonic,
  local,
] as const satisfies readonly { tts: TtsStage }[];
export const TELEPHONY_DESCRIPTORS = [twilio, telnyx, vonage, plivo] as const satisfies readonly {
  telephony: TelephonyStage;
}[];
export const EMBEDDINGS_DESCRIPTORS = [openai, google, openaiCompatible] as const satisfies readonly {
  embeddings: EmbeddingsStage;
}[];

/** Speech-to-speech models (issue 32), in the order the editor offers them; the first is a new realtime assistant's. */
export const REALTIME_DESCRIPTORS = [openai, google] as const satisfies readonly {
  realtime: RealtimeStage;
}[];

// The ids of each stage, as a list and as the schema of one id.
export const LLM_PROVIDERS = idsOf(LLM_DESCRIPTORS);
export const STT_PROVIDERS = idsOf(STT_DESCRIPTORS);
export const TTS_PROVIDERS = idsOf(TTS_DESCRIPTORS);
export const TELEPHONY_PROVIDERS = idsOf(TELEPHONY_DESCRIPTORS);
export const EMBEDDINGS_PROVIDERS = idsOf(EMBEDDINGS_DESCRIPTORS);
/** A realtime model's provider id is its stage's own (`openai-realtime`), not its vendor's; in the descriptors' order. */
export const REALTIME_PROVIDERS = [openai.realtime.id, google.realtime.id] as const;

export const LlmProviderId = z.enum(LLM_PROVIDERS);
export const SttProviderId = z.enum(STT_PROVIDERS);
export const TtsProviderId = z.enum(TTS_PROVIDERS);
export const TelephonyProviderId = z.enum(TELEPHONY_PROVIDERS);
export const EmbeddingsProviderId = z.enum(EMBEDDINGS_PROVIDERS);

export type LlmProviderId = z.infer<typeof LlmProviderId>;
export type SttProviderId = z.infer<typeof SttProviderId>;
export type TtsProviderId = z.infer<typeof TtsProviderId>;
export type TelephonyProviderId = z.infer<typeof TelephonyProviderId>;
export type EmbeddingsProviderId = z.infer<typeof EmbeddingsProviderId>;
export const RealtimeProviderId = z.enum(REALTIME_PROVIDERS);
export type RealtimeProviderId = z.infer<typeof RealtimeProviderId>;

/** Voice-clone services, in the order the clone dialog offers them (each has `tts.supportsClones`). */
export const CLONE_SERVICES = idsOf([elevenlabs, cartesia] as const satisfies readonly {
  tts: { supportsClones: true };
}[]);

export function providerDescriptor(id: string): ProviderDescriptor | undefined {
  return PROVIDERS.find((p) => p.id === id);
}

/** The vendor's display name (a realtime model's own, e.g. "OpenAI Realtime"), or the id itself for an unknown provider. */
export function providerLabel(id: string): string {
  return providerDescriptor(id)?.label ?? REALTIME_DESCRIPTORS.find((d) => d.realtime.id === id)?.realtime.label ?? id;
}

type EnvVariableOf<D> = D extends { readonly env: infer E } ? E[keyof E] : never;
/** A server-wide credential variable (OPENAI_API_KEY, …). */
export type ProviderEnvVariable = EnvVariableOf<(typeof PROVIDERS)[number]>;

/** Every server-wide credential variable of every provider, in display order. */
export const PROVIDER_ENV_VARIABLES: readonly ProviderEnvVariable[] = PROVIDERS.flatMap((p): ProviderEnvVariable[] =>
  Object.values(p.env),
);

// ── typed settings of an assistant ──────────────────────────────────────────

/** The language model of an assistant: the provider and its config, parsed with that provider's schema. */
export const LlmSettings = z.discriminatedUnion("provider", settingsOptions(LLM_DESCRIPTORS, "llm"));
export type LlmSettings = z.infer<typeof LlmSettings>;

/** The transcriber of an assistant: the provider and its spec §3 config. */
export const SttSettings = z.discriminatedUnion("provider", settingsOptions(STT_DESCRIPTORS, "stt"));
export type SttSettings = z.infer<typeof SttSettings>;

/** The voice of an assistant: the provider and its config (typed vendor settings where it has them). */
export const TtsSettings = z.discriminatedUnion("provider", settingsOptions(TTS_DESCRIPTORS, "tts"));
export type TtsSettings = z.infer<typeof TtsSettings>;

export interface LlmFields {
  llm_provider: LlmProviderId;
  llm_provider_config?: unknown;
}
export interface SttFields {
  stt_provider: SttProviderId;
  stt_provider_config?: unknown;
}
export interface TtsFields {
  tts_provider: TtsProviderId;
  tts_provider_config?: unknown;
}

/** An assistant's language model settings, typed by provider. Throws a ZodError on an invalid config. */
export function llmSettingsOf(a: LlmFields): LlmSettings {
  return LlmSettings.parse({ provider: a.llm_provider, config: a.llm_provider_config ?? {} });
}

/** An assistant's transcriber settings, typed by provider (missing fields take their defaults). */
export function sttSettingsOf(a: SttFields): SttSettings {
  return SttSettings.parse({ provider: a.stt_provider, config: a.stt_provider_config ?? {} });
}

/** An assistant's voice settings, typed by provider. Throws a ZodError on an invalid config. */
export function ttsSettingsOf(a: TtsFields): TtsSettings {
  return TtsSettings.parse({ provider: a.tts_provider, config: a.tts_provider_config ?? {} });
}
