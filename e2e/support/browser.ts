import { type Browser, chromium, type Page } from "playwright-core";
import { expect } from "vitest";
import { seriousViolations } from "./axe.ts";
import type { RunningServer } from "./server.ts";
import { speechWav } from "./speech-wav.ts";

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

/**
 * Debian's Chromium with a fake microphone that says `speech` over and over (synthesized by
 * speechWav), granting it without a prompt and letting the call's audio play without a click.
 */
export function launchBrowserWithMicrophone(speech: string): Promise<Browser> {
  const microphone = speechWav(speech);
  return launchBrowser([
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${microphone}`,
    "--autoplay-policy=no-user-gesture-required",
  ]);
}

/** Who signs in: a user's username (or email) and password. */
export interface Account {
  username: string;
  password: string;
}

/** The suite's administrator, seeded by the server's first start. */
export const adminAccount = (server: RunningServer): Account => ({
  username: server.admin.email,
  password: server.admin.password,
});

/**
 * Signs in through the login form and waits for the home page. The sign-in page is pre-rendered:
 * what is typed before it hydrates is cleared, so the form is filled once the page has settled.
 */
export async function signInToHome(page: Page, server: RunningServer, account: Account = adminAccount(server)) {
  await page.goto(`${server.url}/auth/login`, { waitUntil: "networkidle" });
  await signIn(page, null, account.username, account.password);
  await page.waitForURL((url) => url.pathname === "/home");
}

/** A new tab of `browser`, signed in (as the administrator unless `account` says otherwise) on the home page. */
export async function openHomePage(
  browser: Browser,
  server: RunningServer,
  account: Account = adminAccount(server),
): Promise<Page> {
  const page = await browser.newPage();
  await signInToHome(page, server, account);
  return page;
}

/** A new tab signed in as the administrator, then opened at `pathname`. */
export async function openSignedInAt(browser: Browser, server: RunningServer, pathname: string): Promise<Page> {
  const page = await openHomePage(browser, server);
  await page.goto(`${server.url}${pathname}`);
  return page;
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

/** Opens a list page at `url`, waits for its `heading` and its empty-list `emptyText`, and checks it with axe. */
export async function openEmptyListPage(page: Page, url: string, heading: string, emptyText: string): Promise<void> {
  await page.goto(url);
  await page.getByRole("heading", { name: heading, level: 1 }).waitFor();
  await page.getByText(emptyText).waitFor();
  expect(await seriousViolations(page)).toEqual([]);
}
