import type { z } from "zod";
import type { CredentialField, IntegrationKind } from "./credentials.ts";
import type { BuiltinVoice, LanguageOption, ModelOption, SettingFieldSpec, SttFieldSpec } from "./editor-options.ts";
import type { LlmProviderConfig } from "./llm-config.ts";
import type { TtsProviderConfig } from "./tts-config.ts";

/**
 * What one vendor is: its credentials, the pipeline stages it serves and, per stage, its models,
 * voices, languages, editor fields, defaults and list prices. Each vendor has one descriptor file
 * in this folder; every provider list of the contract is derived from those descriptors.
 * These types name only the schemas below the descriptors (options, credentials, configs), never
 * a list derived from the descriptors, so no import runs back up.
 */

export type ProviderStage = "llm" | "stt" | "tts" | "telephony" | "embeddings" | "realtime";

/** USD per minute, optionally by model. */
export interface PerMinute {
  readonly default: number;
  readonly models?: Readonly<Record<string, number>>;
}
/** USD per million input / output tokens. */
export interface TokenPrice {
  readonly input: number;
  readonly output: number;
}
export interface PerToken {
  readonly default: TokenPrice;
  readonly models?: Readonly<Record<string, TokenPrice>>;
}
/** USD per million tokens embedded, optionally by model. */
export interface PerMillionTokens {
  readonly default: number;
  readonly models?: Readonly<Record<string, number>>;
}

interface StageBase {
  /** The name the editor shows for this stage when it differs from the vendor's (a product line, an offline engine). */
  readonly label?: string;
  readonly models: readonly ModelOption[];
  readonly needsKey: boolean;
  /** Runs without the internet (on this server or a local one such as Ollama). */
  readonly offline: boolean;
}

export interface LlmStage extends StageBase {
  readonly config: z.ZodObject;
  readonly defaults: LlmProviderConfig;
  readonly price: PerToken;
  readonly needsBaseUrl: boolean;
  /** Models are reached through a named deployment of the account (`llm_provider_config.deployment`). */
  readonly needsDeployment?: boolean;
}

export interface SttStage extends StageBase {
  /** The spec §3 fields of this transcriber with their spec §9 defaults (parse `{}` for the defaults). */
  readonly config: z.ZodObject;
  readonly languages: readonly LanguageOption[];
  /** The config fields as the editor renders them, in order. */
  readonly fields: readonly SttFieldSpec[];
  /** Per minute of caller audio streamed (the whole call is streamed). */
  readonly price: PerMinute;
  /** Shown next to the provider in the editor. */
  readonly note?: string;
}

export interface TtsStage extends StageBase {
  readonly config: z.ZodObject;
  readonly defaults: TtsProviderConfig;
  /** Real vendor voice ids, so an assistant works before anyone fetched the live list. */
  readonly voices: readonly BuiltinVoice[];
  readonly encodings: readonly string[];
  /** Per minute of call, assuming the assistant speaks about half of it. */
  readonly price: PerMinute;
  /** Voice clones of the workspace are merged into this provider's list. */
  readonly supportsClones: boolean;
  /** Every account has the same voices, so a key lists nothing beyond the built-in ones. */
  readonly sharedVoices?: boolean;
  /** Vendor voice settings (`tts_provider_config.settings`) with their bounds and defaults. */
  readonly settings?: readonly SettingFieldSpec[];
}

export interface TelephonyStage {
  /** USD per PSTN minute through this carrier. */
  readonly pricePerMinute: number;
}

export interface EmbeddingsStage {
  readonly models: readonly ModelOption[];
  /** Vector length by model. */
  readonly dimensions: Readonly<Record<string, number>>;
  readonly defaultModel: string;
  readonly price: PerMillionTokens;
}

/** USD per million tokens of a speech-to-speech model, by modality (audio and text are priced apart). */
export interface RealtimeTokenPrice {
  readonly textInput: number;
  readonly audioInput: number;
  /** Input the vendor served from its cache (either modality; a vendor without caching repeats its text input price). */
  readonly cachedInput: number;
  readonly textOutput: number;
  readonly audioOutput: number;
}

/**
 * A vendor's speech-to-speech ("realtime") models (issue 32): one model hears the caller and answers
 * in audio. It has a provider id of its own (an assistant's `realtime.provider`, the engine folder,
 * the faults), and is reached with its vendor's integration key.
 */
export interface RealtimeStage {
  readonly id: string;
  readonly label: string;
  readonly models: readonly ModelOption[];
  readonly voices: readonly BuiltinVoice[];
  /** Models that transcribe the caller for the call log; [] when the vendor transcribes with the model itself. */
  readonly transcriptionModels: readonly ModelOption[];
  readonly price: {
    readonly default: RealtimeTokenPrice;
    readonly models?: Readonly<Record<string, RealtimeTokenPrice>>;
  };
  /** Audio tokens a minute of speech takes each way, for the per-minute estimate. */
  readonly audioTokensPerMinute: { readonly input: number; readonly output: number };
}

export interface ProviderDescriptor {
  readonly id: string;
  readonly label: string;
  /** Integration credential fields (api_key, …); [] for providers that need none. */
  readonly credentials: readonly CredentialField[];
  /** Server-wide environment variable per credential field, e.g. { api_key: "X_API_KEY" }. */
  readonly env: Readonly<Record<string, string>>;
  /** How the Integrations page groups it, main use first; [] keeps it off that page. */
  readonly integrationKinds: readonly IntegrationKind[];
  readonly llm?: LlmStage;
  readonly stt?: SttStage;
  readonly tts?: TtsStage;
  readonly telephony?: TelephonyStage;
  readonly embeddings?: EmbeddingsStage;
  readonly realtime?: RealtimeStage;
}
