import { EMBEDDINGS_PROVIDERS, type EmbeddingsProviderId, providerDescriptor, providerLabel } from "@parley/contract";

export interface SelectOption {
  value: string;
  label: string;
}

/** The providers with an embeddings stage, by their display names; "no provider" is the dialog's own choice. */
export function embeddingsProviderOptions(): SelectOption[] {
  return EMBEDDINGS_PROVIDERS.map((id) => ({ value: id, label: providerLabel(id) }));
}

/** The select's value back to a provider id: anything not offered (the empty choice) is keyword search. */
export function embeddingsProviderOf(value: string): EmbeddingsProviderId | null {
  return EMBEDDINGS_PROVIDERS.find((id) => id === value) ?? null;
}

/**
 * A provider's embeddings models. A model saved through the API that the catalog does not list
 * (self-hosted servers name their own) is offered too, so opening the dialog never changes it.
 */
export function embeddingsModelOptions(provider: EmbeddingsProviderId | null, saved: string | null): SelectOption[] {
  if (!provider) return [];
  const models = providerDescriptor(provider)?.embeddings?.models ?? [];
  const options = models.map((model) => ({ value: model.value, label: model.label ?? model.value }));
  if (saved && !options.some((option) => option.value === saved)) options.push({ value: saved, label: saved });
  return options;
}

/** The model a newly picked provider starts with. */
export function defaultEmbeddingsModel(provider: EmbeddingsProviderId | null): string | null {
  return provider ? (providerDescriptor(provider)?.embeddings?.defaultModel ?? null) : null;
}
