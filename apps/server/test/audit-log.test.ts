import { AUDIT_ACTIONS, type AuditAction, type AuditEvent, type AuditEventPage } from "@parley/contract";
import { beforeAll, describe, expect, it } from "vitest";
import { call, signedInUser, type TestApp, useTestApp } from "./harness.ts";
import { signedInMember } from "./support/workspace-members.ts";

/**
 * Issue 34: the audit log records who did what — sign-ins, role changes, API keys, integrations,
 * retention, a person's export and erasure, and the superusers' actions — for a workspace's owners (their workspace only) and for
 * superusers (everything), as pages or CSV, and never with a secret in it.
 */

const t: TestApp = useTestApp();
const api = (path: string) => `/api/v1${path}`;

type Signed = Awaited<ReturnType<typeof signedInUser>>;
let owner: Signed;
let admin: Signed;

async function entries(token: string, query = "", admin = false): Promise<AuditEvent[]> {
  const res = await call(t, "GET", api(`${admin ? "/admin" : ""}/audit-events?items_per_page=200${query}`), { token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditEventPage>().data;
}

/** A person whose records an owner exports and erases (there are none: both are audited all the same). */
const SUBJECT = "+14155550142";

const tierBody = {
  name: "Audited",
  max_assistants: 5,
  minutes_per_month: 100,
  concurrent_calls: 2,
  max_workspaces: 2,
  price: 9,
};

beforeAll(async () => {
  owner = await signedInUser(t);
  admin = await signedInUser(t, { isSuperuser: true });
});

/** Each action of the workspace's owner, one request each; the entries are checked afterwards. */
async function walkOwnerActions() {
  const member = await signedInMember(t, owner.workspaceId);
  const ok = async (method: Parameters<typeof call>[1], path: string, body?: unknown) => {
    const res = await call(t, method, api(path), { token: owner.token, body });
    expect(res.statusCode, `${method} ${path}: ${res.body}`).toBeLessThan(300);
    return res;
  };
  await ok("PATCH", `/workspaces/${owner.workspaceId}/users/${member.user.id}`, { role: "owner" });
  await ok("PATCH", `/workspaces/${owner.workspaceId}/users/${member.user.id}`, { role: "member" });
  await ok("DELETE", `/workspaces/${owner.workspaceId}/users/${member.user.id}`);
  const key = (await ok("POST", "/api-keys", { name: "CI", scopes: ["read"] })).json<{ id: string; secret: string }>();
  await ok("POST", `/api-keys/${key.id}/revoke`);
  await ok("PUT", "/integrations/twilio", {
    credentials: { account_sid: "AC1234567890abcdef", auth_token: "super-secret-auth-token-wxyz" },
  });
  await ok("DELETE", "/integrations/twilio");
  const retention = {
    recordings: 30,
    transcripts: null,
    tool_calls: null,
    analysis: null,
    webhook_bodies: 7,
    document_files: null,
  };
  await ok("PUT", "/privacy/settings", { retention, zero_retention: false });
  // A person's export (read to its end: the entry is written as the ZIP finishes) and erasure.
  expect((await ok("POST", "/privacy/subjects/export", { phone: SUBJECT })).rawPayload.byteLength).toBeGreaterThan(0);
  await ok("POST", "/privacy/subjects/erase", { phone: SUBJECT, confirm: true });
  return { member, key };
}

/** Each superuser action on a fresh user and tier. */
async function walkAdminActions() {
  const subject = await signedInUser(t);
  const ok = async (method: Parameters<typeof call>[1], path: string, body?: unknown) => {
    const res = await call(t, method, api(path), { token: admin.token, body });
    expect(res.statusCode, `${method} ${path}: ${res.body}`).toBeLessThan(300);
    return res;
  };
  const tier = (await ok("POST", "/admin/tiers", tierBody)).json<{ id: string }>();
  await ok("PATCH", `/admin/tiers/${tier.id}`, { price: 19 });
  await ok("POST", `/admin/users/${subject.user.id}/assign-tier-with-defaults`, { tier_id: tier.id });
  await ok("DELETE", `/admin/users/${subject.user.id}/tier`);
  await ok("DELETE", `/admin/tiers/${tier.id}`);
  const quota = { max_assistants: 3, minutes_per_month: 100, concurrent_calls: 8, max_workspaces: 2 };
  await ok("PATCH", `/admin/enterprise-quotas/${subject.user.id}`, quota);
  await ok("DELETE", `/admin/enterprise-quotas/${subject.user.id}`);
  await ok("DELETE", `/admin/user/${subject.user.id}`);
  await ok("POST", `/admin/user/${subject.user.id}/reactivate`);
  await ok("DELETE", `/admin/user/${subject.user.id}?permanent=true`);
  return { subject, tier };
}

describe("audit log", () => {
  it("has an entry for every action a workspace's owner takes, with who, where and what", async () => {
    const { member, key } = await walkOwnerActions();
    const log = await entries(owner.token);
    const of = (action: AuditAction) => log.filter((e) => e.action === action);

    const signIn = of("auth.sign_in").find((e) => e.actor_user_id === owner.user.id);
    expect(signIn).toMatchObject({ workspace_id: owner.workspaceId, actor_email: owner.user.email });
    expect(signIn?.ip).toBeTruthy();
    expect(of("member.role_changed").map((e) => e.details.role)).toEqual(["member", "owner"]);
    expect(of("member.role_changed")[0]).toMatchObject({
      target_type: "user",
      target_id: member.user.id,
      actor_user_id: owner.user.id,
      actor_email: owner.user.email,
    });
    expect(of("member.removed")).toHaveLength(1);
    expect(of("api_key.created")[0]).toMatchObject({ target_id: key.id, details: { name: "CI" } });
    expect(of("api_key.revoked")[0]).toMatchObject({ target_id: key.id });
    expect(of("integration.changed")[0]).toMatchObject({ target_type: "integration", target_id: "twilio" });
    expect(of("integration.deleted")[0]).toMatchObject({ target_id: "twilio" });
    expect(of("retention.changed")[0]?.details).toEqual({ recordings: "keep → 30", webhook_bodies: "keep → 7" });
    const counts = { calls: 0, recordings: 0, campaign_contacts: 0, do_not_call: 0 };
    expect(of("data.exported")[0]).toMatchObject({
      target_type: "subject",
      details: { subject: "phone", ...counts, complete: true },
    });
    expect(of("data.erased")[0]).toMatchObject({
      target_type: "subject",
      target_id: of("data.exported")[0]?.target_id,
      details: { subject: "phone", ...counts, webhook_deliveries: 0 },
    });

    // Never a secret: not the key's, not the integration's; nor the person's number.
    const text = JSON.stringify(log);
    expect(text).not.toContain(SUBJECT);
    expect(text).not.toContain(key.secret);
    expect(text).not.toContain("super-secret-auth-token-wxyz");
  });

  it("has an entry for every superuser action, installation-wide, and the superuser sees them all", async () => {
    const { subject, tier } = await walkAdminActions();
    const log = await entries(admin.token, "", true);
    const about = (id: string) => log.filter((e) => e.target_id === id).map((e) => e.action);
    expect(about(tier.id).sort()).toEqual(["admin.tier_created", "admin.tier_deleted", "admin.tier_updated"]);
    expect(about(subject.user.id).sort()).toEqual([
      "admin.quota_changed",
      "admin.quota_removed",
      "admin.tier_assigned",
      "admin.tier_removed",
      "admin.user_deactivated",
      "admin.user_deleted",
      "admin.user_reactivated",
    ]);
    for (const entry of log.filter((e) => e.action.startsWith("admin."))) {
      expect(entry).toMatchObject({ workspace_id: null, actor_user_id: admin.user.id });
    }
    // The superuser's list holds every workspace's entries too.
    expect(log.some((e) => e.workspace_id === owner.workspaceId && e.action === "api_key.created")).toBe(true);
  });

  it("walks every action a person takes (the retention pass's own is in retention.test.ts)", async () => {
    const seen = new Set((await entries(admin.token, "", true)).map((e) => e.action));
    const notYet: AuditAction[] = ["retention.purged"];
    expect(AUDIT_ACTIONS.filter((a) => !seen.has(a) && !notYet.includes(a))).toEqual([]);
  });

  it("filters by action and time, pages newest first, and exports CSV", async () => {
    const keys = await entries(owner.token, "&action=api_key.created");
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((e) => e.action === "api_key.created")).toBe(true);

    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(await entries(owner.token, `&from=${encodeURIComponent(future)}`)).toEqual([]);
    const all = await entries(owner.token);
    expect(await entries(owner.token, `&to=${encodeURIComponent(future)}`)).toHaveLength(all.length);

    const page = await call(t, "GET", api("/audit-events?items_per_page=2&page=2"), { token: owner.token });
    expect(page.json<AuditEventPage>()).toMatchObject({ page: 2, items_per_page: 2, total_count: all.length });
    expect(page.json<AuditEventPage>().data.map((e) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));

    const csv = await call(t, "GET", api("/audit-events?format=csv"), { token: owner.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.headers["content-disposition"]).toContain("audit-log.csv");
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toBe(
      "created_at,workspace_id,action,actor_user_id,actor_email,actor_api_key_id,target_type,target_id,ip,details",
    );
    expect(lines).toHaveLength(all.length + 1);

    expect((await call(t, "GET", api("/audit-events?action=nope"), { token: owner.token })).statusCode).toBe(422);
  });

  it("keeps each workspace's log to its owners, and the whole log to superusers", async () => {
    const other = await signedInUser(t);
    const theirs = await entries(other.token);
    expect(theirs.every((e) => e.workspace_id === other.workspaceId)).toBe(true);
    expect(theirs.some((e) => e.actor_user_id === owner.user.id)).toBe(false);

    const member = await signedInMember(t, owner.workspaceId);
    expect((await call(t, "GET", api("/audit-events"), { token: member.token })).statusCode).toBe(403);
    expect((await call(t, "GET", api("/privacy/settings"), { token: member.token })).statusCode).toBe(403);
    expect((await call(t, "GET", api("/admin/audit-events"), { token: owner.token })).statusCode).toBe(403);
    expect((await call(t, "GET", api("/audit-events"))).statusCode).toBe(401);

    const key = (
      await call(t, "POST", api("/api-keys"), { token: owner.token, body: { name: "k", scopes: ["read", "write"] } })
    ).json<{ secret: string }>();
    expect((await call(t, "GET", api("/audit-events"), { token: key.secret })).statusCode).toBe(403);
  });
});
