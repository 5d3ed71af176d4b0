import {
  LLM_CATALOG,
  LLM_PROVIDERS,
  type MlModelsResponse,
  type ModelOption,
  type ModelsResponse,
  type ProviderKind,
  STT_CATALOG,
  STT_PROVIDERS,
  type SttProviderId,
  sttDefaultConfig,
  type TranscriberResponse,
  TTS_CATALOG,
  TTS_PROVIDERS,
  type TtsProviderId,
} from "@parley/contract";

/** The offline half of the catalog: everything answered from the contract's built-in tables. */

const isIn = <T extends string>(list: readonly T[], id: string): id is T => (list as readonly string[]).includes(id);

export const isTtsProvider = (id: string): id is TtsProviderId => isIn(TTS_PROVIDERS, id);
export const isSttProvider = (id: string): id is SttProviderId => isIn(STT_PROVIDERS, id);

function modelsOf(kind: ProviderKind, provider: string): ModelOption[] | undefined {
  if (kind === "llm" && isIn(LLM_PROVIDERS, provider)) return LLM_CATALOG[provider].models;
  if (kind === "stt" && isSttProvider(provider)) return STT_CATALOG[provider].models;
  if (kind === "tts" && isTtsProvider(provider)) return TTS_CATALOG[provider].models;
  return undefined;
}

const KINDS: ProviderKind[] = ["llm", "tts", "stt"];

/**
 * GET /models/{id}: a provider id (looked up as a language model provider first, the model tab's
 * use, then voice, then transcriber), or a model id, answered with its provider's models.
 */
export function modelsFor(id: string): ModelsResponse | undefined {
  for (const kind of KINDS) {
    const models = modelsOf(kind, id);
    if (models) return { provider: id, models };
  }
  for (const kind of KINDS) {
    const providers: readonly string[] =
      kind === "llm" ? LLM_PROVIDERS : kind === "tts" ? TTS_PROVIDERS : STT_PROVIDERS;
    for (const provider of providers) {
      const models = modelsOf(kind, provider) ?? [];
      if (models.some((m) => m.value === id)) return { provider, models };
    }
  }
  return undefined;
}

/** GET /ml-models: every built-in model, optionally of one kind and/or one provider. */
export function mlModels(filter: { type?: ProviderKind | undefined; provider?: string | undefined }): MlModelsResponse {
  const models: MlModelsResponse["models"] = [];
  for (const type of KINDS) {
    if (filter.type && filter.type !== type) continue;
    const providers: readonly string[] =
      type === "llm" ? LLM_PROVIDERS : type === "tts" ? TTS_PROVIDERS : STT_PROVIDERS;
    for (const provider of providers) {
      if (filter.provider && filter.provider !== provider) continue;
      for (const m of modelsOf(type, provider) ?? []) {
        models.push({ value: m.value, label: m.label ?? m.value, provider, type });
      }
    }
  }
  return { models };
}

/** GET /transcribers/{provider}: what the transcriber tab needs to render and reset a provider. */
export function transcriber(provider: SttProviderId): TranscriberResponse {
  const entry = STT_CATALOG[provider];
  return {
    provider,
    models: entry.models,
    languages: entry.languages,
    defaults: sttDefaultConfig(provider),
    fields: entry.fields,
  };
}

/** Model ids from a live list, with the built-in table's label where it knows the model. */
export function withLabels(ids: readonly string[], known: readonly ModelOption[]): ModelOption[] {
  const labels = new Map(known.map((m) => [m.value, m.label]));
  return ids.map((value) => {
    const label = labels.get(value);
    return label ? { value, label } : { value };
  });
}
