import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "../src/modules/users/service.ts";
import { call, claimsOf, createTestApp, login, seedUser, signedInUser, type TestApp } from "./harness.ts";
import { CookieBrowser, startOidcProvider } from "./oidc-test-provider.ts";

// Issue 25, items 2 and 13c: an address belongs to an account only when it was proven, and an
// invitation joins only the account that uses the invited address.

let t: TestApp;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  provider = await startOidcProvider({
    redirectUris: [
      "http://localhost:5173/api/v1/sso/google/callback",
      "http://localhost:5173/api/v1/sso/microsoft/callback",
    ],
    accounts: [
      // A tenant the attacker runs can put any address in `email` (no xms_edov for a domain it does not own).
      { sub: "ms-attacker", email: "newhire@example.com", name: "Not Newhire", email_verified: null },
      { sub: "google-unasserted", email: "unasserted.signup@example.com", name: "Unasserted", email_verified: null },
      { sub: "google-verified-legacy", email: "legacy.victim@example.com", name: "Legacy Victim" },
      { sub: "ms-verified", email: "ms.verified.signup@example.com", name: "Ms Verified", xms_edov: true },
    ],
  });
  const sso = (prefix: string) => ({
    [`${prefix}_ISSUER`]: provider.issuer,
    [`${prefix}_CLIENT_ID`]: provider.clientId,
    [`${prefix}_CLIENT_SECRET`]: provider.clientSecret,
  });
  t = await createTestApp({ ...sso("GOOGLE"), ...sso("MICROSOFT"), EMAIL_RATE_LIMIT_PER_IP: "1000" });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

/** Parley's login redirect → the provider → Parley's callback: where the web app is sent. */
async function signIn(providerId: "google" | "microsoft", account: string) {
  const start = await call(t, "GET", `/api/v1/sso/${providerId}/login?redirect_to_frontend=true`);
  const callback = await new CookieBrowser().authorize(start.headers.location as string, account);
  const landed = await call(t, "GET", `${callback.pathname}${callback.search}`);
  expect(landed.statusCode).toBe(302);
  return new URL(landed.headers.location as string);
}

const accessTokenOf = (to: URL) => new URLSearchParams(to.hash.slice(1)).get("access_token") ?? "";
const workspaceIds = async (token: string) =>
  (await call(t, "GET", "/api/v1/workspaces", { token })).json().map((w: { id: string }) => w.id);

async function invite(email: string) {
  const owner = await signedInUser(t);
  const res = await call(t, "POST", `/api/v1/workspaces/${owner.workspaceId}/invite`, {
    token: owner.token,
    body: { email, role: "owner" },
  });
  expect(res.statusCode).toBe(201);
  return { owner, link: t.mailer.linkTo(email)?.searchParams.get("invitation") ?? "" };
}

/** Requests a magic link for the address and opens it as its real owner would. */
async function magicLinkFor(email: string) {
  await call(t, "POST", "/api/v1/auth/magic-link", { body: { email } });
  const link = t.mailer.linkTo(email);
  return link;
}

/** An account as one created before this round from a provider's unverified email is stored. */
async function legacyUnverifiedAccount(email: string) {
  const seeded = await seedUser(t, { email });
  await t.ctx.db.execute(sql`update users set email_verified = false where id = ${seeded.user.id}`);
  return seeded;
}

