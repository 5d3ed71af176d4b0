import type { RunningServer } from "./server.ts";

/** Direct API calls for arranging test data (the browser tests then check what a user sees). */
export async function apiLogin(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function apiCall<T>(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

export async function createUser(baseUrl: string, adminToken: string, name: string, password = "user password 1") {
  const username = name.toLowerCase().replace(/[^a-z0-9]+/g, ".");
  const email = `${username}@e2e.test`;
  await apiCall(baseUrl, adminToken, "POST", "/user", { email, username, name, password });
  return { email, username, name, password };
}

/** The suite administrator's access token, for arranging data through the API. */
export function adminToken(server: RunningServer): Promise<string> {
  return apiLogin(server.url, server.admin.email, server.admin.password);
}
