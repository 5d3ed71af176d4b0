import type { ModelsResponse, TranscriberResponse, VoiceClone, VoicesResponse } from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { requireProvider } from "../utils/options.ts";

const day = 24 * 60 * 60 * 1000;

export const llmModelsQuery = (provider: string) =>
  queryOptions({
    queryKey: ["assistants", "catalog", "models", provider],
    queryFn: () => api.request<ModelsResponse>(`/models/${encodeURIComponent(provider)}`),
    staleTime: day,
  });

export const transcriberQuery = (provider: string) =>
  queryOptions({
    queryKey: ["assistants", "catalog", "transcriber", provider],
    queryFn: () => api.request<TranscriberResponse>(`/transcribers/${encodeURIComponent(provider)}`),
    staleTime: day,
  });

/** GET /voices/{provider}; spec §5: a provider is required. */
export const fetchVoices = (provider: string) =>
  api.request<VoicesResponse>(`/voices/${encodeURIComponent(requireProvider(provider))}`);

export const voicesQuery = (provider: string) =>
  queryOptions({
    queryKey: ["assistants", "catalog", "voices", provider],
    queryFn: () => fetchVoices(provider),
    staleTime: 10 * 60 * 1000,
  });

/** GET /clones; spec §8: a failure is logged and treated as no clones. */
export async function fetchClones(): Promise<VoiceClone[]> {
  try {
    const body = await api.request<unknown>("/clones");
    const list = Array.isArray(body) ? body : (body as { clones?: unknown } | undefined)?.clones;
    return Array.isArray(list) ? (list as VoiceClone[]) : [];
  } catch (error) {
    console.error("Failed to load voice clones", error);
    return [];
  }
}

export const clonesQuery = () =>
  queryOptions({ queryKey: ["assistants", "catalog", "clones"], queryFn: fetchClones, staleTime: 60_000 });
