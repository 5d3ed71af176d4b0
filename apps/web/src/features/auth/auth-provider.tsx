import type { SignupCompletionResult } from "@parley/contract";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { AuthContext, type AuthState } from "../../lib/auth-context.ts";
import { tokenStorage } from "../../lib/token-storage.ts";
import { loginRequest, logoutRequest } from "./api/session-api.ts";
import { INCOMPLETE_SIGNUP, signupWorkspaces } from "./choose-workspace.ts";
import { restoreSession, signedOut } from "./restore-session.ts";
import { forgetReturnTo } from "./return-to.ts";

/** Holds the auth state machine of spec §4 for the whole app. */
export function AuthProvider({ initial, children }: { initial?: AuthState; children: ReactNode }) {
  // `initial` is a session restored before the first render (boot.tsx, under the signed-in frame).
  // With no token stored there is nothing to restore (restore() below comes to the same answer): a
  // visitor's first render is already the sign-in page rather than a spinner and a second render.
  const [state, setState] = useState<AuthState>(
    () => initial ?? (tokenStorage.getAccessToken() ? { ...signedOut, status: "loading" } : signedOut),
  );
  const restoredAhead = useRef(initial !== undefined);

  /** Loads user and workspaces for the stored token; any failure resets silently. */
  const restore = useCallback(async () => {
    const session = await restoreSession();
    if (session) setState(session);
  }, []);

  useEffect(() => {
    if (!restoredAhead.current) void restore();
  }, [restore]);

  /**
   * Stores the new session's token and marks the state loading, then loads it without waiting:
   * the caller navigates to where the visitor was headed first. Were the state already
   * "authenticated" while the sign-in page shows, its visitor-only guard would send the browser
   * home before the caller's navigation lands (spec §2: the origin is remembered).
   */
  const startSession = useCallback(
    (token: string, workspaceId: string | null) => {
      tokenStorage.setAccessToken(token);
      if (workspaceId) tokenStorage.setLastWorkspace(workspaceId);
      setState((current) => ({ ...current, status: "loading" }));
      void restore();
    },
    [restore],
  );

  const login = useCallback(
    async (username: string, password: string) => {
      try {
        startSession(await loginRequest(username, password), null);
      } catch (error) {
        console.error("Login failed", error);
        throw error;
      }
    },
    [startSession],
  );

  const logout = useCallback(async () => {
    try {
      await logoutRequest();
    } catch (error) {
      console.error("Logout API call failed", error);
    }
    tokenStorage.clearAll();
    forgetReturnTo();
    setState(signedOut);
  }, []);

  const signInWithToken = useCallback(
    async (token: string, workspaceId: string | null) => startSession(token, workspaceId),
    [startSession],
  );

  const completeSignup = useCallback(async (result: Partial<SignupCompletionResult>) => {
    const { access_token, user_info, workspace_id } = result;
    if (!access_token || !user_info || !workspace_id) {
      tokenStorage.clearTokens();
      tokenStorage.setLastWorkspaceSafe(null);
      setState(signedOut);
      throw new Error(INCOMPLETE_SIGNUP);
    }
    tokenStorage.setAccessToken(access_token);
    tokenStorage.setLastWorkspace(workspace_id);
    const workspaces = signupWorkspaces(result, workspace_id);
    const workspace = workspaces.find((w) => w.id === workspace_id) ?? workspaces[0] ?? null;
    setState({ status: "authenticated", user: user_info, workspace, workspaces });
  }, []);

  const value = useMemo(
    () => ({ ...state, login, logout, restore, signInWithToken, completeSignup }),
    [state, login, logout, restore, signInWithToken, completeSignup],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
