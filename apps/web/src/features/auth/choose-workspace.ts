import type { SignupCompletionResult, Workspace } from "@parley/contract";
import { FALLBACK_WORKSPACE_CONCURRENCY_LIMIT } from "@parley/contract/constants";

export const INCOMPLETE_SIGNUP = "Incomplete data received from magic link signup completion.";

/** Spec §4: the saved last_workspace if still present, else the one flagged is_current, else the first. */
export function chooseWorkspace(list: Workspace[], lastWorkspaceId: string | null): Workspace | null {
  return list.find((w) => w.id === lastWorkspaceId) ?? list.find((w) => w.is_current) ?? list[0] ?? null;
}

/**
 * Spec §4 signup completion: the list from the result (current = the matching workspace), or with
 * no list a single workspace built from the id and name, where the new user is owner.
 */
export function signupWorkspaces(result: Partial<SignupCompletionResult>, workspaceId: string): Workspace[] {
  if (result.workspaces && result.workspaces.length > 0) {
    return result.workspaces.map((w) => ({ ...w, is_current: w.id === workspaceId }));
  }
  return [
    {
      id: workspaceId,
      name: result.workspace_name ?? "",
      role: "owner",
      is_current: true,
      concurrency_limit: FALLBACK_WORKSPACE_CONCURRENCY_LIMIT,
    },
  ];
}
