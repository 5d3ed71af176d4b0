import type { AuthState } from "../../lib/auth-context.ts";
import { api } from "../../lib/http-client.ts";
import { decodeToken, isExpired, tokenStorage } from "../../lib/token-storage.ts";
import { fetchMe, fetchWorkspaces } from "./api/session-api.ts";
import { chooseWorkspace } from "./choose-workspace.ts";
import { isRestoreInterrupted } from "./restore-interrupted.ts";

export const signedOut: AuthState = { status: "unauthenticated", user: null, workspace: null, workspaces: [] };

/**
 * The session for the stored token (spec §4): the user and their workspaces, or signed out when
 * there is none or any step fails (silently, the token cleared). Null when the restore was only
 * cut off because the page is being left: that says nothing about the session.
 * AuthProvider runs it on mount; boot.tsx runs it before the first render when it shows the
 * signed-in frame, and hands the answer to AuthProvider so the first render is the page itself.
 */
export async function restoreSession(): Promise<AuthState | null> {
  try {
    let token = tokenStorage.getAccessToken();
    const claims = token ? decodeToken(token) : null;
    if (token && (!claims || isExpired(claims))) {
      // Expired or unreadable tokens are removed; the refresh cookie may still renew the session.
      tokenStorage.clearTokens();
      token = await api.refreshAccessToken();
    }
    if (!token) {
      tokenStorage.setLastWorkspaceSafe(null);
      return signedOut;
    }
    const [user, workspaces] = await Promise.all([
      fetchMe(),
      fetchWorkspaces().catch((error: unknown) => {
        console.error("Failed to fetch workspaces", error);
        return [];
      }),
    ]);
    const workspace = chooseWorkspace(workspaces, tokenStorage.getLastWorkspace());
    if (workspace) tokenStorage.setLastWorkspace(workspace.id);
    return { status: "authenticated", user, workspace, workspaces };
  } catch (error) {
    // A request cut off because the page is being left is not a failed restore: clearing the
    // token here would sign the user out of the page they are navigating to.
    if (isRestoreInterrupted(error)) return null;
    tokenStorage.clearTokens();
    tokenStorage.setLastWorkspaceSafe(null);
    return signedOut;
  }
}
