import type { Page } from "playwright-core";
import type { RunningServer } from "./server.ts";

/** Opens the assistant's talk page in a signed-in tab and starts a call, waiting until it is connected. */
export async function startBrowserCall(page: Page, server: RunningServer, assistantId: string) {
  await page.goto(`${server.url}/assistant?assistantId=${assistantId}`);
  await page.getByRole("button", { name: "Start call" }).click();
  await page.waitForSelector('[data-testid="live-call"][data-status="connected"]');
}

/** Ends the call from the talk page and waits until it is disconnected. */
export async function endBrowserCall(page: Page) {
  await page.getByRole("button", { name: "End call" }).click();
  await page.waitForSelector('[data-testid="live-call"][data-status="disconnected"]');
}
