import { VoicesResponse } from "@parley/contract";
import { useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { api } from "../lib/http-client.ts";
import { requireProvider } from "../lib/provider-options.ts";

/** A voice provider's models and voices, the workspace's clones merged in (spec §7 GET /voices/{provider}). */
export const voiceKeys = {
  all: (workspaceId: string) => [workspaceId, "voices"] as const,
  ofProvider: (workspaceId: string, provider: string) => [workspaceId, "voices", provider] as const,
};

/** Spec §5: a provider is required. */
export const fetchVoices = async (provider: string) =>
  VoicesResponse.parse(await api.request(`/voices/${encodeURIComponent(requireProvider(provider))}`));

export function useVoices(provider: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: voiceKeys.ofProvider(workspaceId, provider),
    queryFn: () => fetchVoices(provider),
    staleTime: 60_000,
  });
}
