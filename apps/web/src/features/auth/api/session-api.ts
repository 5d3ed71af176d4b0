import type { AuthProviders, SessionUser, TokenResponse, Workspace } from "@parley/contract";
import { api } from "../../../lib/http-client.ts";

export const LOGIN_NO_TOKEN = "Login response did not contain access token.";

export async function loginRequest(username: string, password: string): Promise<string> {
  const body = await api.request<Partial<TokenResponse>>("/login", {
    method: "POST",
    body: new URLSearchParams({ username, password }),
    credentials: true,
  });
  if (!body?.access_token) throw new Error(LOGIN_NO_TOKEN);
  return body.access_token;
}

export const logoutRequest = () => api.request<void>("/logout", { method: "POST", credentials: true });
export const fetchMe = () => api.request<SessionUser>("/users/me");

/** The list may come bare or wrapped in `data` (spec §3). */
export async function fetchWorkspaces(): Promise<Workspace[]> {
  const body = await api.request<Workspace[] | { data: Workspace[] }>("/workspaces");
  return Array.isArray(body) ? body : (body?.data ?? []);
}

export async function switchWorkspaceRequest(id: string): Promise<string> {
  const body = await api.request<Partial<TokenResponse>>(`/switch-workspace/${id}`, { method: "POST" });
  if (!body?.access_token) throw new Error("Access token not found in response.");
  return body.access_token;
}

export const createWorkspaceRequest = (input: { name: string; billing_email?: string }) =>
  api.request<Workspace>("/workspaces", { method: "POST", body: input });

export const requestMagicLink = (email: string) =>
  api.request<{ message: string }>("/auth/magic-link", { method: "POST", body: { email } });

export const fetchAuthProviders = () => api.request<AuthProviders>("/auth/providers");
