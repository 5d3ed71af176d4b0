import {
  type Assistant,
  type Integration,
  LLM_CATALOG,
  providerLabel,
  realtimeIntegration,
  STT_CATALOG,
  TTS_CATALOG,
} from "@parley/contract";

type Providers = Pick<Assistant, "llm_provider" | "stt_provider" | "tts_provider"> &
  Partial<Pick<Assistant, "engine_mode" | "realtime" | "workflow_id">>;

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
  // A realtime assistant's call needs its model's vendor key only (the pipeline is its fallback);
  // one with a workflow runs on the pipeline (docs/realtime.md).
  if (assistant.engine_mode === "realtime" && assistant.realtime && !assistant.workflow_id) {
    needed.push(realtimeIntegration(assistant.realtime.provider));
    return unset(integrations, needed);
  }
  if (LLM_CATALOG[assistant.llm_provider].needsKey) needed.push(assistant.llm_provider);
  if (STT_CATALOG[assistant.stt_provider].needsKey) needed.push(assistant.stt_provider);
  if (TTS_CATALOG[assistant.tts_provider].needsKey) needed.push(assistant.tts_provider);
  return unset(integrations, needed);
}

/** The labels of the providers among `needed` that have no key, neither the workspace's nor the server's. */
function unset(integrations: readonly Integration[], needed: readonly string[]): string[] {
  const missing = needed.filter((provider) => {
    const entry = integrations.find((i) => i.provider === provider);
    return !entry || (!entry.configured && entry.source !== "environment");
  });
  return [...new Set(missing)].map(providerLabel);
}
