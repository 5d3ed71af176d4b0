import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, claimsOf, createTestApp, seedUser, signedInUser, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ EMAIL_RATE_LIMIT_PER_ADDRESS: "3", EMAIL_RATE_LIMIT_PER_IP: "1000" });
});
afterAll(() => t.close());

async function requestLink(email: string) {
  const res = await call(t, "POST", "/api/v1/auth/magic-link", { body: { email } });
  expect(res.statusCode).toBe(200);
  const link = t.mailer.linkTo(email);
  return { res, link, token: link?.searchParams.get("token") ?? "" };
}

describe("magic link", () => {
  it("answers known and unknown addresses identically", async () => {
    const { user } = await seedUser(t);
    const known = await call(t, "POST", "/api/v1/auth/magic-link", { body: { email: user.email } });
    const unknown = await call(t, "POST", "/api/v1/auth/magic-link", { body: { email: "nobody.at.all@example.com" } });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
  });

  it("signs a known user in once with the spec's result, and refuses the link a second time", async () => {
    const { user, workspaceId } = await seedUser(t);
    const { link, token } = await requestLink(user.email);
    expect(link?.pathname).toBe("/auth/magic-link-callback");
    const res = await call(t, "POST", "/api/v1/auth/magic-link/verify", { body: { token } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(["token", "userEmail", "userName", "workspaceId"]);
    expect(body).toMatchObject({ workspaceId, userName: user.name, userEmail: user.email });
    expect(claimsOf(body.token)).toMatchObject({ id: user.id, workspace_id: workspaceId });
    expect(res.cookies.find((c) => c.name === "parley_refresh")?.value).toBeTruthy();
    const again = await call(t, "POST", "/api/v1/auth/magic-link/verify", { body: { token } });
    expect(again.statusCode).toBe(400);
    expect(again.json().detail).toMatch(/invalid or has expired/);
  });

  it("expires after 15 minutes", async () => {
    const { user } = await seedUser(t);
    const { token } = await requestLink(user.email);
    t.clock.advance(15 * 60 + 1);
    try {
      expect((await call(t, "POST", "/api/v1/auth/magic-link/verify", { body: { token } })).statusCode).toBe(400);
    } finally {
      t.clock.advance(-(15 * 60 + 1));
    }
  });

  it("completes a sign-up for a new address: owner of a personal workspace, invitations accepted, landing in the inviting one", async () => {
    const inviter = await signedInUser(t);
    const email = "new.person@example.com";
    await call(t, "POST", `/api/v1/workspaces/${inviter.workspaceId}/invite`, {
      token: inviter.token,
      body: { email, role: "member" },
    });
    const { link, token } = await requestLink(email);
    expect(link?.pathname).toBe("/auth/complete-signup-magic-link");
    expect(
      (await call(t, "POST", "/api/v1/auth/magic-link/verify", { body: { token: "x".repeat(43) } })).statusCode,
    ).toBe(400);
    const res = await call(t, "POST", "/api/v1/auth/magic-link/complete-signup", {
      body: { token, name: "New Person" },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user_info).toMatchObject({
      email,
      name: "New Person",
      username: "new.person",
      is_superuser: false,
      has_password: false,
    });
    // The link proved the address, so the invitation is accepted and the new user lands in its workspace.
    expect(body.workspace_id).toBe(inviter.workspaceId);
    const roles = body.workspaces.map((w: { id: string; name: string; role: string }) => [
      w.id === inviter.workspaceId ? "inviting" : w.name,
      w.role,
    ]);
    expect(roles).toContainEqual(["New's workspace", "owner"]);
    expect(roles).toContainEqual(["inviting", "member"]);
    expect(claimsOf(body.access_token).workspace_id).toBe(body.workspace_id);
    expect((await call(t, "POST", "/api/v1/auth/magic-link/complete-signup", { body: { token } })).statusCode).toBe(
      400,
    );
  });

  it("sends nothing to a deactivated account", async () => {
    const { user } = await seedUser(t);
    const { users } = await import("../src/modules/users/schema.ts");
    const { eq } = await import("drizzle-orm");
    await t.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, user.id));
    await call(t, "POST", "/api/v1/auth/magic-link", { body: { email: user.email } });
    expect(t.mailer.lastTo(user.email)).toBeUndefined();
  });

  it("rate limits requests for one address", async () => {
    const email = "limited@example.com";
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call(t, "POST", "/api/v1/auth/magic-link", { body: { email } })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("rejects malformed tokens with 422", async () => {
    for (const url of [
      "/api/v1/auth/magic-link/verify",
      "/api/v1/auth/magic-link/complete-signup",
      "/api/v1/auth/password-reset/confirm",
    ]) {
      const res = await call(t, "POST", url, { body: { token: "short" } });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().detail).toMatch(/token/);
    }
  });

  it("rejects a malformed email with 422", async () => {
    const res = await call(t, "POST", "/api/v1/auth/magic-link", { body: { email: "not an email" } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/email/);
  });
});

describe("password reset", () => {
  it("emails a reset link, sets the new password once, and ends every session", async () => {
    const u = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/auth/password-reset/request", { body: { email: u.user.email } });
    const unknown = await call(t, "POST", "/api/v1/auth/password-reset/request", {
      body: { email: "ghost@example.com" },
    });
    expect(res.json()).toEqual(unknown.json());
    expect(t.mailer.lastTo("ghost@example.com")).toBeUndefined();
    const link = t.mailer.linkTo(u.user.email);
    expect(link?.pathname).toBe("/reset-password");
    const token = link?.searchParams.get("token") ?? "";
    expect(
      (await call(t, "POST", "/api/v1/auth/password-reset/confirm", { body: { token, new_password: "short" } }))
        .statusCode,
    ).toBe(422);
    const ok = await call(t, "POST", "/api/v1/auth/password-reset/confirm", {
      body: { token, new_password: "a fresh password" },
    });
    expect(ok.statusCode).toBe(200);
    expect((await call(t, "POST", "/api/v1/refresh", { cookie: u.refreshCookie })).statusCode).toBe(401);
    const form = (password: string) => ({
      method: "POST" as const,
      url: "/api/v1/login",
      payload: new URLSearchParams({ username: u.user.username, password }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect((await t.app.inject(form(u.password))).statusCode).toBe(401);
    expect((await t.app.inject(form("a fresh password"))).statusCode).toBe(200);
    const reuse = await call(t, "POST", "/api/v1/auth/password-reset/confirm", {
      body: { token, new_password: "another one!" },
    });
    expect(reuse.statusCode).toBe(400);
  });
});
