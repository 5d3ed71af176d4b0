import {
  ElevenLabsVoiceSettings,
  LLM_DEFAULT_CONFIG,
  LlmProviderConfig,
  type LlmProviderId,
  STT_CONFIG_SCHEMAS,
  type SttProviderId,
  sttDefaultConfig,
  TTS_DEFAULT_CONFIG,
  TtsProviderConfig,
  type TtsProviderId,
} from "@parley/contract";
import type { z } from "zod";
import { AppError } from "../../lib/app-error.ts";

/**
 * The provider configuration objects of an assistant are filled in, not replaced: what the caller
 * sends is laid over a base (the provider's defaults when the provider is new or changed, the
 * stored config otherwise) and then validated with that provider's schema. So a client that
 * sends only `{language: "es"}` or switches provider without a config still saves a complete,
 * valid configuration (spec §4: a provider change resets model and config to its defaults).
 */

type Loose = Record<string, unknown>;

function fail(field: string, error: z.ZodError): never {
  const parts = error.issues.map((issue) => {
    const path = [field, ...issue.path.map(String)].join(".");
    return `${path}: ${issue.message}`;
  });
  throw new AppError("validation", parts.join("; "));
}

function validated<T>(schema: z.ZodType<T>, field: string, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) fail(field, result.error);
  return result.data;
}

export interface ProviderChange<P, C> {
  provider: P;
  /** The provider stored before this change (undefined on create). */
  previousProvider?: P | undefined;
  /** The config stored before this change (undefined on create). */
  previous?: C | undefined;
  /** What the caller sent for the config (undefined when absent). */
  given?: Loose | undefined;
}

function base<P, C>(change: ProviderChange<P, C>, defaults: C): C {
  const keep = change.previous !== undefined && change.previousProvider === change.provider;
  return keep ? (change.previous as C) : defaults;
}

/** The transcriber config for a provider, validated through STT_CONFIG_SCHEMAS (spec §3 fields). */
export function resolveSttConfig(change: ProviderChange<SttProviderId, Loose>): Loose {
  const start = base(change, sttDefaultConfig(change.provider) as Loose);
  const schema = STT_CONFIG_SCHEMAS[change.provider] as unknown as z.ZodType<Loose>;
  return validated(schema, "body.stt_provider_config", { ...start, ...(change.given ?? {}) });
}

export function resolveLlmConfig(change: ProviderChange<LlmProviderId, LlmProviderConfig>): LlmProviderConfig {
  const start = base(change, LLM_DEFAULT_CONFIG[change.provider]);
  return validated(LlmProviderConfig, "body.llm_provider_config", { ...start, ...(change.given ?? {}) });
}

/** The voice config; ElevenLabs voice settings are merged over their spec §9 defaults and range-checked. */
export function resolveTtsConfig(change: ProviderChange<TtsProviderId, TtsProviderConfig>): TtsProviderConfig {
  const start = base(change, TTS_DEFAULT_CONFIG[change.provider]);
  const given = change.given ?? {};
  const merged: Loose = { ...start, ...given };
  if (change.provider === "elevenlabs") {
    const settings = { ...(start.settings ?? {}), ...((given.settings as Loose | undefined) ?? {}) };
    merged.settings = validated(ElevenLabsVoiceSettings, "body.tts_provider_config.settings", settings);
  }
  return validated(TtsProviderConfig, "body.tts_provider_config", merged);
}
