import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, login, seedUser, signedInUser, type TestApp } from "./harness.ts";

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInUser>>;
let plain: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInUser(t, { isSuperuser: true });
  plain = await signedInUser(t);
});
afterAll(() => t.close());

const ZERO = "00000000-0000-4000-8000-000000000000";
const tierBody = (name: string) => ({
  name,
  max_assistants: 5,
  minutes_per_month: 1000,
  concurrent_calls: 4,
  max_workspaces: 2,
  price: 49,
});

describe("admin guard", () => {
  const routes: [Parameters<typeof call>[1], string, unknown?][] = [
    ["GET", "/api/v1/admin/stats"],
    ["GET", "/api/v1/admin/users"],
    ["POST", `/api/v1/admin/users/${ZERO}/assign-tier-with-defaults`, { tier_id: ZERO }],
    ["DELETE", `/api/v1/admin/users/${ZERO}/tier`],
    ["DELETE", `/api/v1/admin/user/${ZERO}`],
    ["POST", `/api/v1/admin/user/${ZERO}/reactivate`],
    ["GET", "/api/v1/admin/tiers"],
    ["POST", "/api/v1/admin/tiers", tierBody("guard")],
    ["GET", `/api/v1/admin/tiers/${ZERO}`],
    ["PATCH", `/api/v1/admin/tiers/${ZERO}`, { price: 1 }],
    ["DELETE", `/api/v1/admin/tiers/${ZERO}`],
    ["GET", `/api/v1/admin/enterprise-quotas/${ZERO}`],
    [
      "PATCH",
      `/api/v1/admin/enterprise-quotas/${ZERO}`,
      { max_assistants: 1, minutes_per_month: 1, concurrent_calls: 1, max_workspaces: 1 },
    ],
    ["DELETE", `/api/v1/admin/enterprise-quotas/${ZERO}`],
  ];

  it("answers 401 without a token and 403 for a non-superuser on every admin route", async () => {
    for (const [method, url, body] of routes) {
      expect((await call(t, method, url, { body })).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(t, method, url, { token: plain.token, body })).statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it("answers 404 for unknown ids", async () => {
    for (const [method, url, body] of routes.filter(([, u]) => u.includes(ZERO))) {
      expect((await call(t, method, url, { token: admin.token, body })).statusCode, `${method} ${url}`).toBe(404);
    }
  });
});

describe("admin users", () => {
  it("pages users ten at a time, newest first, with totals", async () => {
    for (let i = 0; i < 12; i++) await seedUser(t, { name: `Pager Person ${i}` });
    const first = (await call(t, "GET", "/api/v1/admin/users?search=pager", { token: admin.token })).json();
    expect(first).toMatchObject({ total_count: 12, page: 1, items_per_page: 10, pages: 2 });
    expect(first.data).toHaveLength(10);
    expect(first.data[0].name).toBe("Pager Person 11");
    const second = (await call(t, "GET", "/api/v1/admin/users?search=PAGER&page=2", { token: admin.token })).json();
    expect(second.data).toHaveLength(2);
    const byEmail = (
      await call(t, "GET", `/api/v1/admin/users?search=${plain.user.email}`, { token: admin.token })
    ).json();
    expect(byEmail.data.map((u: { id: string }) => u.id)).toEqual([plain.user.id]);
    expect((await call(t, "GET", "/api/v1/admin/users?page=0", { token: admin.token })).statusCode).toBe(422);
  });

  it("deactivates (ending sessions) and reactivates a user; not yourself", async () => {
    const u = await signedInUser(t);
    const off = await call(t, "DELETE", `/api/v1/admin/user/${u.user.id}`, { token: admin.token });
    expect(off.statusCode).toBe(200);
    expect(off.json().is_active).toBe(false);
    expect((await call(t, "GET", "/api/v1/users/me", { token: u.token })).statusCode).toBe(401);
    expect((await call(t, "POST", "/api/v1/refresh", { cookie: u.refreshCookie })).statusCode).toBe(401);
    await expect(login(t, u.user.username, u.password)).rejects.toThrow(/401/);
    const on = await call(t, "POST", `/api/v1/admin/user/${u.user.id}/reactivate`, { token: admin.token });
    expect(on.json().is_active).toBe(true);
    expect((await login(t, u.user.username, u.password)).token).toBeTruthy();
    expect((await call(t, "DELETE", `/api/v1/admin/user/${admin.user.id}`, { token: admin.token })).statusCode).toBe(
      409,
    );
  });

  it("deletes a user permanently with their now-empty workspace", async () => {
    const u = await seedUser(t);
    const res = await call(t, "DELETE", `/api/v1/admin/user/${u.user.id}?permanent=true`, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect((await call(t, "GET", `/api/v1/user/${u.user.username}`, { token: admin.token })).statusCode).toBe(404);
  });
});

describe("tiers and quotas", () => {
  it("creates, reads, updates and deletes tiers", async () => {
    const created = await call(t, "POST", "/api/v1/admin/tiers", { token: admin.token, body: tierBody("Pro") });
    expect(created.statusCode).toBe(201);
    const tier = created.json();
    expect(tier).toMatchObject({ name: "Pro", price: 49, user_count: 0 });
    expect(
      (await call(t, "POST", "/api/v1/admin/tiers", { token: admin.token, body: tierBody("pro") })).statusCode,
    ).toBe(409);
    expect(
      (await call(t, "POST", "/api/v1/admin/tiers", { token: admin.token, body: { name: "x", price: -1 } })).statusCode,
    ).toBe(422);
    const patched = await call(t, "PATCH", `/api/v1/admin/tiers/${tier.id}`, {
      token: admin.token,
      body: { price: 59.5 },
    });
    expect(patched.json()).toMatchObject({ price: 59.5, max_assistants: 5 });
    expect(
      (await call(t, "GET", "/api/v1/admin/tiers", { token: admin.token })).json().map((x: { id: string }) => x.id),
    ).toContain(tier.id);
    expect((await call(t, "DELETE", `/api/v1/admin/tiers/${tier.id}`, { token: admin.token })).statusCode).toBe(200);
    expect((await call(t, "GET", `/api/v1/admin/tiers/${tier.id}`, { token: admin.token })).statusCode).toBe(404);
  });

  it("assigns a tier whose limits apply without a quota of the user's own, and removes the tier", async () => {
    const tier = (await call(t, "POST", "/api/v1/admin/tiers", { token: admin.token, body: tierBody("Team") })).json();
    const u = await signedInUser(t);
    const res = await call(t, "POST", `/api/v1/admin/users/${u.user.id}/assign-tier-with-defaults`, {
      token: admin.token,
      body: { tier_id: tier.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ tier_id: tier.id, tier_name: "Team", is_enterprise: false });
    // The personal workspace had 5 concurrent calls; the tier's 4 now applies to it too.
    expect((await call(t, "GET", "/api/v1/users/me/limits", { token: u.token })).json()).toMatchObject({
      source: "tier",
      tier_name: "Team",
      max_assistants: 5,
      concurrent_calls: 4,
      max_workspaces: 2,
      allocated_concurrency: 4,
    });
    expect(
      (
        await call(t, "POST", `/api/v1/admin/users/${u.user.id}/assign-tier-with-defaults`, {
          token: admin.token,
          body: { tier_id: "nope" },
        })
      ).statusCode,
    ).toBe(422);
    const removed = await call(t, "DELETE", `/api/v1/admin/users/${u.user.id}/tier`, { token: admin.token });
    expect(removed.json().tier_id).toBeNull();
  });

  it("enforces enterprise quotas on workspaces and their concurrency", async () => {
    const u = await signedInUser(t);
    const set = await call(t, "PATCH", `/api/v1/admin/enterprise-quotas/${u.user.id}`, {
      token: admin.token,
      body: { max_assistants: 3, minutes_per_month: 100, concurrent_calls: 8, max_workspaces: 2 },
    });
    expect(set.statusCode).toBe(200);
    const second = await call(t, "POST", "/api/v1/workspaces", { token: u.token, body: { name: "Second" } });
    expect(second.statusCode).toBe(201);
    expect(second.json().concurrency_limit).toBe(3); // 8 allowed, 5 already on the first workspace
    expect((await call(t, "POST", "/api/v1/workspaces", { token: u.token, body: { name: "Third" } })).statusCode).toBe(
      403,
    );
    const over = await call(t, "PATCH", `/api/v1/workspaces/${u.workspaceId}`, {
      token: u.token,
      body: { concurrency_limit: 6 },
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().detail).toMatch(/quota/);
    const within = await call(t, "PATCH", `/api/v1/workspaces/${u.workspaceId}`, {
      token: u.token,
      body: { concurrency_limit: 5 },
    });
    expect(within.statusCode).toBe(200);
    expect(
      (await call(t, "DELETE", `/api/v1/admin/enterprise-quotas/${u.user.id}`, { token: admin.token })).statusCode,
    ).toBe(200);
    expect(
      (await call(t, "GET", `/api/v1/admin/enterprise-quotas/${u.user.id}`, { token: admin.token })).statusCode,
    ).toBe(404);
  });

  it("reports platform figures", async () => {
    const stats = (await call(t, "GET", "/api/v1/admin/stats", { token: admin.token })).json();
    expect(stats.total_users).toBeGreaterThanOrEqual(2);
    expect(stats.superusers).toBeGreaterThanOrEqual(1);
    expect(stats.workspaces).toBeGreaterThanOrEqual(2);
  });
});
