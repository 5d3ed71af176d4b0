import type { Workspace } from "@parley/contract";

/** Spec §4: the saved last_workspace if still present, else the one flagged is_current, else the first. */
export function chooseWorkspace(list: Workspace[], lastWorkspaceId: string | null): Workspace | null {
  return list.find((w) => w.id === lastWorkspaceId) ?? list.find((w) => w.is_current) ?? list[0] ?? null;
}
