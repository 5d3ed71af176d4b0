import { type CloneService, VoiceClone, type VoiceCloneFields } from "@parley/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { api } from "../lib/http-client.ts";
import { voiceKeys } from "./voices.ts";

/** The workspace's voice clones (spec §3, §7). */
export const cloneKeys = { list: (workspaceId: string) => [workspaceId, "clones"] as const };

const CloneList = z.array(VoiceClone);

/** GET /clones; spec §8: a failure is logged and treated as no clones. */
export async function fetchClones(): Promise<VoiceClone[]> {
  try {
    return CloneList.parse(await api.request("/clones"));
  } catch (error) {
    console.error("Failed to load voice clones", error);
    return [];
  }
}

export function useClones() {
  const workspaceId = useWorkspaceId();
  return useQuery({ queryKey: cloneKeys.list(workspaceId), queryFn: fetchClones, staleTime: 60_000 });
}

/** A clone shows up in its vendor's voice list too, so both lists are refreshed. */
function useRefreshClones() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return (service: CloneService) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: cloneKeys.list(workspaceId) }),
      queryClient.invalidateQueries({ queryKey: voiceKeys.ofProvider(workspaceId, service) }),
    ]);
}

/** POST /clones as multipart: the text fields, then each audio file under `files`. */
export function useCreateClone() {
  const refresh = useRefreshClones();
  return useMutation({
    mutationFn: async ({ fields, files }: { fields: VoiceCloneFields; files: readonly File[] }) => {
      const body = new FormData();
      body.set("name", fields.name);
      body.set("description", fields.description);
      body.set("language", fields.language);
      body.set("service_name", fields.service_name);
      for (const file of files) body.append("files", file, file.name);
      return VoiceClone.parse(await api.request("/clones", { method: "POST", body }));
    },
    onSuccess: (clone) => refresh(clone.service_name),
  });
}

export function useDeleteClone() {
  const refresh = useRefreshClones();
  return useMutation({
    mutationFn: (clone: VoiceClone) => api.request(`/clones/${encodeURIComponent(clone.id)}`, { method: "DELETE" }),
    onSuccess: (_, clone) => refresh(clone.service_name),
  });
}
