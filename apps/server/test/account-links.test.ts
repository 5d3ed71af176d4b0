import { describe, expect, it } from "vitest";
import { call, login, signedInUser, useTestApp } from "./harness.ts";

const t = useTestApp();

describe("changing the email address", () => {
  it("waits for the link sent to the new address and tells the old one", async () => {
    const u = await signedInUser(t);
    await call(t, "POST", "/api/v1/auth/password-reset/request", { body: { email: u.user.email } });
    const oldReset = t.mailer.linkTo(u.user.email)?.searchParams.get("token") ?? "";
    const res = await call(t, "PATCH", "/api/v1/users/me", {
      token: u.token,
      body: { email: "Moved.Here@example.com" },
    });
    expect(res.statusCode).toBe(200);
    // Nothing changed yet: a stolen session cannot move the account by itself.
    expect(res.json().email).toBe(u.user.email);
    expect(t.mailer.lastTo(u.user.email)?.subject).toMatch(/being changed/);
    expect(t.mailer.lastTo(u.user.email)?.text).not.toContain("moved.here@example.com");
    const link = t.mailer.linkTo("moved.here@example.com");
    expect(link?.pathname).toBe("/profile");
    const token = link?.searchParams.get("email_token") ?? "";

    const confirmed = await call(t, "POST", "/api/v1/users/me/email/confirm", { body: { token } });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().email).toBe("moved.here@example.com");
    expect((await call(t, "GET", "/api/v1/users/me", { token: u.token })).json().email).toBe("moved.here@example.com");
    expect((await call(t, "POST", "/api/v1/users/me/email/confirm", { body: { token } })).statusCode).toBe(400);
    // A reset link mailed to the old address stops working, and the old address no longer signs in.
    const reset = await call(t, "POST", "/api/v1/auth/password-reset/confirm", {
      body: { token: oldReset, new_password: "taken over now" },
    });
    expect(reset.statusCode).toBe(400);
    await expect(login(t, u.user.email, u.password)).rejects.toThrow(/401/);
    expect((await login(t, "moved.here@example.com", u.password)).token).toBeTruthy();
  });

  it("refuses the confirmation if another account took the address meanwhile", async () => {
    const a = await signedInUser(t);
    await call(t, "PATCH", "/api/v1/users/me", { token: a.token, body: { email: "contested@example.com" } });
    const token = t.mailer.linkTo("contested@example.com")?.searchParams.get("email_token") ?? "";
    const b = await signedInUser(t);
    await call(t, "PATCH", "/api/v1/users/me", { token: b.token, body: { email: "contested@example.com" } });
    const bToken = t.mailer.linkTo("contested@example.com")?.searchParams.get("email_token") ?? "";
    expect((await call(t, "POST", "/api/v1/users/me/email/confirm", { body: { token: bToken } })).statusCode).toBe(200);
    expect((await call(t, "POST", "/api/v1/users/me/email/confirm", { body: { token } })).statusCode).toBe(409);
  });
});

describe("invitations", () => {
  async function invite(email: string, role: "owner" | "member" = "member") {
    const owner = await signedInUser(t);
    await call(t, "POST", `/api/v1/workspaces/${owner.workspaceId}/invite`, {
      token: owner.token,
      body: { email, role },
    });
    const token = t.mailer.linkTo(email)?.searchParams.get("invitation") ?? "";
    return { owner, token };
  }

  it("are not picked up by an account that merely carries the address", async () => {
    // An account whose email someone typed (here: a superuser-created one) signs in with a password.
    const squatter = await signedInUser(t, { email: "victim.owner@example.com" });
    const { owner } = await invite("victim.owner@example.com", "owner");
    const again = await login(t, squatter.user.username, squatter.password);
    const workspaces = (await call(t, "GET", "/api/v1/workspaces", { token: again.token })).json();
    expect(workspaces.map((w: { id: string }) => w.id)).not.toContain(owner.workspaceId);
  });

  it("are previewed and accepted once through their link, by the account using the invited address", async () => {
    const { owner, token } = await invite("invitee.link@example.com", "owner");
    const preview = await call(t, "POST", "/api/v1/invitations/preview", { body: { token } });
    expect(preview.json()).toEqual({
      status: "valid",
      workspace_name: expect.any(String),
      role: "owner",
      email: "invitee.link@example.com",
      inviter_name: owner.user.name,
    });
    const someone = await signedInUser(t, { email: "invitee.link@example.com" });
    expect((await call(t, "POST", "/api/v1/invitations/accept", { body: { token } })).statusCode).toBe(401);
    const accepted = await call(t, "POST", "/api/v1/invitations/accept", { token: someone.token, body: { token } });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ id: owner.workspaceId, role: "owner" });
    // Single use: a second account cannot reuse it.
    const other = await signedInUser(t);
    const reuse = await call(t, "POST", "/api/v1/invitations/accept", { token: other.token, body: { token } });
    expect(reuse.statusCode).toBe(400);
    expect((await call(t, "POST", "/api/v1/invitations/preview", { body: { token } })).json()).toEqual({
      status: "used",
    });
    // Members listing the workspace's invitations never see a token.
    const listing = await call(t, "GET", `/api/v1/workspaces/${owner.workspaceId}/users`, { token: owner.token });
    expect(listing.body).not.toContain(token);
  });

  it("say so when revoked, replaced, expired or malformed", async () => {
    const preview = (token: string) =>
      call(t, "POST", "/api/v1/invitations/preview", { body: { token } }).then((r) => r.json().status);
    const { owner, token: revoked } = await invite("revoked@example.com");
    const listing = await call(t, "GET", `/api/v1/workspaces/${owner.workspaceId}/users`, { token: owner.token });
    const [pending] = listing.json().invitations;
    await call(t, "DELETE", `/api/v1/workspaces/${owner.workspaceId}/invitations/${pending.id}`, {
      token: owner.token,
    });
    expect(await preview(revoked)).toBe("invalid");

    const again = () =>
      call(t, "POST", `/api/v1/workspaces/${owner.workspaceId}/invite`, {
        token: owner.token,
        body: { email: "twice@example.com", role: "member" },
      });
    await again();
    const replaced = t.mailer.linkTo("twice@example.com")?.searchParams.get("invitation") ?? "";
    await again();
    const current = t.mailer.linkTo("twice@example.com")?.searchParams.get("invitation") ?? "";
    expect(await preview(replaced)).toBe("invalid");
    expect(await preview("not-a-token")).toBe("invalid");
    expect(await preview(current)).toBe("valid");
    t.clock.advance(15 * 24 * 3600);
    expect(await preview(current)).toBe("expired");
  });

  it("land a magic-link sign-in in the inviting workspace: the link proved the address", async () => {
    const member = await signedInUser(t);
    const { owner } = await invite(member.user.email);
    await call(t, "POST", "/api/v1/auth/magic-link", { body: { email: member.user.email } });
    const token = t.mailer.linkTo(member.user.email)?.searchParams.get("token") ?? "";
    const res = await call(t, "POST", "/api/v1/auth/magic-link/verify", { body: { token } });
    expect(res.json().workspaceId).toBe(owner.workspaceId);
  });
});
