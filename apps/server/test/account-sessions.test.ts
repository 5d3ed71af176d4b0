import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { deriveKey } from "../src/lib/crypto.ts";
import { call, createTestApp, login, seedUser, signedInUser, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_LIMIT_PER_ACCOUNT: "3", LOGIN_RATE_LIMIT_PER_IP: "1000" });
});
afterAll(() => t.close());

const attempt = (username: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/login",
    payload: new URLSearchParams({ username, password }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });

describe("sign-in attempts are limited per account", () => {
  it("counts the username and the email of one account in one bucket", async () => {
    const { user, password } = await seedUser(t);
    const statuses = [];
    for (const name of [user.username, user.email, user.username.toUpperCase()]) {
      statuses.push((await attempt(name, "wrong-wrong")).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401]);
    // The fourth guess is refused whichever name is typed, even with the right password.
    expect((await attempt(user.email, password)).statusCode).toBe(429);
    expect((await attempt(user.username, password)).statusCode).toBe(429);
  });

  it("counts only failures: signing in often never locks the account", async () => {
    const { user, password } = await seedUser(t);
    for (let i = 0; i < 6; i++) expect((await attempt(user.username, password)).statusCode).toBe(200);
    expect((await attempt(user.username, "wrong-wrong")).statusCode).toBe(401);
    expect((await attempt(user.username, password)).statusCode).toBe(200);
  });
});

/** Changes the user's password from their own session: its access token and refresh cookie. */
const changePassword = (u: Awaited<ReturnType<typeof signedInUser>>, newPassword: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/v1/users/me/password",
    headers: { authorization: `Bearer ${u.token}`, cookie: `parley_refresh=${u.refreshCookie}` },
    payload: { current_password: u.password, new_password: newPassword },
  });

