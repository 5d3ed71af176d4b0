import {
  type CrawlIntensity,
  DocumentList,
  DocumentSearchResponse,
  KnowledgeDocument,
  type KnowledgeSettings,
  KnowledgeSettingsResponse,
  UploadDocumentsResponse,
} from "@parley/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { API_BASE_URL } from "../config/env.ts";
import { toApiError } from "../lib/api-error.ts";
import { useWorkspaceId } from "../lib/auth-context.ts";
import { api } from "../lib/http-client.ts";
import { tokenStorage } from "../lib/token-storage.ts";

/** Knowledge documents (spec §7 "Documents"): the knowledge-base page and the assistant editor's links. */
export const documentKeys = {
  all: (workspaceId: string) => [workspaceId, "documents"] as const,
  list: (workspaceId: string) => [workspaceId, "documents", "list"] as const,
  ofAssistant: (workspaceId: string, assistantId: string) =>
    [workspaceId, "documents", "assistant", assistantId] as const,
  search: (workspaceId: string, q: string, assistantId: string) =>
    [workspaceId, "documents", "search", q, assistantId] as const,
  settings: (workspaceId: string) => [workspaceId, "documents", "settings"] as const,
};

/** While a document is being read its row changes on its own: the list is fetched again every 2 s. */
const busy = (docs: readonly KnowledgeDocument[] | undefined) =>
  docs?.some((d) => d.status === "pending" || d.status === "processing") ? 2000 : false;

export const documentsQuery = (workspaceId: string) =>
  queryOptions({
    queryKey: documentKeys.list(workspaceId),
    queryFn: async () => DocumentList.parse(await api.request("/documents/list")),
    refetchInterval: (query) => busy(query.state.data),
  });

export const useDocuments = () => useQuery(documentsQuery(useWorkspaceId()));

export function useAssistantDocuments(assistantId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: documentKeys.ofAssistant(workspaceId, assistantId),
    queryFn: async () => DocumentList.parse(await api.request(`/documents/agent/${assistantId}`)),
  });
}

/**
 * Uploads one file with XMLHttpRequest, the one browser API that reports upload progress
 * (0–1 to `onProgress`). A 401 is refreshed once through the shared client, like every request.
 */
export function uploadDocument(file: File, onProgress: (fraction: number) => void): Promise<KnowledgeDocument[]> {
  const attempt = (isRetry: boolean): Promise<KnowledgeDocument[]> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", `${API_BASE_URL}/documents/upload`);
      const token = tokenStorage.getAccessToken();
      if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
      xhr.setRequestHeader("Cache-Control", "no-cache");
      xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(event.loaded / event.total);
      xhr.onerror = () => reject(toApiError(0, { detail: "" }));
      xhr.onload = () => {
        let body: unknown = xhr.responseText;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // Not JSON: the text itself is the message.
        }
        if (xhr.status === 401 && !isRetry) {
          api.refreshAccessToken().then((renewed) => {
            if (renewed) attempt(true).then(resolve, reject);
            else reject(toApiError(401, body));
          }, reject);
          return;
        }
        if (xhr.status >= 200 && xhr.status < 300) resolve(UploadDocumentsResponse.parse(body).documents);
        else reject(toApiError(xhr.status, body));
      };
      const form = new FormData();
      form.append("files", file, file.name);
      xhr.send(form);
    });
  return attempt(false);
}

function useInvalidateDocuments() {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: documentKeys.all(workspaceId) });
}

export function useUploadDocument() {
  const invalidate = useInvalidateDocuments();
  return useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (fraction: number) => void }) =>
      uploadDocument(file, onProgress),
    onSettled: invalidate,
  });
}

export function useCrawlUrl() {
  const invalidate = useInvalidateDocuments();
  return useMutation({
    mutationFn: async (body: { url: string; intensity: CrawlIntensity }) =>
      KnowledgeDocument.parse(await api.request("/documents/crawl_url", { method: "POST", body })),
    onSuccess: invalidate,
  });
}

export function useDeleteDocument() {
  const invalidate = useInvalidateDocuments();
  return useMutation({
    mutationFn: (id: string) => api.request(`/documents/${id}`, { method: "DELETE" }),
    onSuccess: invalidate,
  });
}

export function useRefreshDocument() {
  const invalidate = useInvalidateDocuments();
  return useMutation({
    mutationFn: (id: string) => api.request(`/documents/${id}/refresh`, { method: "POST" }),
    onSuccess: invalidate,
  });
}

/** Links (or unlinks) a document to an assistant; every list showing either is refreshed. */
export function useDocumentLink() {
  const invalidate = useInvalidateDocuments();
  return useMutation({
    mutationFn: ({ assistantId, documentId, linked }: { assistantId: string; documentId: string; linked: boolean }) =>
      api.request(linked ? "/documents/link-agent" : "/documents/unlink-agent", {
        method: "POST",
        body: { agent_id: assistantId, document_id: documentId },
      }),
    onSettled: invalidate,
  });
}

/** The workspace's embeddings provider and whether this database can search by meaning at all. */
export function useKnowledgeSettings() {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: documentKeys.settings(workspaceId),
    queryFn: async () => KnowledgeSettingsResponse.parse(await api.request("/documents/settings")),
  });
}

/** Owners only. A new provider or model re-embeds every document, so the whole list is fetched again. */
export function useSaveKnowledgeSettings() {
  const invalidate = useInvalidateDocuments();
  return useMutation({
    mutationFn: async (body: KnowledgeSettings) =>
      KnowledgeSettingsResponse.parse(await api.request("/documents/settings", { method: "PUT", body })),
    onSuccess: invalidate,
  });
}

/** What an assistant (or, with none, the whole workspace) would retrieve for a question. */
export function useDocumentSearch(q: string, assistantId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: documentKeys.search(workspaceId, q, assistantId),
    queryFn: async () =>
      DocumentSearchResponse.parse(
        await api.request("/documents/search", { query: { q, agent_id: assistantId || undefined } }),
      ),
    enabled: q.trim().length > 0,
  });
}
