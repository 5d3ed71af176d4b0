import { AuthProviders, MessageResponse, SessionUser, Workspace } from "@parley/contract";
import { z } from "zod";
import { api } from "../../../lib/http-client.ts";
import { accessTokenOf } from "../../../lib/token-storage.ts";

export const LOGIN_NO_TOKEN = "Login response did not contain access token.";

export async function loginRequest(username: string, password: string): Promise<string> {
  const body = await api.request("/login", {
    method: "POST",
    body: new URLSearchParams({ username, password }),
    credentials: true,
  });
  const token = accessTokenOf(body);
  if (!token) throw new Error(LOGIN_NO_TOKEN);
  return token;
}

export const logoutRequest = () => api.request("/logout", { method: "POST", credentials: true });
export const fetchMe = async () => SessionUser.parse(await api.request("/users/me"));

/** The list may come bare or wrapped in `data` (spec §3). */
const WorkspaceList = z.union([
  z.array(Workspace),
  z.object({ data: z.array(Workspace) }).transform((body) => body.data),
]);

export const fetchWorkspaces = async () => WorkspaceList.parse(await api.request("/workspaces"));

export const requestMagicLink = async (email: string) =>
  MessageResponse.parse(await api.request("/auth/magic-link", { method: "POST", body: { email } }));

export const fetchAuthProviders = async () => AuthProviders.parse(await api.request("/auth/providers"));
