import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, claimsOf, createTestApp, seedUser, type TestApp } from "./harness.ts";
import { CookieBrowser, startOidcProvider } from "./oidc-test-provider.ts";

let t: TestApp;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;
let existing: Awaited<ReturnType<typeof seedUser>>;

beforeAll(async () => {
  provider = await startOidcProvider({
    redirectUris: ["http://localhost:5173/api/v1/sso/google/callback"],
    accounts: [
      { sub: "new-person", email: "sso.newcomer@example.com", name: "Sso Newcomer" },
      { sub: "existing", email: "sso.existing@example.com", name: "Existing" },
      { sub: "unverified", email: "sso.unverified@example.com", name: "Unverified", email_verified: false },
    ],
  });
  t = await createTestApp({
    GOOGLE_ISSUER: provider.issuer,
    GOOGLE_CLIENT_ID: provider.clientId,
    GOOGLE_CLIENT_SECRET: provider.clientSecret,
  });
  existing = await seedUser(t, { email: "sso.existing@example.com" });
});
afterAll(async () => {
  await t.close();
  await provider.close();
});

/** Runs the browser part: Parley's login redirect → provider → Parley's callback → web app URL. */
async function signInAtProvider(login: string) {
  const start = await call(t, "GET", "/api/v1/sso/google/login?redirect_to_frontend=true");
  expect(start.statusCode).toBe(302);
  const authorization = new URL(start.headers.location as string);
  expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorization.searchParams.get("redirect_uri")).toBe("http://localhost:5173/api/v1/sso/google/callback");
  const callback = await new CookieBrowser().authorize(authorization.toString(), login);
  const landed = await call(t, "GET", `${callback.pathname}${callback.search}`);
  expect(landed.statusCode).toBe(302);
  return { landed, to: new URL(landed.headers.location as string) };
}

describe("single sign-on (OpenID Connect against a local provider)", () => {
  it("sends a first-time user to sign-up, then POST /sso/signup creates the account", async () => {
    const { to } = await signInAtProvider("new-person");
    expect(to.pathname).toBe("/auth/signup-sso");
    expect(to.searchParams.get("email")).toBe("sso.newcomer@example.com");
    const ticket = to.searchParams.get("signup_token") ?? "";
    const res = await call(t, "POST", "/api/v1/sso/signup", { body: { signup_token: ticket, name: "Sso Newcomer" } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user_info).toMatchObject({
      email: "sso.newcomer@example.com",
      sso_provider: "google",
      has_password: false,
    });
    expect(body.workspaces).toEqual([expect.objectContaining({ id: body.workspace_id, role: "owner" })]);
    expect((await call(t, "POST", "/api/v1/sso/signup", { body: { signup_token: ticket } })).statusCode).toBe(400);

    // The second time, the linked identity signs straight in.
    const again = await signInAtProvider("new-person");
    expect(again.to.pathname).toBe("/auth/sso-callback");
    expect(again.to.search).toBe("");
    const fragment = new URLSearchParams(again.to.hash.slice(1));
    expect(claimsOf(fragment.get("access_token") ?? "")).toMatchObject({
      id: body.user_info.id,
      workspace_id: body.workspace_id,
    });
    expect(fragment.get("workspace_id")).toBe(body.workspace_id);
    expect(again.landed.cookies.find((c) => c.name === "parley_refresh")?.value).toBeTruthy();
  });

  it("links an identity to the account that already has its verified email", async () => {
    const { to } = await signInAtProvider("existing");
    expect(to.pathname).toBe("/auth/sso-callback");
    const token = new URLSearchParams(to.hash.slice(1)).get("access_token") ?? "";
    expect(claimsOf(token).id).toBe(existing.user.id);
    const me = (await call(t, "GET", "/api/v1/users/me", { token })).json();
    expect(me.sso_provider).toBe("google");
  });

  it("refuses an unverified email and a forged state, landing on the login page with an error", async () => {
    const { to } = await signInAtProvider("unverified");
    expect(to.pathname).toBe("/auth/login");
    expect(to.searchParams.get("error")).toMatch(/not verified/);
    const forged = await call(t, "GET", "/api/v1/sso/google/callback?code=abc&state=forged");
    expect(new URL(forged.headers.location as string).searchParams.get("error")).toMatch(/expired/);
  });

  it("lists the configured providers for the login page", async () => {
    expect((await call(t, "GET", "/api/v1/auth/providers")).json()).toEqual({ google: true, microsoft: false });
  });

  it("answers 404 for a provider that is not configured, or redirects with the error", async () => {
    expect((await call(t, "GET", "/api/v1/sso/microsoft/login")).statusCode).toBe(404);
    const res = await call(t, "GET", "/api/v1/sso/microsoft/login?redirect_to_frontend=true");
    expect(res.statusCode).toBe(302);
    expect(new URL(res.headers.location as string).searchParams.get("error")).toMatch(/not configured/);
    expect((await call(t, "GET", "/api/v1/sso/github/login")).statusCode).toBe(422);
    expect((await call(t, "POST", "/api/v1/sso/signup", { body: {} })).statusCode).toBe(422);
  });
});
