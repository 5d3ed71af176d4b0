import { beforeEach, describe, expect, it, vi } from "vitest";

const store = new Map<string, string>();
vi.stubGlobal("localStorage", {
  getItem: (k: string) => store.get(k) ?? null,
  setItem: (k: string, v: string) => store.set(k, v),
  removeItem: (k: string) => store.delete(k),
});

const { createHttpClient } = await import("./http-client.ts");

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("http client", () => {
  beforeEach(() => store.clear());

  it("sends the bearer token, JSON and no-cache headers", async () => {
    store.set("access_token", "abc");
    const fetch = vi.fn(async () => json(200, { ok: true }));
    const client = createHttpClient({ baseUrl: "/api/v1", fetch, onAuthFailure: vi.fn() });
    await client.request("/agents", { method: "POST", body: { a: 1 } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/v1/agents");
    expect(init.headers).toMatchObject({
      Authorization: "Bearer abc",
      "Content-Type": "application/json",
      "Cache-Control": "no-cache",
    });
  });

  it("refreshes once for concurrent 401s and replays each request once", async () => {
    store.set("access_token", "old");
    let refreshes = 0;
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (url.endsWith("/refresh")) {
        refreshes += 1;
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { access_token: "new" });
      }
      const auth = (init?.headers as Record<string, string> | undefined)?.Authorization;
      return auth === "Bearer new" ? json(200, { url }) : json(401, { detail: "expired" });
    });
    const onAuthFailure = vi.fn();
    const client = createHttpClient({ baseUrl: "", fetch, onAuthFailure });
    const results = await Promise.all([client.request("/a"), client.request("/b"), client.request("/c")]);
    expect(results).toEqual([{ url: "/a" }, { url: "/b" }, { url: "/c" }]);
    expect(refreshes).toBe(1);
    expect(store.get("access_token")).toBe("new");
    expect(onAuthFailure).not.toHaveBeenCalled();
  });

  it("clears tokens and calls the login redirect when the refresh fails", async () => {
    store.set("access_token", "old");
    store.set("refresh_token", "r");
    const fetch = vi.fn(async (input: RequestInfo | URL) =>
      String(input).endsWith("/refresh") ? json(401, { detail: "no" }) : json(401, { detail: "expired" }),
    );
    const onAuthFailure = vi.fn();
    const client = createHttpClient({ baseUrl: "", fetch, onAuthFailure });
    await expect(client.request("/a")).rejects.toMatchObject({ status: 401 });
    expect(store.has("access_token")).toBe(false);
    expect(store.has("refresh_token")).toBe(false);
    expect(onAuthFailure).toHaveBeenCalledOnce();
  });

  it("does not refresh twice for a replay that is still 401", async () => {
    const fetch = vi.fn(async (input: RequestInfo | URL) =>
      String(input).endsWith("/refresh") ? json(200, { access_token: "new" }) : json(401, {}),
    );
    const client = createHttpClient({ baseUrl: "", fetch, onAuthFailure: vi.fn() });
    await expect(client.request("/a")).rejects.toMatchObject({ status: 401 });
    expect(fetch.mock.calls.filter(([u]) => String(u).endsWith("/refresh"))).toHaveLength(1);
  });

  it("maps a network failure to status 0", async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError("Failed to fetch");
    });
    const client = createHttpClient({ baseUrl: "", fetch, onAuthFailure: vi.fn() });
    await expect(client.request("/a")).rejects.toMatchObject({
      status: 0,
      message: expect.stringMatching(/^Network error/),
    });
  });

  it("hands back the unread response for audio, refreshing on 401 like any request", async () => {
    store.set("access_token", "old");
    const wav = new Uint8Array([82, 73, 70, 70]);
    const fetch = vi.fn(async (url: string | URL | Request) => {
      if (String(url).endsWith("/refresh")) return json(200, { access_token: "new" });
      if (store.get("access_token") === "old") return json(401, { detail: "expired" });
      return new Response(wav, { status: 200, headers: { "content-type": "audio/wav", "x-duration": "1.5" } });
    });
    const client = createHttpClient({ baseUrl: "", fetch, onAuthFailure: vi.fn() });
    const response = await client.send("/tts/audio", { method: "POST", body: { provider: "local" } });
    expect(response.headers.get("x-duration")).toBe("1.5");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(wav);
  });
});

describe("a refusal's message (issue 26)", () => {
  it("is the server's own sentence, once, without the status words", async () => {
    const fetch = vi.fn(async () =>
      json(422, {
        detail: "Password must be at least 8 characters (new_password).",
        errors: [{ field: "new_password", message: "Password must be at least 8 characters." }],
      }),
    );
    const client = createHttpClient({ baseUrl: "", fetch, onAuthFailure: vi.fn() });
    const failure = await client.request("/users/me/password", { method: "POST" }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 422, message: "Password must be at least 8 characters." });
  });
});
