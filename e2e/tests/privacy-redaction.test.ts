import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser, signIn } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// The Privacy page's PII redaction card (issue 34 item 2): an owner chooses to keep personal data
// out of stored data and the model, by keyboard; the choice is saved, audited and shown again; then
// at 390 px in Arabic, right to left and dark, with axe clean.

const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  context = await browser.newContext();
  page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await signIn(page, server.url, server.admin.email, server.admin.password);
  await page.waitForURL((url) => url.pathname === "/home");
}, 240_000);

afterAll(async () => {
  await page?.close();
  await context?.close();
  await browser?.close();
  await server?.stop();
});

describe("PII redaction on the Privacy page", () => {
  it("saves redaction of stored data and the model, chosen by keyboard, and audits it", async () => {
    await page.goto(`${server.url}/privacy`);
    await page.getByRole("heading", { name: "Personal data redaction" }).waitFor();
    const off = page.getByRole("radio", { name: /^Off/ });
    expect(await off.isChecked()).toBe(true);
    expect(await page.getByRole("button", { name: "Save redaction" }).isDisabled()).toBe(true);

    // Arrow keys move the choice within the group, as in any radio group.
    await off.focus();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await page.getByRole("radio", { name: /^Stored data and the model/ }).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Save redaction" }).click();
    await page.getByText("Redaction saved").waitFor();
    await page
      .getByRole("table", { name: "Audit log" })
      .getByText("pii_redaction: off → transcripts_and_model")
      .waitFor();

    await page.reload();
    await page.getByRole("heading", { name: "Personal data redaction" }).waitFor();
    expect(await page.getByRole("radio", { name: /^Stored data and the model/ }).isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("fits a 390 px phone in Arabic, right to left and dark, with axe clean", async () => {
    await storeArabicDarkMode(page);
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/privacy`);
    await page.getByRole("heading", { name: "إخفاء البيانات الشخصية" }).waitFor();
    const look = await page.evaluate(() => ({
      dir: document.documentElement.dir,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    }));
    expect(look).toEqual({ dir: "rtl", overflow: 0 });
    expect(await page.locator("main").innerText()).not.toMatch(/\bredaction\.[a-zA-Z]/);
    const box = await page.getByRole("button", { name: "حفظ الإخفاء" }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
