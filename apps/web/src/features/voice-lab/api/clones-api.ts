import type { MessageResponse, VoiceClone, VoiceCloneFields } from "@parley/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/http-client.ts";
import { voiceLabKeys } from "./voices-api.ts";

/** GET /clones; spec §8: a failure is logged and treated as no clones. */
export async function fetchClones(): Promise<VoiceClone[]> {
  try {
    const body = await api.request<unknown>("/clones");
    return Array.isArray(body) ? (body as VoiceClone[]) : [];
  } catch (error) {
    console.error("Failed to load voice clones", error);
    return [];
  }
}

export const clonesQuery = () => queryOptions({ queryKey: voiceLabKeys.clones, queryFn: fetchClones });

/** POST /clones as multipart: the text fields, then each audio file under `files`. */
export function createClone(fields: VoiceCloneFields, files: readonly File[]): Promise<VoiceClone> {
  const body = new FormData();
  body.set("name", fields.name);
  body.set("description", fields.description);
  body.set("language", fields.language);
  body.set("service_name", fields.service_name);
  for (const file of files) body.append("files", file, file.name);
  return api.request<VoiceClone>("/clones", { method: "POST", body });
}

export const deleteClone = (id: string) =>
  api.request<MessageResponse>(`/clones/${encodeURIComponent(id)}`, { method: "DELETE" });
