import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const store = new Map<string, string>();
vi.stubGlobal("localStorage", {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => store.set(k, v),
  removeItem: (k: string) => store.delete(k),
});

const { startHeadStarts, takeHeadStart } = await import("./head-start.ts");

/** An unsigned token with the claims the app reads; the server would verify the signature. */
function token(expiresInSeconds: number) {
  const claims = { id: "u1", username: "ada", is_superuser: false, tier_id: null, workspace_id: "w1" };
  const payload = btoa(JSON.stringify({ ...claims, exp: Math.floor(Date.now() / 1000) + expiresInSeconds }));
  return `e30.${payload.replace(/=+$/, "")}.sig`;
}

const sent = (fetch: ReturnType<typeof vi.fn>) => fetch.mock.calls.map(([url]) => String(url));

describe("head starts", () => {
  const fetch = vi.fn(async (url: string) => new Response(JSON.stringify({ url }), { status: 200 }));
  beforeEach(() => {
    store.clear();
    fetch.mockClear();
    vi.stubGlobal("fetch", fetch);
  });
  afterEach(() => {
    // Whatever a test left unclaimed is dropped, as any non-GET request drops it.
    takeHeadStart("/api/v1/anything", { method: "POST" });
  });

  it("asks for the session and the page's list at once, and hands each answer out once", async () => {
    const stored = token(600);
    store.set("access_token", stored);
    startHeadStarts("/assistants");
    expect(sent(fetch)).toEqual(["/api/v1/users/me", "/api/v1/workspaces", "/api/v1/agents"]);
    const init = { method: "GET", headers: { Authorization: `Bearer ${stored}` } };
    const answer = takeHeadStart("/api/v1/agents", init);
    expect(await (await answer)?.json()).toEqual({ url: "/api/v1/agents" });
    expect(takeHeadStart("/api/v1/agents", init)).toBeUndefined();
  });

  it("asks for the workflow a builder page is opened at", () => {
    store.set("access_token", token(600));
    startHeadStarts("/workflows/0b6c2f7e-1d7a-4d51-9f0e-7a1b2c3d4e5f");
    expect(sent(fetch)).toEqual([
      "/api/v1/users/me",
      "/api/v1/workspaces",
      "/api/v1/workflows/0b6c2f7e-1d7a-4d51-9f0e-7a1b2c3d4e5f",
    ]);
  });

  it("starts nothing for a visitor, an expired token or the sign-in pages", () => {
    startHeadStarts("/assistants");
    store.set("access_token", token(-60));
    startHeadStarts("/assistants");
    store.set("access_token", token(600));
    startHeadStarts("/auth/login");
    expect(fetch).not.toHaveBeenCalled();
  });

  it("is not handed to a request with another token, and a change drops every head start", () => {
    store.set("access_token", token(600));
    startHeadStarts("/home");
    expect(sent(fetch)).toEqual(["/api/v1/users/me", "/api/v1/workspaces"]);
    expect(takeHeadStart("/api/v1/users/me", { headers: { Authorization: "Bearer other" } })).toBeUndefined();
    takeHeadStart("/api/v1/agents", { method: "POST" });
    const authorization = `Bearer ${store.get("access_token")}`;
    expect(takeHeadStart("/api/v1/workspaces", { headers: { Authorization: authorization } })).toBeUndefined();
  });

  it("does not hand out an answer older than ten seconds", () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      store.set("access_token", token(600));
      startHeadStarts("/home");
      vi.advanceTimersByTime(10_001);
      const authorization = `Bearer ${store.get("access_token")}`;
      expect(takeHeadStart("/api/v1/users/me", { headers: { Authorization: authorization } })).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});
