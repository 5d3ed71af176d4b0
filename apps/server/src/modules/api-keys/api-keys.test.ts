import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "../../../test/harness.ts";
import { CALL_ROUTES } from "../../lib/scope-policy.ts";
import { apiKeys } from "./schema.ts";

type Signed = Awaited<ReturnType<typeof signedInUser>>;

let t: TestApp;
let owner: Signed;
let other: Signed;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signedInUser(t);
  other = await signedInUser(t);
  // Load-proof: opening a database and running every migration is slow on a busy machine.
}, 240_000);
afterAll(async () => t.close());

async function newKey(user: Signed, body: Record<string, unknown>) {
  const res = await call(t, "POST", "/api/v1/api-keys", { token: user.token, body: { name: "CI", ...body } });
  if (res.statusCode !== 201) throw new Error(`create key failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string; secret: string; prefix: string; scopes: string[] }>();
}

async function newAgent(user: Signed, name = "Front desk") {
  const res = await call(t, "POST", "/api/v1/agents", { token: user.token, body: { name } });
  if (res.statusCode !== 201) throw new Error(`create agent failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>().id;
}

describe("API keys", () => {
  it("shows the secret once, lists the key by its prefix, and stores only the secret's SHA-256", async () => {
    const created = await newKey(owner, { scopes: ["read"] });
    expect(created.secret).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.secret.slice(0, 14));

    const list = await call(t, "GET", "/api/v1/api-keys", { token: owner.token });
    expect(list.statusCode).toBe(200);
    const listed = list.json<Record<string, unknown>[]>().find((k) => k.id === created.id);
    expect(listed).toMatchObject({ prefix: created.prefix, scopes: ["read"], revoked_at: null, last_used_at: null });
    expect(JSON.stringify(list.json())).not.toContain(created.secret);

    const [row] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.secretHash).toBe(createHash("sha256").update(created.secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(14));
  }, 120_000);

  it("authenticates workspace routes within its scopes: read, write and calls are separate", async () => {
    const agentId = await newAgent(owner);
    const reader = await newKey(owner, { scopes: ["read"] });
    const writer = await newKey(owner, { scopes: ["write"] });
    const caller = await newKey(owner, { scopes: ["calls"] });

    const listed = await call(t, "GET", "/api/v1/agents", { token: reader.secret });
    expect(listed.statusCode).toBe(200);
    expect(JSON.stringify(listed.json())).toContain(agentId);
    const refusedWrite = await call(t, "POST", "/api/v1/agents", { token: reader.secret, body: { name: "x" } });
    expect(refusedWrite.statusCode).toBe(403);
    expect(refusedWrite.json().detail).toBe('This API key lacks the "write" scope.');

    expect(
      (await call(t, "POST", "/api/v1/agents", { token: writer.secret, body: { name: "By key" } })).statusCode,
    ).toBe(201);
    expect((await call(t, "GET", "/api/v1/agents", { token: writer.secret })).statusCode).toBe(403);
    // Starting a call is not a plain write.
    const writerCall = await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token: writer.secret });
    expect(writerCall.statusCode).toBe(403);
    expect(writerCall.json().detail).toBe('This API key lacks the "calls" scope.');

    const started = await call(t, "POST", `/api/v1/agents/${agentId}/call`, { token: caller.secret });
    expect([401, 403]).not.toContain(started.statusCode);
    expect((await call(t, "GET", "/api/v1/agents", { token: caller.secret })).statusCode).toBe(403);
  }, 120_000);

  it("reaches the helper routes an editor uses: catalogs and templates to read, cost per minute to write", async () => {
    const reader = await newKey(owner, { scopes: ["read"] });
    const writer = await newKey(owner, { scopes: ["write"] });
    expect((await call(t, "GET", "/api/v1/agents/templates", { token: reader.secret })).statusCode).toBe(200);
    expect((await call(t, "GET", "/api/v1/ml-models", { token: reader.secret })).statusCode).toBe(200);
    const cost = (token: string) =>
      call(t, "POST", "/api/v1/agents/calculate-cost-per-minute", { token, body: { name: "Quote" } });
    expect((await cost(writer.secret)).statusCode).toBe(200);
    expect((await cost(reader.secret)).statusCode).toBe(403);
  }, 120_000);

  it("never reaches account, admin, member or API-key routes", async () => {
    const { secret } = await newKey(owner, { scopes: ["read", "write", "calls"] });
    for (const [method, url] of [
      ["GET", "/api/v1/users/me"],
      ["GET", "/api/v1/workspaces"],
      ["GET", "/api/v1/admin/stats"],
      ["GET", "/api/v1/api-keys"],
      ["POST", "/api/v1/api-keys"],
      ["GET", "/api/v1/webhooks/00000000-0000-4000-8000-000000000000/secret"],
    ] as const) {
      const res = await call(t, method, url, {
        token: secret,
        body: method === "POST" ? { name: "k", scopes: ["read"] } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  }, 120_000);

  it("stops working once revoked, and a revoked key stays listed", async () => {
    const key = await newKey(owner, { scopes: ["read"] });
    expect((await call(t, "GET", "/api/v1/agents", { token: key.secret })).statusCode).toBe(200);
    const revoked = await call(t, "POST", `/api/v1/api-keys/${key.id}/revoke`, { token: owner.token });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().revoked_at).not.toBeNull();
    const after = await call(t, "GET", "/api/v1/agents", { token: key.secret });
    expect(after.statusCode).toBe(401);
    expect(after.json().detail).toBe("Invalid, expired or revoked API key.");
    const second = await newKey(owner, { scopes: ["read"] });
    expect((await call(t, "DELETE", `/api/v1/api-keys/${second.id}`, { token: owner.token })).statusCode).toBe(200);
    expect((await call(t, "GET", "/api/v1/agents", { token: second.secret })).statusCode).toBe(401);
  }, 120_000);

  it("expires at its expiry and refuses an expiry in the past", async () => {
    const expiresAt = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const key = await newKey(owner, { scopes: ["read"], expires_at: expiresAt });
    expect((await call(t, "GET", "/api/v1/agents", { token: key.secret })).statusCode).toBe(200);
    t.clock.advance(3601);
    expect((await call(t, "GET", "/api/v1/agents", { token: key.secret })).statusCode).toBe(401);
    const past = await call(t, "POST", "/api/v1/api-keys", {
      token: owner.token,
      body: { name: "old", scopes: ["read"], expires_at: new Date(t.clock.now().getTime() - 1000).toISOString() },
    });
    expect(past.statusCode).toBe(422);
  }, 120_000);

  it("acts only inside its own workspace", async () => {
    const othersAgent = await newAgent(other, "Theirs");
    const key = await newKey(owner, { scopes: ["read", "write"] });
    expect((await call(t, "GET", `/api/v1/agents/${othersAgent}`, { token: key.secret })).statusCode).toBe(404);
    expect(
      (await call(t, "PATCH", `/api/v1/agents/${othersAgent}`, { token: key.secret, body: { name: "mine" } }))
        .statusCode,
    ).toBe(404);
    expect(JSON.stringify((await call(t, "GET", "/api/v1/agents", { token: key.secret })).json())).not.toContain(
      othersAgent,
    );
    // Another workspace's keys are not listed, nor revocable.
    expect(JSON.stringify((await call(t, "GET", "/api/v1/api-keys", { token: other.token })).json())).not.toContain(
      key.id,
    );
    expect((await call(t, "POST", `/api/v1/api-keys/${key.id}/revoke`, { token: other.token })).statusCode).toBe(404);
  }, 120_000);

  it("records its last use (time and address) without a write per request", async () => {
    const key = await newKey(owner, { scopes: ["read"] });
    for (let i = 0; i < 3; i += 1) await call(t, "GET", "/api/v1/agents", { token: key.secret });
    await expect
      .poll(async () => (await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, key.id)))[0]?.lastUsedIp, {
        timeout: 60_000,
      })
      .toBe("127.0.0.1");
    const listed = (await call(t, "GET", "/api/v1/api-keys", { token: owner.token }))
      .json<{ id: string; last_used_at: string | null }[]>()
      .find((k) => k.id === key.id);
    expect(listed?.last_used_at).not.toBeNull();
  }, 120_000);

  it("is for owners to create; it stops when its creator leaves the workspace", async () => {
    const member = await signedInUser(t);
    // Memberships are set up in SQL: the test reaches past the invitation flow it does not check.
    await t.ctx.db.execute(
      sql`insert into workspace_members (workspace_id, user_id, role) values (${owner.workspaceId}, ${member.user.id}, 'member')`,
    );
    const switched = await call(t, "POST", `/api/v1/switch-workspace/${owner.workspaceId}`, { token: member.token });
    expect(switched.statusCode).toBe(200);
    const memberToken = switched.json<{ access_token: string }>().access_token;
    expect((await call(t, "GET", "/api/v1/api-keys", { token: memberToken })).statusCode).toBe(200);
    const refused = await call(t, "POST", "/api/v1/api-keys", {
      token: memberToken,
      body: { name: "m", scopes: ["read"] },
    });
    expect(refused.statusCode).toBe(403);

    const key = await newKey(owner, { scopes: ["read"] });
    await t.ctx.db.execute(sql`delete from workspace_members where user_id = ${owner.user.id}`);
    expect((await call(t, "GET", "/api/v1/agents", { token: key.secret })).statusCode).toBe(404);
    await t.ctx.db.execute(
      sql`insert into workspace_members (workspace_id, user_id, role) values (${owner.workspaceId}, ${owner.user.id}, 'owner')`,
    );
  }, 120_000);

  it("declares the key scheme in the OpenAPI document, per route", async () => {
    const doc = (await call(t, "GET", "/api/v1/openapi.json")).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.paths["/api/v1/agents"].get.security).toEqual([{ bearerAuth: [] }, { apiKey: [] }]);
    expect(doc.paths["/api/v1/agents/{id}/call"].post.description).toContain('"calls" scope');
    expect(doc.paths["/api/v1/users/me"].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths["/api/v1/api-keys"].get.security).toEqual([{ bearerAuth: [] }]);
  }, 120_000);

  it("names only routes that exist as call routes", () => {
    for (const entry of CALL_ROUTES) {
      const [method = "", url = ""] = entry.split(" ");
      expect(t.app.hasRoute({ method: method as "GET", url }), entry).toBe(true);
    }
  }, 120_000);
});
