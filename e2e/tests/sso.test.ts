import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider } from "../../apps/server/test/oidc-test-provider.ts";
import { launchBrowser } from "../support/browser.ts";
import { freePort, type RunningServer, startServer } from "../support/server.ts";

let server: RunningServer;
let browser: Browser;
let provider: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  const port = await freePort();
  provider = await startOidcProvider({
    redirectUris: [`http://127.0.0.1:${port}/api/v1/sso/google/callback`],
    accounts: [{ sub: "browser-user", email: "sso.browser@e2e.test", name: "Browser Sso" }],
  });
  [server, browser] = await Promise.all([
    startServer(
      {
        GOOGLE_ISSUER: provider.issuer,
        GOOGLE_CLIENT_ID: provider.clientId,
        GOOGLE_CLIENT_SECRET: provider.clientSecret,
      },
      port,
    ),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.close();
});

/** The local provider's development login and consent pages. */
async function passProvider(page: import("playwright-core").Page, login: string) {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any");
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click();
}

describe("Google single sign-on against a local OpenID provider", () => {
  it("signs up on the first visit and signs straight in on the next", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/auth/login`);
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await passProvider(page, "browser-user");
    await page.waitForURL((url) => url.pathname === "/auth/signup-sso");
    expect(await page.getByLabel("Your name").inputValue()).toBe("Browser Sso");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL((url) => url.pathname === "/home");
    await page.getByRole("heading", { name: "Welcome, Browser Sso" }).waitFor();
    await context.close();

    const again = await browser.newContext();
    const second = await again.newPage();
    await second.goto(`${server.url}/auth/login`);
    await second.getByRole("button", { name: "Continue with Google" }).click();
    await passProvider(second, "browser-user");
    await second.waitForURL((url) => url.pathname === "/home");
    await second.getByRole("heading", { name: "Welcome, Browser Sso" }).waitFor();
    expect(second.url()).not.toContain("access_token");
    await again.close();
  });

  it("shows the provider's refusal on the login page", async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/api/v1/sso/google/callback?error=access_denied&error_description=You%20declined`);
    await page.waitForURL((url) => url.pathname === "/auth/login");
    await page.getByRole("alert").filter({ hasText: "You declined" }).waitFor();
    await page.close();
  });
});
