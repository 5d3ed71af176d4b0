import { readFileSync } from "node:fs";
import { unzipSync } from "fflate";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiCall } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser, signIn } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// A data subject on the owners' Privacy page (issue 34 item 4): find a number, download its ZIP,
// erase it after the dialog that names what goes, and find nothing afterwards; then the card at
// 390 px in Arabic, right to left and dark, with axe clean.

const PHONE = { width: 390, height: 844 };
const NUMBER = "+14155550123";

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  const token = await adminToken(server);
  // The person asked not to be called: a do-not-call entry is what the workspace holds about them.
  await apiCall(server.url, token, "POST", "/do-not-call", { phone_numbers: [NUMBER], reason: "asked" });
  context = await browser.newContext({ acceptDownloads: true });
  page = await context.newPage();
  // Two busy cores run this suite beside builds: waits are for conditions, with room to spare.
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

const card = () => page.getByRole("heading", { name: "Find a person's data" }).locator("xpath=../..");

describe("A person's data on the Privacy page", () => {
  it("finds a number, downloads its ZIP, erases it after confirming, and then finds nothing", async () => {
    await page.goto(`${server.url}/privacy`);
    await page.getByRole("heading", { name: "Find a person's data" }).waitFor();
    await page.getByLabel("Phone number or email address").fill(NUMBER);
    await page.getByRole("button", { name: "Find", exact: true }).click();
    await card().getByText("1 do-not-call entry").waitFor();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download ZIP" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^subject-export-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(readFileSync(await download.path()));
    const subject = JSON.parse(new TextDecoder().decode(files["subject.json"]));
    expect(subject).toMatchObject({ query: { phone: NUMBER }, do_not_call: [{ number: NUMBER, reason: "asked" }] });
    await page.getByText("ZIP downloaded; the export is in the audit log").waitFor();

    await page.getByRole("button", { name: "Erase…" }).click();
    const dialog = page.getByRole("dialog", { name: "Erase this person's data?" });
    await dialog.getByText("1 do-not-call entry: the number is kept only as a hash, so it stays blocked").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Erase for good" }).click();
    await page.getByText("This person's data was erased").waitFor();
    await dialog.waitFor({ state: "hidden" });
    await card().getByText("Nothing is stored about").waitFor();
    expect(await page.getByRole("button", { name: "Download ZIP" }).isDisabled()).toBe(true);

    const log = page.getByRole("table", { name: "Audit log" });
    await log.getByRole("cell", { name: "Erased a person's data" }).waitFor();
    await log.getByRole("cell", { name: "Exported a person's data" }).waitFor();
    expect(await log.innerText()).not.toContain(NUMBER);
  });

  it("fits a 390 px phone in Arabic, right to left and dark, with axe clean", async () => {
    await storeArabicDarkMode(page);
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/privacy`);
    await page.getByRole("heading", { name: "العثور على بيانات شخص" }).waitFor();
    await page.getByLabel("رقم الهاتف أو عنوان البريد الإلكتروني").fill(NUMBER);
    await page.getByRole("button", { name: "بحث", exact: true }).click();
    await page.getByText("لا شيء محفوظ عن").waitFor();
    const look = await page.evaluate(() => ({
      dir: document.documentElement.dir,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    }));
    expect(look).toEqual({ dir: "rtl", overflow: 0 });
    expect(await page.locator("main").innerText()).not.toMatch(/\bsubject\.[a-zA-Z]/);
    for (const name of ["تنزيل ملف ZIP", "مسح…"]) {
      const box = await page.getByRole("button", { name }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    }
    expect(await seriousViolations(page)).toEqual([]);
  });
});
