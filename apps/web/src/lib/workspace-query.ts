import { type QueryKey, type UseQueryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useWorkspaceId } from "./auth-context.ts";

/** A key of workspace data: it starts with the workspace's id, so a switch never shows another's cache. */
export type WorkspaceKey<K extends QueryKey> = (workspaceId: string) => K;

/** Reads the current workspace's data under `key`; `options` are react-query's (polling, placeholders…). */
export function useWorkspaceQuery<T, K extends QueryKey>(
  key: WorkspaceKey<K>,
  queryFn: () => Promise<T>,
  options: Omit<UseQueryOptions<T, Error, T, K>, "queryKey" | "queryFn"> = {},
) {
  const workspaceId = useWorkspaceId();
  return useQuery({ ...options, queryKey: key(workspaceId), queryFn });
}

/** Marks the current workspace's queries under `key` stale, so they are read again: what a write calls when done. */
export function useRefresh(key: WorkspaceKey<QueryKey>) {
  const workspaceId = useWorkspaceId();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: key(workspaceId) });
}