describe("sessions end when the password changes", () => {
  it("a password change signs out every other session, refresh tokens included, and keeps this one", async () => {
    const u = await signedInUser(t);
    const other = await login(t, u.user.username, u.password);
    const res = await changePassword(u, "a brand new password");
    expect(res.statusCode).toBe(200);
    expect((await call(t, "POST", "/api/v1/refresh", { cookie: other.refreshCookie })).statusCode).toBe(401);
    expect((await call(t, "POST", "/api/v1/refresh", { cookie: u.refreshCookie })).statusCode).toBe(200);
  });

  // Date alone is frozen (timers stay real): every token below is minted in one second unless a
  // test moves the clock, which is how a quick client meets a change.
  const inOneSecond = async (run: () => Promise<void>) => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
    try {
      await run();
    } finally {
      vi.useRealTimers();
    }
  };
  const me = (token: string) => call(t, "GET", "/api/v1/users/me", { token }).then((r) => r.statusCode);

  it("a password change ends another session's access token at once, even one minted in the same second", () =>
    inOneSecond(async () => {
      const u = await signedInUser(t);
      const other = await login(t, u.user.username, u.password);
      expect(await me(other.token)).toBe(200);
      expect((await changePassword(u, "another brand new password")).statusCode).toBe(200);
      expect(await me(other.token)).toBe(401);
      expect((await call(t, "POST", "/api/v1/refresh", { cookie: other.refreshCookie })).statusCode).toBe(401);
      // A sign-in with the new password in that same second is a new session and works.
      expect(await me((await login(t, u.user.username, "another brand new password")).token)).toBe(200);
    }));

  it("the session that changed the password keeps working with the access token it has", () =>
    inOneSecond(async () => {
      const u = await signedInUser(t);
      const other = await login(t, u.user.username, u.password);
      vi.setSystemTime(Date.now() + 30_000);
      expect((await changePassword(u, "yet another new password")).statusCode).toBe(200);
      expect(await me(other.token)).toBe(401);
      expect(await me(u.token)).toBe(200);
      const refreshed = await call(t, "POST", "/api/v1/refresh", { cookie: u.refreshCookie });
      expect(refreshed.statusCode).toBe(200);
      expect(await me(refreshed.json().access_token)).toBe(200);
    }));

  it("a password reset ends every session's access token, even one minted in the same second", () =>
    inOneSecond(async () => {
      const u = await signedInUser(t);
      await call(t, "POST", "/api/v1/auth/password-reset/request", { body: { email: u.user.email } });
      const token = t.mailer.linkTo(u.user.email)?.searchParams.get("token") ?? "";
      const body = { token, new_password: "a reset password here" };
      expect((await call(t, "POST", "/api/v1/auth/password-reset/confirm", { body })).statusCode).toBe(200);
      expect(await me(u.token)).toBe(401);
    }));

  it("a new reset link makes the older ones stop working", async () => {
    const u = await signedInUser(t);
    const request = () => call(t, "POST", "/api/v1/auth/password-reset/request", { body: { email: u.user.email } });
    await request();
    const first = t.mailer.linkTo(u.user.email)?.searchParams.get("token") ?? "";
    await request();
    const second = t.mailer.linkTo(u.user.email)?.searchParams.get("token") ?? "";
    expect(second).not.toBe(first);
    const confirm = (token: string) =>
      call(t, "POST", "/api/v1/auth/password-reset/confirm", { body: { token, new_password: "another password" } });
    expect((await confirm(first)).statusCode).toBe(400);
    expect((await confirm(second)).statusCode).toBe(200);
  });

  it("refuses an access token without an expiry, even with a valid signature", async () => {
    const u = await signedInUser(t);
    const key = deriveKey(t.config.secretKey ?? "", "access-token");
    const claims = { id: u.user.id, username: u.user.username, is_superuser: false, workspace_id: u.workspaceId };
    const sign = (withExpiry: boolean) => {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setIssuer("parley").setIssuedAt();
      return (withExpiry ? jwt.setExpirationTime("5m") : jwt).sign(key);
    };
    expect((await call(t, "GET", "/api/v1/users/me", { token: await sign(true) })).statusCode).toBe(200);
    expect((await call(t, "GET", "/api/v1/users/me", { token: await sign(false) })).statusCode).toBe(401);
  });
});

describe("links are checked when their page opens", () => {
  const status = (kind: string, token: string) =>
    call(t, "POST", "/api/v1/auth/link-status", { body: { kind, token } }).then((r) => r.json());

  it("tells a valid, a used, an expired and a malformed reset link apart without using it", async () => {
    const u = await signedInUser(t);
    await call(t, "POST", "/api/v1/auth/password-reset/request", { body: { email: u.user.email } });
    const token = t.mailer.linkTo(u.user.email)?.searchParams.get("token") ?? "";
    expect(await status("password_reset", token)).toEqual({ status: "valid", email: u.user.email });
    expect(await status("password_reset", token)).toMatchObject({ status: "valid" });
    expect(await status("password_reset", "short")).toEqual({ status: "invalid" });
    expect(await status("magic_link", token)).toEqual({ status: "invalid" });
    await call(t, "POST", "/api/v1/auth/password-reset/confirm", { body: { token, new_password: "yet another one" } });
    expect(await status("password_reset", token)).toEqual({ status: "used" });

    await call(t, "POST", "/api/v1/auth/magic-link", { body: { email: "later.comer@example.com" } });
    const signup = t.mailer.linkTo("later.comer@example.com")?.searchParams.get("token") ?? "";
    expect(await status("magic_link", signup)).toEqual({ status: "valid", email: "later.comer@example.com" });
    t.clock.advance(16 * 60);
    expect(await status("magic_link", signup)).toEqual({ status: "expired" });
  });

  it("reports a missing single sign-on sign-up ticket as invalid", async () => {
    expect(await status("sso_signup", "")).toEqual({ status: "invalid" });
    expect(await status("sso_signup", "x".repeat(43))).toEqual({ status: "invalid" });
  });
});
