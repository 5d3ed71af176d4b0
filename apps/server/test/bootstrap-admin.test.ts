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
    expect(await bootstrapAdmin(t.ctx)).toBeUndefined();
    expect(existsSync(first?.passwordFile ?? "")).toBe(false);
  });
});
