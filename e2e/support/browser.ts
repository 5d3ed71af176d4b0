import { type Browser, chromium, type Page } from "playwright-core";

/**
 * Headless flags for this machine's closed network, plus one for its two cores: Chromium 156 loads
 * its omnibox popup (a WebUI page, chrome://omnibox-popup.top-chrome) into its own renderer with
 * every new window. Nobody sees it headless, yet it took about a second of CPU per window while the
 * page under test loaded (traced: a 287 ms layout task of the page got 41 ms of CPU), so tests
 * waited on it and Lighthouse charged it to the page. All three features must be off for the popup
 * to stay unloaded.
 */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
];

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_FLAGS, ...extraArgs],
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
