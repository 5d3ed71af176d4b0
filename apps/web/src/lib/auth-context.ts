import type { SessionUser, SignupCompletionResult, Workspace } from "@parley/contract";
import { createContext, useContext } from "react";

export type AuthStatus = "loading" | "authenticated" | "unauthenticated";

export interface AuthState {
  status: AuthStatus;
  user: SessionUser | null;
  workspace: Workspace | null;
  workspaces: Workspace[];
}

export interface AuthActions {
  login(username: string, password: string): Promise<void>;
  logout(): Promise<void>;
  /** Re-reads the user and workspaces after a token was stored by another flow (or a workspace switch). */
  restore(): Promise<void>;
  /** Magic-link (and SSO) sign-in: stores the token and workspace, then loads the session. */
  signInWithToken(token: string, workspaceId: string | null): Promise<void>;
  /** Magic-link or SSO sign-up completion (spec §4 rules). */
  completeSignup(result: Partial<SignupCompletionResult>): Promise<void>;
}

export const AuthContext = createContext<(AuthState & AuthActions) | null>(null);

export function useAuth() {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth must be used within an AuthProvider");
  return value;
}

/**
 * The current workspace's id ("" before one is chosen). Every query key of workspace data starts
 * with it, so switching workspaces never shows another workspace's cached data.
 */
export function useWorkspaceId(): string {
  return useAuth().workspace?.id ?? "";
}
