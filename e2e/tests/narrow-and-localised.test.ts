import { CallLogPage, type CallLogSummary, CallStatsResponse } from "@parley/contract";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, signInToHome } from "../support/browser.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// Issue 26, items 13 and 14: channel names and dates in the interface language, and the pages a
// phone (390×844) showed badly. The browser's own locale is en-US in Berlin's time zone, so a date
// written in German can only come from the language chosen in the app, not from the browser.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const TIME_ZONE = "Europe/Berlin";

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A SIP and a WhatsApp call, as GET /call-logs sends them (checked against the contract). */
const call = (id: string, channel: "sip" | "whatsapp", started: string): CallLogSummary => ({
  id,
  agent_id: null,
  agent_name: "Front desk",
  channel,
  direction: "inbound",
  from_number: "+4930123456",
  to_number: "+4940654321",
  batch_call_id: null,
  test_run_id: null,
  origin: null,
  status: "completed",
  end_reason: "caller_hangup",
  started_at: started,
  ended_at: started,
  duration_seconds: 65,
  cost: 0.0123,
});
const SIP_CALL = call("00000000-0000-4000-8000-000000000001", "sip", "2026-03-05T14:07:00.000Z");
const WHATSAPP_CALL = call("00000000-0000-4000-8000-000000000002", "whatsapp", "2026-03-04T09:30:00.000Z");
const CALLS = [SIP_CALL, WHATSAPP_CALL];

/**
 * The server's own call logs are only made by calls; these rows stand in for a SIP and a WhatsApp
 * call at the API boundary, in the contract's exact shape, so the page renders what the server sends.
 */
async function serveCalls(page: Page) {
  const list = CallLogPage.parse({ data: CALLS, total_count: 2, page: 1, items_per_page: 20, pages: 1 });
  const stats = CallStatsResponse.parse({
    calls_this_month: 2,
    minutes_this_month: 2.2,
    active_calls: 0,
    recent_calls: CALLS,
  });
  await page.route(/\/api\/v1\/call-logs(\?.*)?$/, (route) => route.fulfill({ json: list }));
  await page.route(/\/api\/v1\/call-logs\/stats(\?.*)?$/, (route) => route.fulfill({ json: stats }));
}

/** A signed-in tab at `viewport`, its interface language `language`, opened at `path`. */
async function open(path: string, options: { viewport: typeof PHONE; language?: string; calls?: boolean }) {
  const context = await browser.newContext({ viewport: options.viewport, locale: "en-US", timezoneId: TIME_ZONE });
  const page = await context.newPage();
  await signInToHome(page, server);
  if (options.language) {
    await page.evaluate((language) => {
      const stored = JSON.parse(localStorage.getItem("parley.preferences") ?? "{}");
      localStorage.setItem("parley.preferences", JSON.stringify({ ...stored, language, direction: "ltr" }));
    }, options.language);
  }
  if (options.calls) await serveCalls(page);
  await page.goto(`${server.url}${path}`);
  return page;
}

const germanMoment = (iso: string) =>
  new Intl.DateTimeFormat("de", { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE }).format(new Date(iso));

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error("the element has no box (it is not rendered)");
  return box;
}

type Box = Awaited<ReturnType<typeof boxOf>>;
const intersect = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const insideWidth = (box: Box, width: number) => box.x >= 0 && box.x + box.width <= width;

describe("channels and dates in German", () => {
  it("names SIP and WhatsApp calls and writes their start the German way in call logs", async () => {
    const page = await open("/call-logs", { viewport: DESKTOP, language: "de", calls: true });
    const rows = page.locator("tbody tr");
    await rows.nth(1).waitFor();
    const cells = async (n: number) => (await rows.nth(n).locator("td").allInnerTexts()).map((text) => text.trim());
    const [sip, whatsapp] = [await cells(0), await cells(1)];
    expect(sip).toContain("SIP");
    expect(whatsapp).toContain("WhatsApp");
    expect(sip[0]).toBe(germanMoment(SIP_CALL.started_at));
    expect(sip[0]).toBe("05.03.2026, 15:07");
    expect(whatsapp[0]).toBe(germanMoment(WHATSAPP_CALL.started_at));
    expect(await page.getByText(/channels?\.(sip|whatsapp)/).count()).toBe(0);

    // The channel filter offers every channel by name.
    await page.getByRole("combobox", { name: "Kanal" }).click();
    await page.getByRole("option", { name: "SIP", exact: true }).waitFor();
    await page.getByRole("option", { name: "WhatsApp", exact: true }).waitFor();
    expect(await page.getByRole("option", { name: /channel\./ }).count()).toBe(0);
    await page.keyboard.press("Escape");

    // So does Home's list of recent calls.
    await page.goto(`${server.url}/home`);
    const recent = page.getByRole("list", { name: "Letzte Anrufe" });
    await recent.getByText(`${germanMoment(SIP_CALL.started_at)} · SIP`).waitFor();
    await recent.getByText(`${germanMoment(WHATSAPP_CALL.started_at)} · WhatsApp`).waitFor();
    expect(await recent.getByText(/channels?\./).count()).toBe(0);
    await page.context().close();
  });
});

describe("a phone's screen, 390×844", () => {
  it("keeps Phone numbers' Add number button on the screen, and it opens the dialog", async () => {
    const page = await open("/phone-numbers", { viewport: PHONE });
    const add = page.getByRole("button", { name: "Add number" }).first();
    await add.waitFor();
    const box = await boxOf(add);
    expect(insideWidth(box, PHONE.width)).toBe(true);
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    await add.click();
    await page.getByRole("dialog").waitFor();
    await page.context().close();
  });

  // In German, whose labels are among the longest ("Abrechnung als CSV").
  it("lays Billing's statement buttons out beside, not over, the month picker", async () => {
    const page = await open("/billing", { viewport: PHONE, language: "de" });
    const month = page.getByRole("combobox", { name: "Monat" });
    const csv = page.getByRole("button", { name: "Abrechnung als CSV", exact: true });
    const pdf = page.getByRole("button", { name: "Abrechnung als PDF", exact: true });
    await pdf.waitFor();
    const [picker, csvBox, pdfBox] = [await boxOf(month), await boxOf(csv), await boxOf(pdf)];
    expect(intersect(csvBox, picker)).toBe(false);
    expect(intersect(pdfBox, picker)).toBe(false);
    expect(intersect(csvBox, pdfBox)).toBe(false);
    for (const box of [picker, csvBox, pdfBox]) expect(insideWidth(box, PHONE.width)).toBe(true);
    // A squeezed button keeps its box but its one-line label spills out over its neighbours.
    for (const button of [csv, pdf]) {
      expect(await button.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(1);
    }
    await page.context().close();
  });

  it("folds call logs' filters behind a Filters button, so the first call shows on the first screen", async () => {
    const page = await open("/call-logs?channel=sip", { viewport: PHONE, calls: true });
    const first = page.locator("tbody tr").first();
    await first.waitFor();
    expect((await boxOf(first)).y).toBeLessThan(PHONE.height);

    // One filter is set (the channel, from the address): the button says so, and opens the rest.
    const toggle = page.getByRole("button", { name: "Filters (1)" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByRole("combobox", { name: "Channel" }).count()).toBe(0);
    await toggle.click();
    await page.getByRole("combobox", { name: "Channel" }).waitFor();
    expect(await toggle.getAttribute("aria-expanded")).toBe("true");
    await page.context().close();
  });
});
