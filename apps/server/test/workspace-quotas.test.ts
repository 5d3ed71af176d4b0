import { beforeAll, describe, expect, it } from "vitest";
import { call, signedInUser, useTestApp } from "./harness.ts";

const t = useTestApp();
let admin: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  admin = await signedInUser(t, { isSuperuser: true });
});

const quota = (max_workspaces: number, concurrent_calls: number) => ({
  max_assistants: 10,
  minutes_per_month: 1000,
  concurrent_calls,
  max_workspaces,
});

describe("workspace quotas hold under concurrency", () => {
  it("creates no more workspaces than the limit when six requests race", async () => {
    const u = await signedInUser(t);
    await call(t, "PATCH", `/api/v1/admin/enterprise-quotas/${u.user.id}`, { token: admin.token, body: quota(2, 10) });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(t, "POST", "/api/v1/workspaces", { token: u.token, body: { name: `Race ${i}` } }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    // The personal workspace is one of the two.
    expect(statuses).toEqual([201, 403, 403, 403, 403, 403]);
    const limits = (await call(t, "GET", "/api/v1/users/me/limits", { token: u.token })).json();
    expect(limits.owned_workspaces).toBe(2);
  });

  it("hands out no more concurrency than the plan when creates race", async () => {
    const u = await signedInUser(t);
    await call(t, "PATCH", `/api/v1/admin/enterprise-quotas/${u.user.id}`, { token: admin.token, body: quota(10, 7) });
    await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        call(t, "POST", "/api/v1/workspaces", { token: u.token, body: { name: `Share ${i}` } }),
      ),
    );
    const limits = (await call(t, "GET", "/api/v1/users/me/limits", { token: u.token })).json();
    expect(limits.allocated_concurrency).toBe(7);
  });
});

describe("lowering a user's plan", () => {
  it("shrinks the concurrency of the workspaces they own, oldest first", async () => {
    const u = await signedInUser(t);
    await call(t, "PATCH", `/api/v1/admin/enterprise-quotas/${u.user.id}`, { token: admin.token, body: quota(3, 10) });
    const second = (await call(t, "POST", "/api/v1/workspaces", { token: u.token, body: { name: "Second" } })).json();
    expect(second.concurrency_limit).toBe(5);
    const lowered = await call(t, "PATCH", `/api/v1/admin/enterprise-quotas/${u.user.id}`, {
      token: admin.token,
      body: quota(3, 6),
    });
    expect(lowered.json().allocated_concurrency).toBe(6);
    const list = (await call(t, "GET", "/api/v1/workspaces", { token: u.token })).json();
    const limitOf = (id: string) => list.find((w: { id: string }) => w.id === id)?.concurrency_limit;
    expect(limitOf(u.workspaceId)).toBe(5);
    expect(limitOf(second.id)).toBe(1);
  });

  it("applies a tier's lowered limit to the workspaces of its users", async () => {
    const u = await signedInUser(t);
    const tier = (
      await call(t, "POST", "/api/v1/admin/tiers", {
        token: admin.token,
        body: { name: "Shrinking", price: 1, ...quota(2, 5) },
      })
    ).json();
    await call(t, "POST", `/api/v1/admin/users/${u.user.id}/assign-tier-with-defaults`, {
      token: admin.token,
      body: { tier_id: tier.id },
    });
    // Assigning copies nothing, so the tier's edit reaches the user as it is.
    await call(t, "PATCH", `/api/v1/admin/tiers/${tier.id}`, { token: admin.token, body: { concurrent_calls: 2 } });
    const limits = (await call(t, "GET", "/api/v1/users/me/limits", { token: u.token })).json();
    expect(limits).toMatchObject({ source: "tier", concurrent_calls: 2, allocated_concurrency: 2 });
  });
});
