import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider } from "../../apps/server/test/oidc-test-provider.ts";
import { apiLogin, createUser } from "../support/api.ts";
import { launchBrowser, signIn, signInToHome, signOut } from "../support/browser.ts";
import { inviteToAdminWorkspace } from "../support/invitations.ts";
import { freePort, type RunningServer, startServer } from "../support/server.ts";
import { startSmtpServer } from "../support/smtp.ts";

let server: RunningServer;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let adminToken: string;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  const port = await freePort();
  smtp = await startSmtpServer();
  provider = await startOidcProvider({
    redirectUris: [`http://127.0.0.1:${port}/api/v1/sso/google/callback`],
    // The provider does not vouch for this address: the identity is linked from the profile only.
    accounts: [{ sub: "profile-link", email: "elsewhere@e2e.test", name: "Elsewhere", email_verified: null }],
  });
  const sso = {
    GOOGLE_ISSUER: provider.issuer,
    GOOGLE_CLIENT_ID: provider.clientId,
    GOOGLE_CLIENT_SECRET: provider.clientSecret,
  };
  [server, browser] = await Promise.all([startServer({ SMTP_URL: smtp.url, ...sso }, port), launchBrowser()]);
  adminToken = await apiLogin(server.url, server.admin.email, server.admin.password);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
  await provider?.close();
});

describe("the origin is kept through sign-in", () => {
  it("returns to the page visited while signed out", async () => {
    const user = await createUser(server.url, adminToken, "Origin Keeper");
    const page = await browser.newPage();
    await page.goto(`${server.url}/functions`);
    await page.waitForURL((url) => url.pathname === "/auth/login");
    await signIn(page, null, user.username, user.password);
    await page.waitForURL((url) => url.pathname === "/functions");
    await page.close();
  });
});

describe("sign-in limits count failures only", () => {
  it("still signs a person in after more successful sign-ins than the per-account limit", async () => {
    const user = await createUser(server.url, adminToken, "Frequent Visitor");
    for (let i = 0; i < 11; i++) await apiLogin(server.url, i % 2 ? user.email : user.username, user.password);
    const page = await browser.newPage();
    await signIn(page, server.url, user.username, user.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.close();
  });
});

describe("links are checked when their page opens", () => {
  it("says at once that a used reset link is used, and offers a new one", async () => {
    const user = await createUser(server.url, adminToken, "Twice Resetter");
    await fetch(`${server.url}/api/v1/auth/password-reset/request`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: user.email }),
    });
    const link = await smtp.linkTo(user.email, `${server.url}/reset-password`);
    const page = await browser.newPage();
    await page.goto(link);
    const passwords = page.locator('input[autocomplete="new-password"]');
    await passwords.nth(0).fill("a brand new secret");
    await passwords.nth(1).fill("a brand new secret");
    await page.getByRole("button", { name: "Set new password" }).click();
    // After the reset the sign-in page opens, saying so.
    await page.waitForURL((url) => url.pathname === "/auth/login");
    await page.getByRole("status").filter({ hasText: "password has been changed" }).waitFor();

    await page.goto(link);
    await page.getByRole("alert").filter({ hasText: "This link was already used." }).waitFor();
    expect(await passwords.count()).toBe(0);
    await page.getByRole("link", { name: "Ask for a new reset link" }).click();
    await page.getByRole("button", { name: "Send reset link" }).waitFor();
    await page.close();
  });

  it("explains a single sign-on sign-up page opened without its ticket", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/auth/signup-sso`);
    await page.getByRole("alert").filter({ hasText: "This link is incomplete or not valid." }).waitFor();
    expect(await page.getByText("You are signing up as").count()).toBe(0);
    await page.getByRole("link", { name: "Sign in again" }).waitFor();
    await page.close();
  });
});

describe("invitations", () => {
  it("lead a signed-out invitee through sign-in to the invitation, and join on request", async () => {
    const invitee = await createUser(server.url, adminToken, "Invited Person");
    const { workspace: home, link } = await inviteToAdminWorkspace(server, adminToken, smtp, invitee.email);
    const page = await browser.newPage();
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === "/auth/login");
    await page.getByText("to accept your workspace invitation").waitFor();
    await signIn(page, null, invitee.username, invitee.password);
    await page.waitForURL((url) => url.pathname === "/enterprise-quota");
    await page.getByText(`invited you to join ${home.name} as Member`).waitFor();
    await page.getByRole("button", { name: `Join ${home.name}` }).click();
    await page.getByText(`You joined ${home.name}`).waitFor();
    await page.getByRole("button", { name: `Workspace: ${home.name}. Switch workspace` }).waitFor();
    await page.close();
  });
});

describe("linking single sign-on from the profile", () => {
  it("links a Google identity to the signed-in account, which then signs in with it", async () => {
    const user = await createUser(server.url, adminToken, "Linking Person");
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInToHome(page, server, user);
    await page.goto(`${server.url}/profile`);
    await page.getByRole("button", { name: "Link Google" }).click();
    await page.locator('input[name="login"]').fill("profile-link");
    await page.locator('input[name="password"]').fill("any");
    await page.locator('button[type="submit"]').click();
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === "/profile");
    await page.getByRole("status").filter({ hasText: "Your Google account is linked" }).waitFor();
    await page.getByText("Google: elsewhere@e2e.test").waitFor();

    await signOut(page);
    await page.waitForURL((url) => url.pathname === "/auth/login");
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await page.waitForURL((url) => url.pathname === "/home");
    await page.getByRole("heading", { name: "Welcome, Linking Person" }).waitFor();
    await context.close();
  });
});
