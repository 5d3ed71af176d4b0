import { type Browser, chromium, type Page } from "playwright-core";

const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [...FLAGS, ...extraArgs],
  });
}

/** Signs in through the login form and waits for the landing page. */
export async function signIn(page: Page, baseUrl: string | null, username: string, password: string) {
  // With a base URL, open the login page first; with null, fill the login page already shown.
  if (baseUrl) await page.goto(`${baseUrl}/auth/login`);
  await page.getByLabel("Username or email").fill(username);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs out through the account menu in the topbar. */
export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
}
