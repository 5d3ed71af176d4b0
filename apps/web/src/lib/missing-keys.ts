import {
  type Assistant,
  type Integration,
  LLM_CATALOG,
  providerLabel,
  STT_CATALOG,
  TTS_CATALOG,
} from "@parley/contract";

type Providers = Pick<Assistant, "llm_provider" | "stt_provider" | "tts_provider">;

/**
 * The providers (as labels) whose key a call with these settings needs but neither the workspace
 * nor the server has. Undefined while the integrations list is unknown, so nothing is refused early.
 */
export function missingKeyProviders(
  integrations: readonly Integration[] | undefined,
  assistant: Providers,
): string[] | undefined {
  if (!integrations) return undefined;
  const needed: string[] = [];
  if (LLM_CATALOG[assistant.llm_provider].needsKey) needed.push(assistant.llm_provider);
  if (STT_CATALOG[assistant.stt_provider].needsKey) needed.push(assistant.stt_provider);
  if (TTS_CATALOG[assistant.tts_provider].needsKey) needed.push(assistant.tts_provider);
  const missing = needed.filter((provider) => {
    const entry = integrations.find((i) => i.provider === provider);
    return !entry || (!entry.configured && entry.source !== "environment");
  });
  return [...new Set(missing)].map(providerLabel);
}
