import { ModelsResponse, TranscriberResponse, VoicesResponse } from "@parley/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";
import { llmListsServerModels } from "../utils/provider-traits.ts";

const day = 24 * 60 * 60 * 1000;
/** A self-hosted server's models change when someone pulls one: ask again after a few minutes. */
const serverListStale = 5 * 60 * 1000;

/** A model list, with why the server's own list could not be fetched (the built-in one answers then). */
const LlmModels = ModelsResponse.extend({ error: VoicesResponse.shape.error });

/** The editor's provider catalogs; the workspace's keys decide whether a list is live, so they are per workspace. */
export const catalogKeys = {
  models: (workspaceId: string, provider: string, baseUrl: string | null = null) =>
    [workspaceId, "catalog", "models", provider, baseUrl] as const,
  transcriber: (workspaceId: string, provider: string) => [workspaceId, "catalog", "transcriber", provider] as const,
};

/** A base URL worth asking: an http(s) URL (a half-typed one would only fail). */
function askable(baseUrl: string | undefined): string | null {
  const trimmed = baseUrl?.trim();
  if (!trimmed) return null;
  try {
    return /^https?:$/.test(new URL(trimmed).protocol) ? trimmed : null;
  } catch {
    return null;
  }
}

/**
 * A provider's models. A local server named by its base URL (Ollama, vLLM) is asked for its own list
 * at that URL, so the URL is part of the key; every other provider has one list.
 */
export function llmModelsQuery(workspaceId: string, provider: string, baseUrl?: string) {
  const url = llmListsServerModels(provider) ? askable(baseUrl) : null;
  const path = `/models/${encodeURIComponent(provider)}`;
  return queryOptions({
    queryKey: catalogKeys.models(workspaceId, provider, url),
    queryFn: async () =>
      LlmModels.parse(await api.request(url ? `${path}?${new URLSearchParams({ base_url: url })}` : path)),
    staleTime: url ? serverListStale : day,
    // While another URL of the same provider loads, its last list stays on offer (never another
    // workspace's or provider's).
    placeholderData: (previous, previousQuery) => {
      const [lastWorkspace, , , lastProvider] = previousQuery?.queryKey ?? [];
      return lastWorkspace === workspaceId && lastProvider === provider ? previous : undefined;
    },
  });
}

/** `baseUrl` should be debounced by the caller: each distinct URL is a request. */
export function useLlmModels(provider: string, baseUrl?: string) {
  return useQuery(llmModelsQuery(useWorkspaceId(), provider, baseUrl));
}

export function useTranscriber(provider: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: catalogKeys.transcriber(workspaceId, provider),
    queryFn: async () => TranscriberResponse.parse(await api.request(`/transcribers/${encodeURIComponent(provider)}`)),
    staleTime: day,
  });
}
