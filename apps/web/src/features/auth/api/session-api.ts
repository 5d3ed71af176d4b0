import type { AuthProviders } from "@parley/contract";
import { api } from "../../../lib/http-client.ts";
import { accessTokenOf } from "../../../lib/token-storage.ts";

export const LOGIN_NO_TOKEN = "Login response did not contain access token.";

/** The response schemas, fetched alongside the first answer that needs them (see session-schemas.ts). */
const schemas = () => import("./session-schemas.ts");

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

export async function fetchMe() {
  const [{ SessionUser }, body] = await Promise.all([schemas(), api.request("/users/me")]);
  return SessionUser.parse(body);
}

export async function fetchWorkspaces() {
  const [{ WorkspaceList }, body] = await Promise.all([schemas(), api.request("/workspaces")]);
  return WorkspaceList.parse(body);
}

export async function requestMagicLink(email: string) {
  const [{ MessageResponse }, body] = await Promise.all([
    schemas(),
    api.request("/auth/magic-link", { method: "POST", body: { email } }),
  ]);
  return MessageResponse.parse(body);
}

/**
 * Which single sign-on providers are configured. Checked by hand (two booleans) rather than with
 * the contract's schema: the sign-in page asks this as it opens, and must not download zod for it.
 */
export async function fetchAuthProviders(): Promise<AuthProviders> {
  const body = await api.request("/auth/providers");
  if (typeof body === "object" && body !== null && "google" in body && "microsoft" in body) {
    const { google, microsoft } = body;
    if (typeof google === "boolean" && typeof microsoft === "boolean") return { google, microsoft };
  }
  throw new Error("Unexpected answer from /auth/providers");
}
