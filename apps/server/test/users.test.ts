import { describe, expect, it } from "vitest";
import { call, login, signedInUser, useTestApp } from "./harness.ts";

const t = useTestApp();

describe("the signed-in user", () => {
  it("reads their session user with the spec's fields", async () => {
    const a = await signedInUser(t);
    const res = await call(t, "GET", "/api/v1/users/me", { token: a.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: a.user.id,
      name: a.user.name,
      email: a.user.email,
      username: a.user.username,
      is_superuser: false,
      profile_image_url: null,
      sso_provider: null,
      tier_id: null,
      is_enterprise: false,
      has_password: true,
    });
    expect((await call(t, "GET", "/api/v1/users/me")).statusCode).toBe(401);
  });

  it("updates their profile and refuses a taken email with 409", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const ok = await call(t, "PATCH", "/api/v1/users/me", { token: a.token, body: { name: "Ada Lovelace" } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().name).toBe("Ada Lovelace");
    const taken = await call(t, "PATCH", "/api/v1/users/me", { token: a.token, body: { email: b.user.email } });
    expect(taken.statusCode).toBe(409);
    const bad = await call(t, "PATCH", "/api/v1/users/me", { token: a.token, body: { email: "nope" } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/email/);
  });

  it("changes the password only with the current one", async () => {
    const a = await signedInUser(t);
    const wrong = await call(t, "POST", "/api/v1/users/me/password", {
      token: a.token,
      body: { current_password: "not it at all", new_password: "brand new secret" },
    });
    expect(wrong.statusCode).toBe(400);
    const short = await call(t, "POST", "/api/v1/users/me/password", {
      token: a.token,
      body: { current_password: a.password, new_password: "short" },
    });
    expect(short.statusCode).toBe(422);
    const ok = await call(t, "POST", "/api/v1/users/me/password", {
      token: a.token,
      body: { current_password: a.password, new_password: "brand new secret" },
    });
    expect(ok.statusCode).toBe(200);
    await expect(login(t, a.user.username, a.password)).rejects.toThrow(/401/);
    expect((await login(t, a.user.username, "brand new secret")).token).toBeTruthy();
  });
});

describe("authentication on user routes", () => {
  it("answers 401 without a token and 422 for malformed bodies", async () => {
    const routes: [Parameters<typeof call>[1], string, unknown][] = [
      ["GET", "/api/v1/users/me", undefined],
      ["PATCH", "/api/v1/users/me", { name: "x" }],
      ["POST", "/api/v1/users/me/password", { new_password: "long enough" }],
      ["GET", "/api/v1/users/me/limits", undefined],
      ["GET", "/api/v1/users", undefined],
      ["GET", "/api/v1/user/anyone", undefined],
      ["POST", "/api/v1/user", {}],
    ];
    for (const [method, url, body] of routes)
      expect((await call(t, method, url, { body })).statusCode, `${method} ${url}`).toBe(401);
    const a = await signedInUser(t);
    const bad = await call(t, "POST", "/api/v1/users/me/password", {
      token: a.token,
      body: { current_password: a.password },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/new_password/);
    expect(
      (await call(t, "PATCH", "/api/v1/users/me", { token: a.token, body: { username: "no spaces allowed" } }))
        .statusCode,
    ).toBe(422);
  });
});

describe("the caller's limits", () => {
  it("reports no limits without a tier or quota, and the quota once set", async () => {
    const a = await signedInUser(t);
    const admin = await signedInUser(t, { isSuperuser: true });
    expect((await call(t, "GET", "/api/v1/users/me/limits")).statusCode).toBe(401);
    expect((await call(t, "GET", "/api/v1/users/me/limits", { token: a.token })).json()).toMatchObject({
      source: "none",
      concurrent_calls: null,
      allocated_concurrency: 5,
      owned_workspaces: 1,
    });
    await call(t, "PATCH", `/api/v1/admin/enterprise-quotas/${a.user.id}`, {
      token: admin.token,
      body: { max_assistants: 2, minutes_per_month: 60, concurrent_calls: 9, max_workspaces: 3 },
    });
    expect((await call(t, "GET", "/api/v1/users/me/limits", { token: a.token })).json()).toMatchObject({
      source: "enterprise",
      concurrent_calls: 9,
    });
  });
});

describe("users (superuser)", () => {
  it("creates a user from JSON with a personal workspace; only superusers may", async () => {
    const admin = await signedInUser(t, { isSuperuser: true });
    const plain = await signedInUser(t);
    const body = { email: "grace@example.com", username: "grace", name: "Grace Hopper", password: "cobol forever" };
    expect((await call(t, "POST", "/api/v1/user", { body })).statusCode).toBe(401);
    expect((await call(t, "POST", "/api/v1/user", { token: plain.token, body })).statusCode).toBe(403);
    const res = await call(t, "POST", "/api/v1/user", { token: admin.token, body });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      email: "grace@example.com",
      username: "grace",
      is_superuser: false,
      is_active: true,
    });
    const dup = await call(t, "POST", "/api/v1/user", {
      token: admin.token,
      body: { ...body, email: "other@example.com" },
    });
    expect(dup.statusCode).toBe(409);
    const bad = await call(t, "POST", "/api/v1/user", { token: admin.token, body: { ...body, username: "x" } });
    expect(bad.statusCode).toBe(422);
    const { token } = await login(t, "grace", "cobol forever");
    expect((await call(t, "GET", "/api/v1/workspaces", { token })).json()).toHaveLength(1);
  });

  it("lists users for superusers only, in the paged shape of spec §3", async () => {
    const admin = await signedInUser(t, { isSuperuser: true });
    const plain = await signedInUser(t);
    expect((await call(t, "GET", "/api/v1/users")).statusCode).toBe(401);
    expect((await call(t, "GET", "/api/v1/users", { token: plain.token })).statusCode).toBe(403);
    const res = await call(t, "GET", "/api/v1/users", { token: admin.token });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ page: 1, items_per_page: 10 });
    expect(page.total_count).toBeGreaterThanOrEqual(2);
    expect(page.pages).toBe(Math.ceil(page.total_count / 10));
    expect(page.data.map((u: { id: string }) => u.id)).toEqual(expect.arrayContaining([admin.user.id, plain.user.id]));
    const second = await call(t, "GET", "/api/v1/users?page=2&items_per_page=1", { token: admin.token });
    expect(second.json()).toMatchObject({ page: 2, items_per_page: 1, data: [expect.any(Object)] });
  });

  it("shows a user by username to themselves or a superuser", async () => {
    const admin = await signedInUser(t, { isSuperuser: true });
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    expect((await call(t, "GET", `/api/v1/user/${a.user.username}`, { token: a.token })).statusCode).toBe(200);
    expect((await call(t, "GET", `/api/v1/user/${a.user.username}`, { token: admin.token })).statusCode).toBe(200);
    expect((await call(t, "GET", `/api/v1/user/${a.user.username}`, { token: b.token })).statusCode).toBe(403);
    expect((await call(t, "GET", "/api/v1/user/nobody-here", { token: admin.token })).statusCode).toBe(404);
    expect((await call(t, "GET", `/api/v1/user/${a.user.username}`)).statusCode).toBe(401);
  });
});