describe("an identity provider's unverified email never owns the address", () => {
  it("creates no account from a Microsoft email without the verified-domain claim, and says why", async () => {
    const to = await signIn("microsoft", "ms-attacker");
    expect(to.pathname).toBe("/auth/login");
    expect(to.searchParams.get("error")).toBe(
      "Microsoft did not confirm that newhire@example.com is your address, so Parley cannot create an account from it. Create your account with a sign-in link emailed to that address instead; you can then link your Microsoft account from your profile.",
    );
    expect(await findUserByEmail(t.ctx.db, "newhire@example.com")).toBeUndefined();
  });

  it("creates no account from a Google email sent without email_verified", async () => {
    const to = await signIn("google", "google-unasserted");
    expect(to.pathname).toBe("/auth/login");
    expect(to.searchParams.get("error")).toMatch(/^Google did not confirm that unasserted\.signup@example\.com/);
  });

  it("still signs up an identity whose email the provider vouches for", async () => {
    const to = await signIn("microsoft", "ms-verified");
    expect(to.pathname).toBe("/auth/signup-sso");
    const body = { signup_token: to.searchParams.get("signup_token") };
    const res = await call(t, "POST", "/api/v1/sso/signup", { body });
    expect(res.statusCode).toBe(200);
    expect(res.json().user_info.email).toBe("ms.verified.signup@example.com");
  });

  it("the pre-account takeover fails: the real newhire signs up by link, joins the invitation, and the attacker sees nothing", async () => {
    const { owner } = await invite("newhire@example.com");
    const attempt = await signIn("microsoft", "ms-attacker");
    expect(attempt.pathname).toBe("/auth/login");

    const link = await magicLinkFor("newhire@example.com");
    expect(link?.pathname).toBe("/auth/complete-signup-magic-link");
    const signup = await call(t, "POST", "/api/v1/auth/magic-link/complete-signup", {
      body: { token: link?.searchParams.get("token") },
    });
    expect(signup.statusCode).toBe(200);
    expect(signup.json().workspace_id).toBe(owner.workspaceId);

    const again = await signIn("microsoft", "ms-attacker");
    expect(again.pathname).toBe("/auth/login");
    expect(accessTokenOf(again)).toBe("");
  });
});

describe("an account created from an unverified email (before this round) does not own its address", () => {
  it("is never opened by a magic link to the address: no link is sent, the owner is told why", async () => {
    const legacy = await legacyUnverifiedAccount("legacy.magic@example.com");
    const { owner } = await invite("legacy.magic@example.com");
    const sent = await call(t, "POST", "/api/v1/auth/magic-link", { body: { email: "legacy.magic@example.com" } });
    expect(sent.statusCode).toBe(200);
    const email = t.mailer.lastTo("legacy.magic@example.com");
    expect(email?.subject).toBe("About your Parley sign-in request");
    expect(email?.text).toMatch(/created through single sign-on without the address being confirmed/);
    expect(email?.text).not.toMatch(/token=/);
    // Nor does a password sign-in of that account pick up the address's invitation.
    const session = await login(t, legacy.user.username, legacy.password);
    expect(await workspaceIds(session.token)).not.toContain(owner.workspaceId);
  });

  it("is not joined by a verified sign-in to its address, and gets no reset link", async () => {
    await legacyUnverifiedAccount("legacy.victim@example.com");
    const to = await signIn("google", "google-verified-legacy");
    expect(to.pathname).toBe("/auth/login");
    expect(to.searchParams.get("error")).toMatch(/without the address being confirmed/);
    await call(t, "POST", "/api/v1/auth/password-reset/request", { body: { email: "legacy.victim@example.com" } });
    expect(t.mailer.lastTo("legacy.victim@example.com")?.text).not.toMatch(/token=/);
  });

  it("cannot accept an invitation to its address through the link either", async () => {
    const legacy = await legacyUnverifiedAccount("legacy.link@example.com");
    const { link } = await invite("legacy.link@example.com");
    const session = await login(t, legacy.user.username, legacy.password);
    const res = await call(t, "POST", "/api/v1/invitations/accept", { token: session.token, body: { token: link } });
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toMatch(/never confirmed/);
  });
});

describe("an invitation link joins only the account that uses the invited address", () => {
  it("refuses another signed-in account with 403 naming the invited address, and stays usable", async () => {
    const { owner, link } = await invite("invited.person@example.com");
    const stranger = await signedInUser(t);
    const refused = await call(t, "POST", "/api/v1/invitations/accept", {
      token: stranger.token,
      body: { token: link },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().detail).toBe(
      "This invitation was sent to invited.person@example.com. Sign in with that address (or create an account with it) to accept it.",
    );
    expect(await workspaceIds(stranger.token)).not.toContain(owner.workspaceId);
    expect((await call(t, "POST", "/api/v1/invitations/preview", { body: { token: link } })).json().status).toBe(
      "valid",
    );

    const invitee = await signedInUser(t, { email: "Invited.Person@Example.com" });
    const accepted = await call(t, "POST", "/api/v1/invitations/accept", {
      token: invitee.token,
      body: { token: link },
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ id: owner.workspaceId, role: "owner" });
    expect(claimsOf(invitee.token).id).toBe(invitee.user.id);
  });
});
