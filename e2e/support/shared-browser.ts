import { type Browser, type BrowserServer, chromium } from "playwright-core";
import { CHROMIUM_FLAGS, CHROMIUM_PATH, launchBrowser } from "./browser.ts";

/**
 * One Chromium for the whole browser suite: global setup starts it, and each file that needs a
 * plain browser (no fake microphone, no flags of its own) connects to it instead of launching its
 * own. A launch cost about 3 s of CPU on this 2-core machine, paid by some twenty files. Files
 * stay apart as before: each connection makes its own contexts (own cookies, storage and cache),
 * and closing a connection closes the contexts it made.
 */
export const SHARED_BROWSER_ENV = "PARLEY_E2E_BROWSER_WS";

/** Starts the suite's Chromium, answering on 127.0.0.1 only, with the same flags as launchBrowser. */
export function startSharedBrowser(): Promise<BrowserServer> {
  return chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_FLAGS,
    host: "127.0.0.1",
  });
}

/**
 * The suite's Chromium, connected to; outside the suite (a benchmark, a file run without global
 * setup) a Chromium of its own. Either way `close()` ends what this caller made.
 */
export function sharedBrowser(): Promise<Browser> {
  const endpoint = process.env[SHARED_BROWSER_ENV];
  return endpoint ? chromium.connect(endpoint) : launchBrowser();
}
