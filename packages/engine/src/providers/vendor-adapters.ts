import type { ProviderSettings } from "@parley/contract";
import type { TelephonyAdapter } from "../telephony/types.ts";
import type { StreamTimeouts } from "./shared/sse-stream.ts";
import type { LlmProvider, NetworkDeps, SttProvider, TtsProvider } from "./types.ts";

/** A workspace's stored secrets for one vendor (`api_key` and whatever else it needs), or null. */
export type Credentials = Record<string, string> | null;

/** The three stages of a call's pipeline. */
export type Stage = keyof ProviderSettings;

/**
 * The typed config one vendor's adapter of a stage is built from: the contract's settings union
 * narrowed to that vendor. Without a vendor it is the union of every vendor's config of the stage.
 */
export type StageConfig<S extends Stage, Id extends string = string> = Extract<
  ProviderSettings[S],
  { provider: Id }
>["config"];

export interface StageProvider {
  llm: LlmProvider;
  stt: SttProvider;
  tts: TtsProvider;
}

/** What a provider of one stage is built from. */
export interface ProviderOptions<Config> {
  credentials: Credentials;
  /** The assistant's configuration of this stage, already checked with the vendor's schema. */
  config: Config;
  net: NetworkDeps;
  /** Replaces the vendor's origin (scheme, host, port), keeping its paths: for tests. */
  baseUrl?: string;
  /** Language models: bounds on the streamed answer. */
  timeouts?: Partial<StreamTimeouts>;
}

/** Each stage's adapter factory of one vendor (`Id`), typed with that vendor's own config. */
export type StageFactories<Id extends string = string> = {
  [S in Stage]: (options: ProviderOptions<StageConfig<S, Id>>) => StageProvider[S];
};

export type ModelKind = Stage;

export interface CatalogOptions {
  /** Replaces the vendor's origin, keeping its paths: for tests. */
  baseUrl?: string;
  /** Narrows the voices to one model where the vendor ties voices to models. */
  model?: string;
  /** The API version to ask with, for vendors that version their API by query. */
  apiVersion?: string;
}

/** A vendor's live model list, for the products (stages) it can list. */
export interface ModelListing {
  kinds: readonly ModelKind[];
  list(kind: ModelKind, credentials: Credentials, net: NetworkDeps, options: CatalogOptions): Promise<string[]>;
}

export interface VoiceOption {
  id: string;
  name: string;
}

/** One account probe: calls the vendor and describes what it found, or throws a ProviderError. */
export type AccountCheck = (credentials: Credentials, net: NetworkDeps, baseUrl?: string) => Promise<string>;

/** Turns texts into vectors, one per text in order (knowledge-base search). */
export interface Embedder {
  readonly provider: string;
  readonly model: string;
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface EmbedderOptions {
  credentials: Credentials;
  /** The model to embed with (the contract's embeddings stage lists them). */
  model: string;
  net: NetworkDeps;
  /** Replaces the vendor's origin (scheme, host, port), keeping its paths: for tests. */
  baseUrl?: string;
}

export interface VoiceCloneInput {
  name: string;
  description?: string;
  language?: string;
  files: { filename: string; contentType: string; data: Buffer }[];
}

export interface VoiceClones {
  create(
    credentials: Credentials,
    input: VoiceCloneInput,
    net: NetworkDeps,
    options: CatalogOptions,
  ): Promise<{ serviceVoiceId: string }>;
  delete(credentials: Credentials, serviceVoiceId: string, net: NetworkDeps, options: CatalogOptions): Promise<void>;
}

/**
 * Everything one vendor folder offers: its stage adapters and its catalog calls. A folder declares
 * `satisfies VendorAdapters<"<its id>">`; the loader hands it only settings of that id.
 */
export interface VendorAdapters<Id extends string = string> extends Partial<StageFactories<Id>> {
  listModels?: ModelListing;
  listVoices?: (credentials: Credentials, net: NetworkDeps, options: CatalogOptions) => Promise<VoiceOption[]>;
  testConnection?: AccountCheck;
  voiceClones?: VoiceClones;
  embeddings?: (options: EmbedderOptions) => Embedder;
  /** Numbers, webhooks, media stream and call control of a telephony vendor. */
  telephony?: TelephonyAdapter;
}

const FUNCTION_KEYS = ["llm", "stt", "tts", "listVoices", "testConnection", "embeddings"] as const;

/** Checks what a vendor folder's index default-exports, so a broken folder fails loudly at load. */
export function isVendorAdapters(value: unknown): value is VendorAdapters {
  if (typeof value !== "object" || value === null) return false;
  const fields = new Map(Object.entries(value));
  const optionalFunction = (key: string) => !fields.has(key) || typeof fields.get(key) === "function";
  const optionalObject = (key: string, members: string[]) => {
    if (!fields.has(key)) return true;
    const member = fields.get(key);
    return typeof member === "object" && member !== null && members.every((m) => m in member);
  };
  return (
    FUNCTION_KEYS.every(optionalFunction) &&
    optionalObject("listModels", ["kinds", "list"]) &&
    optionalObject("voiceClones", ["create", "delete"]) &&
    optionalObject("telephony", ["listNumbers", "createStreamCodec", "placeCall"])
  );
}
