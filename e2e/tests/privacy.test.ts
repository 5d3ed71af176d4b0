import { readFileSync } from "node:fs";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser, signIn } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// The owners' Privacy page (issue 34): retention per kind of data saved and audited, zero-retention
// asked for before it goes on, the audit log filtered and exported as CSV; then at 390 px in Arabic,
// right to left and dark, with axe clean.

const PHONE = { width: 390, height: 844 };

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  context = await browser.newContext();
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

const auditTable = () => page.getByRole("table", { name: "Audit log" });

describe("Privacy page", () => {
  it("shows the sign-in in the audit log and saves a retention, audited", async () => {
    await page.goto(`${server.url}/privacy`);
    await page.getByRole("heading", { name: "Privacy", level: 1 }).waitFor();
    await auditTable().getByRole("cell", { name: "Signed in" }).first().waitFor();
    await auditTable().getByRole("cell", { name: server.admin.email }).first().waitFor();

    await page.getByRole("combobox", { name: "Recordings" }).click();
    await page.getByRole("option", { name: "30 days", exact: true }).click();
    await page.getByRole("button", { name: "Save retention" }).click();
    await page.getByText("Retention saved").waitFor();
    await auditTable().getByRole("cell", { name: "Changed retention" }).waitFor();
    await auditTable().getByText("recordings: keep → 30").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("asks before zero-retention goes on, and leaves it off when cancelled", async () => {
    await page.getByLabel("Zero-retention mode").click();
    const dialog = page.getByRole("dialog", { name: "Turn on zero-retention?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await page.getByLabel("Zero-retention mode").isChecked()).toBe(false);
    expect(await page.getByRole("button", { name: "Save retention" }).isDisabled()).toBe(true);
  });

  it("filters the log by action, says when nothing matches, and exports CSV", async () => {
    await page.getByRole("combobox", { name: "Action" }).click();
    await page.getByRole("option", { name: "Created an API key" }).click();
    await page.getByText("No entries match").waitFor();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await auditTable().getByRole("cell", { name: "Changed retention" }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const rows = readFileSync(await download.path(), "utf8")
      .trim()
      .split("\r\n");
    expect(rows[0]?.startsWith("created_at,workspace_id,action,actor_user_id,actor_email")).toBe(true);
    expect(rows.some((row) => row.includes("retention.changed"))).toBe(true);
  });

  it("fits a 390 px phone in Arabic, right to left and dark, with axe clean", async () => {
    await storeArabicDarkMode(page);
    await page.setViewportSize(PHONE);
    await page.goto(`${server.url}/privacy`);
    await page.getByRole("heading", { name: "الخصوصية", level: 1 }).waitFor();
    await page.getByRole("table", { name: "سجل التدقيق" }).waitFor();
    const look = await page.evaluate(() => ({
      dir: document.documentElement.dir,
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    }));
    expect(look).toEqual({ dir: "rtl", overflow: 0 });
    expect(await page.locator("main").innerText()).not.toMatch(/\b(retention|zero|audit|kinds|actions)\.[a-zA-Z]/);
    for (const name of ["حفظ مدة الاحتفاظ", "تصدير CSV"]) {
      const box = await page.getByRole("button", { name }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    }
    expect(await seriousViolations(page)).toEqual([]);
  });
});
