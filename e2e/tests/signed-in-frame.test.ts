import type { BrowserContext, Page } from "playwright-core";
import { afterEach, describe, expect, it } from "vitest";
import { STORAGE_KEYS } from "../../packages/contract/src/constants.ts";
import { apiCall, apiLogin } from "../support/api.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();
const contexts: BrowserContext[] = [];

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

/** A fresh browser profile, signed in as the admin when given a token (as the app keeps a session). */
async function openProfile(token: string | null): Promise<Page> {
  const context = await product.browser.newContext();
  contexts.push(context);
  if (token) {
    await context.addInitScript(
      ([key, value]) => {
        if (!sessionStorage.getItem("seeded")) localStorage.setItem(key, value);
        sessionStorage.setItem("seeded", "1");
      },
      [STORAGE_KEYS.accessToken, token] as const,
    );
  }
  return context.newPage();
}

/**
 * Records, for every frame the page draws from its first on, whether the assistants page's heading
 * was on screen, so a test can tell whether it ever showed and whether it ever went away again.
 */
async function recordHeading(page: Page) {
  await page.addInitScript(() => {
    const frames: boolean[] = [];
    Object.assign(window, { headingFrames: frames });
    const look = () => {
      const heading = Array.from(document.querySelectorAll("h1")).find((h) => h.textContent === "Assistants");
      frames.push(heading !== undefined && heading.getClientRects().length > 0);
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  return () => page.evaluate(() => (window as unknown as { headingFrames: boolean[] }).headingFrames);
}

describe("the signed-in frame of /assistants (issue 18)", () => {
  it("shows a returning user the layout and page heading from the HTML, before any of the app's code", async () => {
    const token = await apiLogin(product.server.url, product.server.admin.email, product.server.admin.password);
    const page = await openProfile(token);
    // The app itself never arrives: what shows is the HTML alone (and the entry's few lines).
    await page.route(/\/assets\/boot-[^/]+\.js$/, (route) => route.abort());
    await page.goto(`${product.server.url}/assistants`);
    await expect.poll(() => page.getByRole("heading", { name: "Assistants" }).isVisible()).toBe(true);
    expect(await page.getByText("Voice assistants that answer and place calls for this workspace.").isVisible()).toBe(
      true,
    );
    expect(await page.locator("#root > .boot").count(), "the HTML's spinner gives way to the frame").toBe(0);
    // Nothing about the user is in it: it is the same HTML for everyone.
    expect(await page.content()).not.toContain(product.server.admin.email);
  });

  it("hands over to the app without a spinner in between: the heading, once drawn, stays", async () => {
    const token = await apiLogin(product.server.url, product.server.admin.email, product.server.admin.password);
    await apiCall(product.server.url, token, "POST", "/agents", { name: "Front Desk" });
    const page = await openProfile(token);
    const headingFrames = await recordHeading(page);
    await page.goto(`${product.server.url}/assistants`);
    await page.getByRole("link", { name: "Front Desk" }).waitFor();
    // The app's own page, with the user's session: their workspace in the switcher.
    const [workspace] = await apiCall<{ name: string }[]>(product.server.url, token, "GET", "/workspaces");
    await page.getByRole("button", { name: `Workspace: ${workspace?.name}. Switch workspace` }).waitFor();
    const frames = await headingFrames();
    const first = frames.indexOf(true);
    expect(first, "the heading was drawn").toBeGreaterThanOrEqual(0);
    expect(frames.slice(first).every(Boolean), "no frame without the heading once it showed").toBe(true);
  });

  it("keeps a click made on the frame and replays it once the app has drawn the page", async () => {
    const token = await apiLogin(product.server.url, product.server.admin.email, product.server.admin.password);
    const page = await openProfile(token);
    // The app arrives late (a slow link), so the click lands on the frame.
    await page.route(/\/assets\/boot-[^/]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto(`${product.server.url}/assistants`);
    await page.locator("#root > [data-frame]:not([hidden])").waitFor();
    await page.getByRole("button", { name: "Create assistant" }).first().click();
    expect(await page.locator("#root > [data-frame]").count(), "the click landed on the frame").toBe(1);
    await page.getByRole("dialog").getByLabel("Assistant name").waitFor();
  });

  it("never shows a visitor without a session the signed-in layout: the spinner, then the sign-in page", async () => {
    const page = await openProfile(null);
    const headingFrames = await recordHeading(page);
    await page.goto(`${product.server.url}/assistants`);
    await page.waitForURL((url) => url.pathname === "/auth/login");
    await page.getByLabel("Username or email").waitFor();
    expect((await headingFrames()).some(Boolean)).toBe(false);
  });

  it("draws afresh for a user whose look differs from the frame's (dark mode): no light frame first", async () => {
    const token = await apiLogin(product.server.url, product.server.admin.email, product.server.admin.password);
    const page = await openProfile(token);
    await page.addInitScript(() => localStorage.setItem("parley.preferences", JSON.stringify({ mode: "dark" })));
    await page.route(/\/assets\/boot-[^/]+\.js$/, (route) => route.abort());
    await page.goto(`${product.server.url}/assistants`);
    await page.locator("#root > .boot").waitFor();
    expect(await page.getByRole("heading", { name: "Assistants" }).isVisible()).toBe(false);
  });
});
