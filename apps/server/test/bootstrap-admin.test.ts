import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrapAdmin } from "../src/bootstrap-admin.ts";
import { call, createTestApp, login, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The harness keeps PGlite in memory; the password file needs a real folder.
  t.ctx.config.dataDir = mkdtempSync(path.join(tmpdir(), "parley-admin-"));
});
afterAll(() => t.close());

describe("first start", () => {
  it("creates an admin with a generated password, keeps showing it, and forgets it once changed", async () => {
    const first = await bootstrapAdmin(t.ctx);
    expect(first).toMatchObject({ username: "admin" });
    const password = first?.generatedPassword ?? "";
    expect(password.length).toBeGreaterThanOrEqual(16);
    const { token } = await login(t, "admin", password);
    expect((await call(t, "GET", "/api/v1/users/me", { token })).json()).toMatchObject({ is_superuser: true });

    expect((await bootstrapAdmin(t.ctx))?.generatedPassword).toBe(password);
    await call(t, "POST", "/api/v1/users/me/password", {
      token,
      body: { current_password: password, new_password: "my own password" },
    });
    // Gone as soon as the password changes, not only at the next start.
    expect(existsSync(first?.passwordFile ?? "")).toBe(false);
    expect(await bootstrapAdmin(t.ctx)).toBeUndefined();
  });
});

describe("PARLEY_ADMIN_EMAIL on a later start", () => {
  it("updates the same superuser (email and password) instead of adding a second one", async () => {
    const superusers = async () => {
      const admin = await login(t, "admin", "my own password");
      const page = (await call(t, "GET", "/api/v1/admin/users?items_per_page=100", { token: admin.token })).json();
      return page.data.filter((u: { is_superuser: boolean }) => u.is_superuser);
    };
    expect(await superusers()).toHaveLength(1);
    t.ctx.config.admin = { email: "ops@example.com", password: "configured password" };
    expect(await bootstrapAdmin(t.ctx)).toEqual({ email: "ops@example.com", username: "admin" });
    t.ctx.config.admin = { email: "ops2@example.com", password: "configured password 2" };
    expect(await bootstrapAdmin(t.ctx)).toEqual({ email: "ops2@example.com", username: "admin" });
    const { token } = await login(t, "ops2@example.com", "configured password 2");
    const page = (await call(t, "GET", "/api/v1/admin/users?items_per_page=100", { token })).json();
    expect(page.data.filter((u: { is_superuser: boolean }) => u.is_superuser)).toEqual([
      expect.objectContaining({ email: "ops2@example.com", username: "admin" }),
    ]);
  });
});
