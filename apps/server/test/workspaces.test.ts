import { describe, expect, it } from "vitest";
import { call, claimsOf, login, seedUser, signedInUser, useTestApp } from "./harness.ts";

const t = useTestApp();

const ZERO = "00000000-0000-4000-8000-000000000000";

describe("workspaces", () => {
  it("lists the caller's workspaces with role, is_current and concurrency_limit", async () => {
    const a = await signedInUser(t);
    const res = await call(t, "GET", "/api/v1/workspaces", { token: a.token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({
        id: a.workspaceId,
        role: "owner",
        is_current: true,
        concurrency_limit: 5,
        member_count: 1,
      }),
    ]);
  });

  it("creates a workspace the caller owns and switches to it with a new token", async () => {
    const a = await signedInUser(t);
    const created = await call(t, "POST", "/api/v1/workspaces", {
      token: a.token,
      body: { name: "Sales", billing_email: "bill@example.com" },
    });
    expect(created.statusCode).toBe(201);
    const ws = created.json();
    expect(ws).toMatchObject({ name: "Sales", role: "owner", billing_email: "bill@example.com", is_current: false });
    const switched = await call(t, "POST", `/api/v1/switch-workspace/${ws.id}`, { token: a.token });
    expect(switched.statusCode).toBe(200);
    const token = switched.json().access_token;
    expect(claimsOf(token).workspace_id).toBe(ws.id);
    const list = (await call(t, "GET", "/api/v1/workspaces", { token })).json();
    expect(list.find((w: { id: string }) => w.id === ws.id).is_current).toBe(true);
    // A later refresh keeps the workspace the user switched to.
    const refreshed = await call(t, "POST", "/api/v1/refresh", { cookie: a.refreshCookie });
    expect(claimsOf(refreshed.json().access_token).workspace_id).toBe(ws.id);
  });

  it("validates bodies with 422 naming the field", async () => {
    const a = await signedInUser(t);
    const res = await call(t, "POST", "/api/v1/workspaces", { token: a.token, body: { name: "" } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail).toMatch(/name/);
    const bad = await call(t, "PATCH", `/api/v1/workspaces/${a.workspaceId}`, {
      token: a.token,
      body: { concurrency_limit: -1 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toMatch(/concurrency_limit/);
    const badId = await call(t, "PATCH", "/api/v1/workspaces/not-a-uuid", { token: a.token, body: { name: "x" } });
    expect(badId.statusCode).toBe(422);
  });

  it("lets owners rename and set billing email and concurrency", async () => {
    const a = await signedInUser(t);
    const res = await call(t, "PATCH", `/api/v1/workspaces/${a.workspaceId}`, {
      token: a.token,
      body: { name: "Renamed", billing_email: "ops@example.com", concurrency_limit: 12 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: "Renamed", billing_email: "ops@example.com", concurrency_limit: 12 });
  });

  it("keeps other workspaces invisible: 404 on every workspace route", async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    const ws = a.workspaceId;
    const attempts = [
      call(t, "PATCH", `/api/v1/workspaces/${ws}`, { token: b.token, body: { name: "mine now" } }),
      call(t, "GET", `/api/v1/workspaces/${ws}/users`, { token: b.token }),
      call(t, "POST", `/api/v1/workspaces/${ws}/invite`, {
        token: b.token,
        body: { email: "x@example.com", role: "member" },
      }),
      call(t, "PATCH", `/api/v1/workspaces/${ws}/users/${a.user.id}`, { token: b.token, body: { role: "member" } }),
      call(t, "DELETE", `/api/v1/workspaces/${ws}/users/${a.user.id}`, { token: b.token }),
      call(t, "DELETE", `/api/v1/workspaces/${ws}/invitations/${ZERO}`, { token: b.token }),
      call(t, "POST", `/api/v1/switch-workspace/${ws}`, { token: b.token }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.statusCode).toBe(404);
  });

  it("needs a token on every workspace route", async () => {
    const urls: [Parameters<typeof call>[1], string][] = [
      ["GET", "/api/v1/workspaces"],
      ["POST", "/api/v1/workspaces"],
      ["PATCH", `/api/v1/workspaces/${ZERO}`],
      ["GET", `/api/v1/workspaces/${ZERO}/users`],
      ["POST", `/api/v1/workspaces/${ZERO}/invite`],
      ["DELETE", `/api/v1/workspaces/${ZERO}/invitations/${ZERO}`],
      ["PATCH", `/api/v1/workspaces/${ZERO}/users/${ZERO}`],
      ["DELETE", `/api/v1/workspaces/${ZERO}/users/${ZERO}`],
      ["POST", `/api/v1/switch-workspace/${ZERO}`],
    ];
    for (const [method, url] of urls) {
      const res = await call(t, method, url, { body: method === "GET" || method === "DELETE" ? undefined : {} });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe("workspace users", () => {
  it("invites by email; the invitee accepts through the emailed single-use link", async () => {
    const owner = await signedInUser(t);
    const invitee = await seedUser(t);
    const res = await call(t, "POST", `/api/v1/workspaces/${owner.workspaceId}/invite`, {
      token: owner.token,
      body: { email: invitee.user.email.toUpperCase(), role: "member" },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ email: invitee.user.email, role: "member" });
    const email = t.mailer.lastTo(invitee.user.email);
    expect(email?.subject).toMatch(/invited you/);
    const link = t.mailer.linkTo(invitee.user.email);
    expect(link?.pathname).toBe("/enterprise-quota");

    const pending = (
      await call(t, "GET", `/api/v1/workspaces/${owner.workspaceId}/users`, { token: owner.token })
    ).json();
    expect(pending.invitations).toHaveLength(1);
    expect(pending.data).toHaveLength(1);

    const { token } = await login(t, invitee.user.username, invitee.password);
    // A password sign-in proves nothing about the address: the invitation waits for its link.
    expect((await call(t, "GET", "/api/v1/workspaces", { token })).json()).toHaveLength(1);
    const accepted = await call(t, "POST", "/api/v1/invitations/accept", {
      token,
      body: { token: link?.searchParams.get("invitation") },
    });
    expect(accepted.json()).toMatchObject({ id: owner.workspaceId, role: "member" });
    const list = (await call(t, "GET", "/api/v1/workspaces", { token })).json();
    expect(list.map((w: { id: string; role: string }) => [w.id, w.role])).toContainEqual([owner.workspaceId, "member"]);
    const after = (
      await call(t, "GET", `/api/v1/workspaces/${owner.workspaceId}/users`, { token: owner.token })
    ).json();
    expect(after.invitations).toHaveLength(0);
    expect(after.data.map((m: { id: string }) => m.id)).toContain(invitee.user.id);
  });

  it("refuses inviting an existing member, and lets an owner revoke an invitation", async () => {
    const owner = await signedInUser(t);
    const again = await call(t, "POST", `/api/v1/workspaces/${owner.workspaceId}/invite`, {
      token: owner.token,
      body: { email: owner.user.email, role: "member" },
    });
    expect(again.statusCode).toBe(409);
    const inv = await call(t, "POST", `/api/v1/workspaces/${owner.workspaceId}/invite`, {
      token: owner.token,
      body: { email: "someone.new@example.com", role: "owner" },
    });
    const revoked = await call(t, "DELETE", `/api/v1/workspaces/${owner.workspaceId}/invitations/${inv.json().id}`, {
      token: owner.token,
    });
    expect(revoked.statusCode).toBe(200);
    const bad = await call(t, "POST", `/api/v1/workspaces/${owner.workspaceId}/invite`, {
      token: owner.token,
      body: { email: "not-an-email", role: "boss" },
    });
    expect(bad.statusCode).toBe(422);
  });

  async function workspaceWithMember() {
    const owner = await signedInUser(t);
    const member = await seedUser(t);
    await call(t, "POST", `/api/v1/workspaces/${owner.workspaceId}/invite`, {
      token: owner.token,
      body: { email: member.user.email, role: "member" },
    });
    const memberLogin = await login(t, member.user.username, member.password);
    const invitation = t.mailer.linkTo(member.user.email)?.searchParams.get("invitation");
    await call(t, "POST", "/api/v1/invitations/accept", { token: memberLogin.token, body: { token: invitation } });
    return { owner, member, memberToken: memberLogin.token };
  }

  it("lets only owners change roles and remove members (403 for members)", async () => {
    const { owner, member, memberToken } = await workspaceWithMember();
    const ws = owner.workspaceId;
    expect((await call(t, "GET", `/api/v1/workspaces/${ws}/users`, { token: memberToken })).statusCode).toBe(200);
    const forbidden = [
      await call(t, "PATCH", `/api/v1/workspaces/${ws}`, { token: memberToken, body: { name: "x" } }),
      await call(t, "POST", `/api/v1/workspaces/${ws}/invite`, {
        token: memberToken,
        body: { email: "q@example.com", role: "member" },
      }),
      await call(t, "PATCH", `/api/v1/workspaces/${ws}/users/${owner.user.id}`, {
        token: memberToken,
        body: { role: "member" },
      }),
      await call(t, "DELETE", `/api/v1/workspaces/${ws}/users/${owner.user.id}`, { token: memberToken }),
    ];
    for (const res of forbidden) expect(res.statusCode).toBe(403);

    const promoted = await call(t, "PATCH", `/api/v1/workspaces/${ws}/users/${member.user.id}`, {
      token: owner.token,
      body: { role: "owner" },
    });
    expect(promoted.statusCode).toBe(200);
    const badRole = await call(t, "PATCH", `/api/v1/workspaces/${ws}/users/${member.user.id}`, {
      token: owner.token,
      body: { role: "king" },
    });
    expect(badRole.statusCode).toBe(422);
    const removed = await call(t, "DELETE", `/api/v1/workspaces/${ws}/users/${member.user.id}`, { token: owner.token });
    expect(removed.statusCode).toBe(200);
    expect((await call(t, "GET", `/api/v1/workspaces/${ws}/users`, { token: memberToken })).statusCode).toBe(404);
  });

  it("never leaves a workspace without an owner", async () => {
    const { owner, member, memberToken } = await workspaceWithMember();
    const ws = owner.workspaceId;
    const demote = await call(t, "PATCH", `/api/v1/workspaces/${ws}/users/${owner.user.id}`, {
      token: owner.token,
      body: { role: "member" },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().detail).toMatch(/owner/);
    const leave = await call(t, "DELETE", `/api/v1/workspaces/${ws}/users/${owner.user.id}`, { token: owner.token });
    expect(leave.statusCode).toBe(409);
    // A member may leave on their own.
    const memberLeaves = await call(t, "DELETE", `/api/v1/workspaces/${ws}/users/${member.user.id}`, {
      token: memberToken,
    });
    expect(memberLeaves.statusCode).toBe(200);
  });
});
