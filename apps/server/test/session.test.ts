import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, claimsOf, createTestApp, login, seedUser, signedInUser, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_ACCOUNT: "5", LOGIN_RATE_LIMIT_PER_IP: "1000" });
});
afterAll(() => t.close());

const form = (body: Record<string, string>) => ({
  payload: new URLSearchParams(body).toString(),
  headers: { "content-type": "application/x-www-form-urlencoded" },
});

describe("POST /login", () => {
  it("accepts the username or the email and returns a bearer token with the spec's claims", async () => {
    const { user, password, workspaceId } = await seedUser(t);
    for (const login of [user.username, user.email.toUpperCase()]) {
      const res = await t.app.inject({ method: "POST", url: "/api/v1/login", ...form({ username: login, password }) });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.token_type).toBe("bearer");
      const claims = claimsOf(body.access_token);
      expect(claims).toMatchObject({
        id: user.id,
        username: user.username,
        is_superuser: false,
        tier_id: null,
        workspace_id: workspaceId,
      });
      expect(typeof claims.exp).toBe("number");
      const cookie = res.cookies.find((c) => c.name === "parley_refresh");
      expect(cookie?.httpOnly).toBe(true);
      expect(cookie?.sameSite).toBe("Lax");
    }
  });

  it("answers a wrong password and an unknown user with the same generic 401", async () => {
    const { user } = await seedUser(t);
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/v1/login",
      ...form({ username: user.username, password: "nope-nope" }),
    });
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/v1/login",
      ...form({ username: "ghost", password: "nope-nope" }),
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
  });

  it("refuses a deactivated user", async () => {
    const { user, password } = await seedUser(t);
    const { users } = await import("../src/modules/users/schema.ts");
    const { eq } = await import("drizzle-orm");
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/login",
      ...form({ username: user.username, password }),
    });
    expect(res.statusCode).toBe(401);
  });

  it("gives 422 naming the missing field", async () => {
    const res = await t.app.inject({ method: "POST", url: "/api/v1/login", ...form({ username: "someone" }) });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/password/);
  });

  it("rate limits repeated attempts on one account with 429 and Retry-After", async () => {
    const { user } = await seedUser(t);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/v1/login",
        ...form({ username: user.username, password: "wrong-wrong" }),
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});

describe("POST /refresh", () => {
  it("rotates the refresh token and returns a new access token", async () => {
    const { refreshCookie } = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/refresh", { cookie: refreshCookie });
    expect(res.statusCode).toBe(200);
    expect(res.json().access_token).toBeTruthy();
    const next = res.cookies.find((c) => c.name === "parley_refresh")?.value;
    expect(next).toBeTruthy();
    expect(next).not.toBe(refreshCookie);
  });

  it("revokes the whole family when a used refresh token is presented again", async () => {
    const { refreshCookie } = await signedInUser(t);
    const first = await call(t, "POST", "/api/v1/refresh", { cookie: refreshCookie });
    const successor = first.cookies.find((c) => c.name === "parley_refresh")?.value;
    const replay = await call(t, "POST", "/api/v1/refresh", { cookie: refreshCookie });
    expect(replay.statusCode).toBe(401);
    const afterReuse = await call(t, "POST", "/api/v1/refresh", { cookie: successor });
    expect(afterReuse.statusCode).toBe(401);
  });

  it("is 401 without a cookie", async () => {
    const res = await call(t, "POST", "/api/v1/refresh");
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBeTruthy();
  });

  it("is 401 once the refresh token has expired", async () => {
    const { refreshCookie } = await signedInUser(t);
    t.clock.advance(31 * 24 * 3600);
    try {
      const res = await call(t, "POST", "/api/v1/refresh", { cookie: refreshCookie });
      expect(res.statusCode).toBe(401);
    } finally {
      t.clock.advance(-31 * 24 * 3600);
    }
  });
});

describe("POST /logout", () => {
  it("revokes the refresh token and clears the cookie", async () => {
    const { refreshCookie } = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/logout", { cookie: refreshCookie });
    expect(res.statusCode).toBe(200);
    const cleared = res.cookies.find((c) => c.name === "parley_refresh");
    expect(cleared?.value).toBe("");
    const after = await call(t, "POST", "/api/v1/refresh", { cookie: refreshCookie });
    expect(after.statusCode).toBe(401);
  });
});

describe("errors", () => {
  it("answers unknown API routes with a JSON 404", async () => {
    const res = await call(t, "GET", "/api/v1/definitely-not-here");
    expect(res.statusCode).toBe(404);
    expect(res.json()).toHaveProperty("detail");
  });

  it("answers malformed JSON with a JSON 400 and no stack trace", async () => {
    const { token } = await signedInUser(t);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/v1/logout",
      payload: "{not json",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(["detail"]);
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it("serves health, metrics and the OpenAPI document", async () => {
    expect((await call(t, "GET", "/api/v1/health")).json()).toEqual({ status: "ok", database: "ok" });
    expect((await call(t, "GET", "/metrics")).body).toMatch(/parley_http_request_duration_seconds/);
    const doc = (await call(t, "GET", "/api/v1/openapi.json")).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain("/api/v1/login");
    expect((await call(t, "GET", "/api/docs/")).statusCode).toBe(200);
  });

  it("echoes a request id header", async () => {
    const res = await call(t, "GET", "/api/v1/health");
    expect(res.headers["x-request-id"]).toBeTruthy();
  });

  it("uses the login helper", async () => {
    const { user, password } = await seedUser(t);
    expect((await login(t, user.username, password)).token).toBeTruthy();
  });
});
