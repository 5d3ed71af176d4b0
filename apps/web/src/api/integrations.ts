import { type Integration, IntegrationsResponse, LLM_CATALOG, STT_CATALOG, TTS_CATALOG } from "@parley/contract";
import { useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { api } from "../lib/http-client.ts";

/** The workspace's credentials for every provider (masked); members may read them too. */
export const integrationKeys = { list: (workspaceId: string) => [workspaceId, "integrations"] as const };

export function useIntegrations() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: integrationKeys.list(workspaceId),
    queryFn: async () => IntegrationsResponse.parse(await api.request("/integrations")).integrations,
  });
}

/** A call stage, each with its own catalog of providers. */
export type ProviderStage = "llm" | "stt" | "tts";

function needsKey(stage: ProviderStage, provider: string): boolean {
  const catalog: Partial<Record<string, { needsKey: boolean }>> =
    stage === "llm" ? LLM_CATALOG : stage === "stt" ? STT_CATALOG : TTS_CATALOG;
  return catalog[provider]?.needsKey ?? false;
}

/**
 * Whether using a provider for a stage (a voice preview, a test call) would fail for want of its
 * key: it needs one and neither the workspace nor the server has it. Unknown while the list loads
 * (undefined), so nothing is refused before the answer is in.
 */
export function providerKeyMissing(
  integrations: readonly Integration[] | undefined,
  stage: ProviderStage,
  provider: string,
): boolean | undefined {
  if (!needsKey(stage, provider)) return false;
  if (!integrations) return undefined;
  const entry = integrations.find((i) => i.provider === provider);
  return !entry || (!entry.configured && entry.source !== "environment");
}

/** Whether a voice preview with this provider would fail for want of its key (see providerKeyMissing). */
export const voiceKeyMissing = (integrations: readonly Integration[] | undefined, provider: string) =>
  providerKeyMissing(integrations, "tts", provider);
