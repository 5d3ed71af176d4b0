import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { enterpriseQuotas } from "../src/modules/users/schema.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";

/**
 * The rule an admin can predict: a tier's limits reach its users live (edits follow, removal takes
 * them away); an override set by hand (enterprise quota) wins over the tier and survives both.
 */
const t = useTestApp();
let admin: Awaited<ReturnType<typeof signedInUser>>;
beforeAll(async () => {
  admin = await signedInUser(t, { isSuperuser: true });
});

let tierCount = 0;
async function createTier(limits: { minutes_per_month: number; concurrent_calls?: number }) {
  tierCount += 1;
  const res = await call(t, "POST", "/api/v1/admin/tiers", {
    token: admin.token,
    body: {
      name: `Limits tier ${tierCount}`,
      max_assistants: 5,
      concurrent_calls: 4,
      max_workspaces: 2,
      price: 10,
      ...limits,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { id: string };
}

async function assign(userId: string, tierId: string) {
  const res = await call(t, "POST", `/api/v1/admin/users/${userId}/assign-tier-with-defaults`, {
    token: admin.token,
    body: { tier_id: tierId },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { tier_id: string | null; is_enterprise: boolean };
}

const myLimits = async (token: string) => (await call(t, "GET", "/api/v1/users/me/limits", { token })).json();

const editTier = (id: string, body: Record<string, number>) =>
  call(t, "PATCH", `/api/v1/admin/tiers/${id}`, { token: admin.token, body });

describe("limits from a tier", () => {
  it("follow later edits of the tier", async () => {
    const tier = await createTier({ minutes_per_month: 100 });
    const u = await signedInUser(t);
    expect(await assign(u.user.id, tier.id)).toMatchObject({ tier_id: tier.id, is_enterprise: false });
    expect(await myLimits(u.token)).toMatchObject({ source: "tier", minutes_per_month: 100 });
    expect((await editTier(tier.id, { minutes_per_month: 250 })).statusCode).toBe(200);
    expect(await myLimits(u.token)).toMatchObject({
      source: "tier",
      tier_name: "Limits tier 1",
      minutes_per_month: 250,
    });
    // Assigning copies nothing: there is no quota of the user's own to go stale.
    expect(
      (await call(t, "GET", `/api/v1/admin/enterprise-quotas/${u.user.id}`, { token: admin.token })).statusCode,
    ).toBe(404);
  });

  it("leave with the tier when it is removed", async () => {
    const tier = await createTier({ minutes_per_month: 1 });
    const u = await signedInUser(t);
    await assign(u.user.id, tier.id);
    expect(await myLimits(u.token)).toMatchObject({ source: "tier", minutes_per_month: 1 });
    const removed = await call(t, "DELETE", `/api/v1/admin/users/${u.user.id}/tier`, { token: admin.token });
    expect(removed.json()).toMatchObject({ tier_id: null, is_enterprise: false });
    expect(await myLimits(u.token)).toMatchObject({ source: "none", tier_name: null, minutes_per_month: null });
  });
});

describe("an override set by hand", () => {
  it("stays across tier edits, a new tier and the tier's removal, until removed itself", async () => {
    const tier = await createTier({ minutes_per_month: 100 });
    const other = await createTier({ minutes_per_month: 300 });
    const u = await signedInUser(t);
    await assign(u.user.id, tier.id);
    const set = await call(t, "PATCH", `/api/v1/admin/enterprise-quotas/${u.user.id}`, {
      token: admin.token,
      body: { max_assistants: 5, minutes_per_month: 5000, concurrent_calls: 4, max_workspaces: 2 },
    });
    expect(set.statusCode).toBe(200);
    expect(await myLimits(u.token)).toMatchObject({ source: "enterprise", minutes_per_month: 5000 });

    await editTier(tier.id, { minutes_per_month: 200 });
    expect(await myLimits(u.token)).toMatchObject({ source: "enterprise", minutes_per_month: 5000 });
    expect(await assign(u.user.id, other.id)).toMatchObject({ tier_id: other.id, is_enterprise: true });
    expect(await myLimits(u.token)).toMatchObject({ source: "enterprise", minutes_per_month: 5000 });
    await call(t, "DELETE", `/api/v1/admin/users/${u.user.id}/tier`, { token: admin.token });
    expect(await myLimits(u.token)).toMatchObject({ source: "enterprise", tier_name: null, minutes_per_month: 5000 });

    await assign(u.user.id, other.id);
    await call(t, "DELETE", `/api/v1/admin/enterprise-quotas/${u.user.id}`, { token: admin.token });
    expect(await myLimits(u.token)).toMatchObject({ source: "tier", minutes_per_month: 300 });
  });
});

describe("migration 0030", () => {
  it("lets quotas that equal the tier follow it and keeps quotas that differ as overrides", async () => {
    const tier = await createTier({ minutes_per_month: 700, concurrent_calls: 3 });
    const copied = await signedInUser(t);
    const changed = await signedInUser(t);
    const tierless = await signedInUser(t);
    for (const u of [copied, changed]) await assign(u.user.id, tier.id);
    // What assigning used to write: a copy of the tier, then hand edits on one of them.
    const limits = { maxAssistants: 5, minutesPerMonth: 700, concurrentCalls: 3, maxWorkspaces: 2 };
    await t.ctx.db.insert(enterpriseQuotas).values([
      { userId: copied.user.id, ...limits },
      { userId: changed.user.id, ...limits, minutesPerMonth: 9000 },
      { userId: tierless.user.id, ...limits },
    ]);

    const file = path.join(import.meta.dirname, "../drizzle/0030_tier_limits_follow_tier.sql");
    await t.ctx.db.execute(sql.raw(readFileSync(file, "utf8")));

    expect(await myLimits(copied.token)).toMatchObject({ source: "tier", minutes_per_month: 700 });
    expect(await myLimits(changed.token)).toMatchObject({ source: "enterprise", minutes_per_month: 9000 });
    expect(await myLimits(tierless.token)).toMatchObject({ source: "enterprise", minutes_per_month: 700 });
    await editTier(tier.id, { minutes_per_month: 800 });
    expect(await myLimits(copied.token)).toMatchObject({ source: "tier", minutes_per_month: 800 });
  });
});
