import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import { call, signedInUser, type TestApp, useTestApp } from "./harness.ts";

/**
 * An audit entry is written after its action is done: when the write fails, the action's answer
 * still reaches the caller (a 500 would say it failed, and a retry would do it twice).
 */
const t: TestApp = useTestApp();

it("answers an audited action with its own result when the audit log cannot be written", async () => {
  const owner = await signedInUser(t);
  await t.ctx.db.execute(sql`alter table audit_events rename to audit_events_away`);
  try {
    const created = await call(t, "POST", "/api/v1/api-keys", {
      token: owner.token,
      body: { name: "CI", scopes: ["read"] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const keys = await call(t, "GET", "/api/v1/api-keys", { token: owner.token });
    expect(keys.body).toContain('"CI"');
  } finally {
    await t.ctx.db.execute(sql`alter table audit_events_away rename to audit_events`);
  }
});
