import { providerDescriptor, type SettingFieldSpec } from "@parley/contract";

/** What the editor needs to know of a provider, read from its contract descriptor (no vendor names here). */

export const llmNeedsBaseUrl = (provider: string) => providerDescriptor(provider)?.llm?.needsBaseUrl ?? false;

/** A provider that reaches models through a named deployment needs one on every assistant. */
export const llmNeedsDeployment = (provider: string) => providerDescriptor(provider)?.llm?.needsDeployment ?? false;

/** The vendor's own voice settings (`tts_provider_config.settings`), none for most providers. */
export const ttsSettingFields = (provider: string): readonly SettingFieldSpec[] =>
  providerDescriptor(provider)?.tts?.settings ?? [];

/**
 * A local server named by its base URL (Ollama, vLLM, LM Studio): its models are whatever it has, so
 * the editor offers the list the server itself gives.
 */
export function llmListsServerModels(provider: string): boolean {
  const llm = providerDescriptor(provider)?.llm;
  return Boolean(llm?.needsBaseUrl && llm.offline);
}
