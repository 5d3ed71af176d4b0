import {
  Assistant,
  AssistantDraft,
  AssistantVersionSummary,
  type UpdateAssistantBody,
  VersionDiff,
} from "@parley/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { z } from "zod";
import { assistantKeys, useAssistant } from "../../../api/assistants.ts";
import { useWorkspaceId } from "../../../lib/auth-context.ts";
import { api } from "../../../lib/http-client.ts";

/** An assistant's versions and draft (issue 30), cached under the assistant's own keys. */
export const versionKeys = {
  all: (workspaceId: string, id: string) => [workspaceId, "assistants", "versions", id] as const,
  list: (workspaceId: string, id: string) => [workspaceId, "assistants", "versions", id, "list"] as const,
  draft: (workspaceId: string, id: string) => [workspaceId, "assistants", "versions", id, "draft"] as const,
  diff: (workspaceId: string, id: string, from: number, to: number) =>
    [workspaceId, "assistants", "versions", id, "diff", from, to] as const,
};

const VersionList = z.array(AssistantVersionSummary);

export function useVersions(assistantId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: versionKeys.list(workspaceId, assistantId),
    queryFn: async () => VersionList.parse(await api.request(`/agents/${assistantId}/versions`)),
  });
}

export function useDraft(assistantId: string) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: versionKeys.draft(workspaceId, assistantId),
    queryFn: async () => AssistantDraft.parse(await api.request(`/agents/${assistantId}/draft`)),
  });
}

/** The changed fields between two versions; nothing is asked until both are chosen and differ. */
export function useVersionDiff(assistantId: string, from: number | null, to: number | null) {
  const workspaceId = useWorkspaceId();
  return useQuery({
    queryKey: versionKeys.diff(workspaceId, assistantId, from ?? 0, to ?? 0),
    queryFn: async () =>
      VersionDiff.parse(
        await api.request(`/agents/${assistantId}/versions/diff`, { query: { from: from ?? 1, to: to ?? 1 } }),
      ),
    enabled: from !== null && to !== null && from !== to,
    // A version never changes: its diff with another is good for the page's life.
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * After anything that publishes (publish, rollback, promote): the answer is the assistant calls run
 * now; the versions and the draft are read again, and so is the list (its "updated" column).
 */
export function useStorePublished(assistantId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return (assistant: Assistant | null) => {
    if (assistant) queryClient.setQueryData(assistantKeys.detail(workspaceId, assistantId), assistant);
    return Promise.all([
      queryClient.invalidateQueries({ queryKey: versionKeys.all(workspaceId, assistantId) }),
      queryClient.invalidateQueries({ queryKey: assistantKeys.list(workspaceId) }),
      assistant
        ? undefined
        : queryClient.invalidateQueries({ queryKey: assistantKeys.detail(workspaceId, assistantId) }),
    ]);
  };
}

/**
 * Publishes the draft as the next version with a note. `edits` are the editor's unsaved changes:
 * they are written to the draft first, so what is published is what the editor shows.
 */
export function usePublish(assistantId: string) {
  const store = useStorePublished(assistantId);
  return useMutation({
    mutationFn: async ({ note, edits }: { note: string; edits?: UpdateAssistantBody }) => {
      if (edits) await api.request(`/agents/${assistantId}/draft`, { method: "PUT", body: edits });
      return Assistant.parse(await api.request(`/agents/${assistantId}/publish`, { method: "POST", body: { note } }));
    },
    onSuccess: store,
  });
}

/** Rollback: version `number` is published again under the next number. */
export function useRestoreVersion(assistantId: string) {
  const store = useStorePublished(assistantId);
  return useMutation({
    mutationFn: async (number: number) =>
      Assistant.parse(await api.request(`/agents/${assistantId}/versions/${number}/restore`, { method: "POST" })),
    onSuccess: store,
  });
}

/**
 * The versions and the draft read again whenever the assistant changes under them: the editor's
 * Save publishes through PATCH, which knows nothing of this tab's queries.
 */
export function useVersionsFollowAssistant(assistantId: string) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  const updatedAt = useAssistant(assistantId).data?.updated_at;
  const seen = useRef(updatedAt);
  useEffect(() => {
    if (seen.current === updatedAt) return;
    seen.current = updatedAt;
    void queryClient.invalidateQueries({ queryKey: versionKeys.all(workspaceId, assistantId) });
  }, [updatedAt, queryClient, workspaceId, assistantId]);
}
