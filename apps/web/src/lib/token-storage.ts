import { STORAGE_KEYS } from "@parley/contract/constants";

/** The three browser storage keys of spec §3, in one place. */
export const tokenStorage = {
  getAccessToken: () => localStorage.getItem(STORAGE_KEYS.accessToken),
  setAccessToken: (token: string) => localStorage.setItem(STORAGE_KEYS.accessToken, token),
  getLastWorkspace: () => localStorage.getItem(STORAGE_KEYS.lastWorkspace),
  setLastWorkspace: (id: string) => localStorage.setItem(STORAGE_KEYS.lastWorkspace, id),
  /** Stores or (with null) removes the remembered workspace. */
  setLastWorkspaceSafe(id: string | null) {
    if (id) localStorage.setItem(STORAGE_KEYS.lastWorkspace, id);
    else localStorage.removeItem(STORAGE_KEYS.lastWorkspace);
  },
  clearTokens() {
    localStorage.removeItem(STORAGE_KEYS.accessToken);
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
  },
  clearAll() {
    for (const key of Object.values(STORAGE_KEYS)) localStorage.removeItem(key);
  },
};

/**
 * The access token a login, refresh or workspace switch answers with; null when it carries none.
 * A plain check rather than the contract's TokenResponse schema: this runs on the sign-in page,
 * whose first load must not download zod.
 */
export function accessTokenOf(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("access_token" in body)) return null;
  const token = body.access_token;
  return typeof token === "string" && token ? token : null;
}

export interface TokenClaims {
  id: string;
  username: string;
  is_superuser: boolean;
  tier_id: string | null;
  exp: number;
  workspace_id: string | null;
}

/** Reads a JWT's claims without verifying it (the server verifies); null when unreadable. */
export function decodeToken(token: string): TokenClaims | null {
  try {
    const payload = token.split(".")[1];
    if (!payload) return null;
    const json = atob(payload.replace(/-/g, "+").replace(/_/g, "/"));
    const claims = JSON.parse(decodeURIComponent(escape(json))) as TokenClaims;
    return typeof claims.id === "string" && typeof claims.exp === "number" ? claims : null;
  } catch {
    return null;
  }
}

export const isExpired = (claims: TokenClaims, nowMs = Date.now()) => claims.exp * 1000 <= nowMs;
