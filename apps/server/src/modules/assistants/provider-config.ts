import {
  LLM_DEFAULT_CONFIG,
  type LlmProviderConfig,
  type LlmProviderId,
  LlmSettings,
  providerDescriptor,
  type SttProviderId,
  SttSettings,
  sttDefaultConfig,
  TTS_DEFAULT_CONFIG,
  type TtsProviderConfig,
  type TtsProviderId,
  TtsSettings,
} from "@parley/contract";
import type { z } from "zod";
import { validationFailed } from "../../lib/field-errors.ts";

/**
 * The provider configuration objects of an assistant are filled in, not replaced: what the caller
 * sends is laid over a base (the provider's defaults when the provider is new or changed, the
 * stored config otherwise) and then validated with that provider's schema, taken from its
 * descriptor through the contract's settings unions. So a client that sends only
 * `{language: "es"}` or switches provider without a config still saves a complete, valid
 * configuration (spec §4: a provider change resets model and config to its defaults).
 */

type Loose = Record<string, unknown>;

function fail(field: string, error: z.ZodError): never {
  throw validationFailed(
    error.issues.map((issue) => {
      // The unions validate `{ provider, config }`; the caller sent the config under `field`.
      const inConfig = issue.path[0] === "config" ? issue.path.slice(1) : issue.path;
      return { ...issue, path: [field, ...inConfig] };
    }),
  );
}

/** The config of `{ provider, config }` once the provider's own schema accepts it. */
function validatedConfig<S extends { config: unknown }>(
  settings: z.ZodType<S>,
  field: string,
  provider: string,
  config: Loose,
): S["config"] {
  const result = settings.safeParse({ provider, config });
  if (!result.success) fail(field, result.error);
  return result.data.config;
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
  const kept = change.previousProvider === change.provider ? change.previous : undefined;
  return kept ?? defaults;
}

/** The transcriber config for a provider, with the spec §3 fields of its descriptor's schema. */
export function resolveSttConfig(change: ProviderChange<SttProviderId, Loose>): Loose {
  const start = base<SttProviderId, Loose>(change, sttDefaultConfig(change.provider));
  return validatedConfig(SttSettings, "stt_provider_config", change.provider, { ...start, ...change.given });
}

export function resolveLlmConfig(change: ProviderChange<LlmProviderId, LlmProviderConfig>): LlmProviderConfig {
  const start = base(change, LLM_DEFAULT_CONFIG[change.provider]);
  return validatedConfig(LlmSettings, "llm_provider_config", change.provider, { ...start, ...change.given });
}

/**
 * The voice config. A provider whose descriptor lists voice settings has them merged over their
 * spec §9 defaults and range-checked by its schema; elsewhere `settings` is replaced as sent.
 */
export function resolveTtsConfig(change: ProviderChange<TtsProviderId, TtsProviderConfig>): TtsProviderConfig {
  const start = base(change, TTS_DEFAULT_CONFIG[change.provider]);
  const given = change.given ?? {};
  const merged: Loose = { ...start, ...given };
  if (providerDescriptor(change.provider)?.tts?.settings) {
    merged.settings = { ...(start.settings ?? {}), ...((given.settings as Loose | undefined) ?? {}) };
  }
  return validatedConfig(TtsSettings, "tts_provider_config", change.provider, merged);
}
