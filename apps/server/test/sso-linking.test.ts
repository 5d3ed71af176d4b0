import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, claimsOf, createTestApp, seedUser, signedInUser, type TestApp } from "./harness.ts";
import { CookieBrowser, startOidcProvider } from "./oidc-test-provider.ts";

let t: TestApp;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  provider = await startOidcProvider({
    redirectUris: [
      "http://localhost:5173/api/v1/sso/google/callback",
      "http://localhost:5173/api/v1/sso/microsoft/callback",
    ],
    accounts: [
      { sub: "google-unasserted", email: "unasserted@example.com", name: "Unasserted", email_verified: null },
      { sub: "ms-plain", email: "ms.target@example.com", name: "Ms Plain", email_verified: null },
      { sub: "ms-edov", email: "ms.edov@example.com", name: "Ms Edov", email_verified: null, xms_edov: true },
      { sub: "linkable", email: "someone.else@example.com", name: "Linkable" },
      { sub: "taken", email: "taken.identity@example.com", name: "Taken" },
    ],
  });
  const sso = (prefix: string) => ({
    [`${prefix}_ISSUER`]: provider.issuer,
    [`${prefix}_CLIENT_ID`]: provider.clientId,
    [`${prefix}_CLIENT_SECRET`]: provider.clientSecret,
  });
  t = await createTestApp({ ...sso("GOOGLE"), ...sso("MICROSOFT") });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

/** Follows the browser from a provider URL to where Parley's callback sends it. */
async function throughProvider(authorizationUrl: string, login: string) {
  const callback = await new CookieBrowser().authorize(authorizationUrl, login);
  const landed = await call(t, "GET", `${callback.pathname}${callback.search}`);
  expect(landed.statusCode).toBe(302);
  return new URL(landed.headers.location as string);
}

async function signIn(providerId: "google" | "microsoft", login: string) {
  const start = await call(t, "GET", `/api/v1/sso/${providerId}/login?redirect_to_frontend=true`);
  return throughProvider(start.headers.location as string, login);
}

async function linkFromProfile(token: string, providerId: "google" | "microsoft", login: string) {
  const start = await call(t, "POST", `/api/v1/users/me/sso/${providerId}/link`, { token });
  expect(start.statusCode).toBe(200);
  return throughProvider(start.json().url, login);
}

describe("single sign-on never takes over an account by an email the provider does not vouch for", () => {
  it("refuses a Google identity without email_verified, asking to link from the profile", async () => {
    const victim = await signedInUser(t, { email: "unasserted@example.com" });
    const to = await signIn("google", "google-unasserted");
    expect(to.pathname).toBe("/auth/login");
    expect(to.searchParams.get("error")).toMatch(/link your Google account from your profile/);
    expect((await call(t, "GET", "/api/v1/users/me/sso-identities", { token: victim.token })).json()).toEqual([]);
  });

  it("never links a Microsoft identity by email without the verified-domain claim", async () => {
    await seedUser(t, { email: "ms.target@example.com" });
    const to = await signIn("microsoft", "ms-plain");
    expect(to.pathname).toBe("/auth/login");
    expect(to.searchParams.get("error")).toMatch(/link your Microsoft account from your profile/);
  });

  it("links a Microsoft identity whose email domain is verified (xms_edov)", async () => {
    const owner = await seedUser(t, { email: "ms.edov@example.com" });
    const to = await signIn("microsoft", "ms-edov");
    expect(to.pathname).toBe("/auth/sso-callback");
    const token = new URLSearchParams(to.hash.slice(1)).get("access_token") ?? "";
    expect(claimsOf(token).id).toBe(owner.user.id);
  });
});

describe("linking an identity from the profile", () => {
  it("links the identity to the signed-in account, whatever its email, and signs in with it later", async () => {
    const u = await signedInUser(t);
    const to = await linkFromProfile(u.token, "google", "linkable");
    expect(to.pathname).toBe("/profile");
    expect(to.searchParams.get("linked")).toBe("google");
    const identities = (await call(t, "GET", "/api/v1/users/me/sso-identities", { token: u.token })).json();
    expect(identities).toEqual([
      { provider: "google", email: "someone.else@example.com", linked_at: expect.any(String) },
    ]);
    const again = await signIn("google", "linkable");
    expect(again.pathname).toBe("/auth/sso-callback");
    expect(claimsOf(new URLSearchParams(again.hash.slice(1)).get("access_token") ?? "").id).toBe(u.user.id);

    const unlinked = await call(t, "DELETE", "/api/v1/users/me/sso-identities/google", { token: u.token });
    expect(unlinked.json()).toEqual([]);
    expect((await call(t, "GET", "/api/v1/users/me", { token: u.token })).json().sso_provider).toBeNull();
    // Unlinked, the identity no longer reaches the account: it would sign up afresh.
    expect((await signIn("google", "linkable")).pathname).toBe("/auth/signup-sso");
  });

  it("refuses an identity already linked to another account, and needs a signed-in user to start", async () => {
    const first = await signedInUser(t);
    await linkFromProfile(first.token, "google", "taken");
    const second = await signedInUser(t);
    const to = await linkFromProfile(second.token, "google", "taken");
    expect(to.pathname).toBe("/profile");
    expect(to.searchParams.get("link_error")).toMatch(/already linked to another Parley account/);
    expect((await call(t, "POST", "/api/v1/users/me/sso/google/link")).statusCode).toBe(401);
  });
});
