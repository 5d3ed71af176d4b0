import type { VoicesResponse } from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { requireProvider } from "../utils/options.ts";

export const voiceLabKeys = {
  all: ["voice-lab"] as const,
  voices: (provider: string) => ["voice-lab", "voices", provider] as const,
  clones: ["voice-lab", "clones"] as const,
};

/** GET /voices/{provider}: models and voices (clones merged in); spec §5: a provider is required. */
export const fetchVoices = (provider: string) =>
  api.request<VoicesResponse>(`/voices/${encodeURIComponent(requireProvider(provider))}`);

export const voicesQuery = (provider: string) =>
  queryOptions({ queryKey: voiceLabKeys.voices(provider), queryFn: () => fetchVoices(provider), staleTime: 60_000 });
