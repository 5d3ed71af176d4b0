import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiLogin, createUser } from "../support/api.ts";
import { launchBrowser } from "../support/browser.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { startSmtpServer } from "../support/smtp.ts";

let server: RunningServer;
let browser: Browser;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  [server, browser] = await Promise.all([startServer({ SMTP_URL: smtp.url }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
});

async function askForLink(email: string) {
  const page = await browser.newPage();
  await page.goto(`${server.url}/auth/login`);
  await page.getByLabel("Email for a sign-in link").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.getByRole("status").filter({ hasText: "sign-in link is on its way" }).waitFor();
  return page;
}

describe("email links through a real SMTP server", () => {
  it("signs a known user in with a magic link", async () => {
    const admin = await apiLogin(server.url, server.admin.email, server.admin.password);
    const user = await createUser(server.url, admin, "Magic Reader");
    const page = await askForLink(user.email);
    const link = await smtp.linkTo(user.email, `${server.url}/auth/magic-link-callback`);
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.getByRole("heading", { name: "Welcome, Magic Reader" }).waitFor();
    expect(
      await page.evaluate(() =>
        Boolean(localStorage.getItem("access_token") && localStorage.getItem("last_workspace")),
      ),
    ).toBe(true);
    await page.close();
  });

  it("completes a sign-up for a new address with a personal workspace", async () => {
    const email = "brand.new@e2e.test";
    const page = await askForLink(email);
    const link = await smtp.linkTo(email, `${server.url}/auth/complete-signup-magic-link`);
    await page.goto(link);
    await page.getByLabel("Your name").fill("Brand New");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL((url) => url.pathname === "/home");
    await page.getByRole("heading", { name: "Welcome, Brand New" }).waitFor();
    await page.getByText("Brand's workspace").first().waitFor();
    await page.close();
  });

  it("resets a forgotten password from the emailed link", async () => {
    const admin = await apiLogin(server.url, server.admin.email, server.admin.password);
    const user = await createUser(server.url, admin, "Forgetful Person");
    const page = await browser.newPage();
    await page.goto(`${server.url}/auth/login`);
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await page.getByRole("textbox", { name: "Email", exact: true }).fill(user.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    const link = await smtp.linkTo(user.email, `${server.url}/reset-password`);
    await page.goto(link);
    const passwords = page.locator('input[autocomplete="new-password"]');
    await passwords.nth(0).fill("a brand new secret");
    await passwords.nth(1).fill("a brand new secret");
    await page.getByRole("button", { name: "Set new password" }).click();
    await page.getByRole("status").filter({ hasText: "password has been changed" }).waitFor();
    expect(await apiLogin(server.url, user.username, "a brand new secret")).toBeTruthy();
    await page.close();
  });
});
