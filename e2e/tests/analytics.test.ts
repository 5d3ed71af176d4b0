import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiLogin } from "../support/api.ts";
import { offlineProviders } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser, signIn } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// /analytics over ten days of calls: the product starts once on its own data directory (it migrates
// and creates the administrator's workspace), the calls' logs are written into that embedded
// database while it is stopped, with the queue migration 0038 fills for calls from before
// analytics, and the product starts again: its backfill job rolls them up. The page then shows the
// figures, the chart and the same numbers in a table, groups by assistant, exports CSV and adds an
// alert rule, at 1440 px and at 390 px in Arabic, right to left and dark, with axe clean.

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const DAY_MS = 86_400_000;
const today = new Date().toISOString().slice(0, 10);
const dayBefore = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);
const FROM = dayBefore(9);

interface SeededCall {
  day: string;
  agent: "Front desk" | "Sales caller";
  seconds: number;
  passed: boolean;
}
const CALLS: SeededCall[] = Array.from({ length: 10 }, (_, d) => [
  { day: dayBefore(d), agent: "Front desk" as const, seconds: 60 + d * 6, passed: d % 4 !== 0 },
  { day: dayBefore(d), agent: "Sales caller" as const, seconds: 120, passed: true },
]).flat();
const TOTAL_MINUTES = CALLS.reduce((n, c) => n + c.seconds, 0) / 60;

let dataDir: string;
let server: RunningServer;
let browser: Browser;
let page: Page;

async function seedCalls(workspaceId: string, agents: Record<string, string>) {
  const db = await PGlite.create(path.join(dataDir, "pglite"), { extensions: { vector } });
  try {
    for (const call of CALLS) {
      const id = crypto.randomUUID();
      const analysis = {
        status: "done",
        summary: "Seeded",
        success: { scale: "pass_fail", verdict: call.passed ? "pass" : "fail", passed: call.passed, reason: "Seeded" },
        structured_data: null,
        error: null,
        completed_at: `${call.day}T11:00:00Z`,
      };
      const turns = [1, 2].map((turn) => ({
        turn,
        stt_ms: 150,
        llm_ttft_ms: 400,
        tts_ttfb_ms: 180,
        voice_to_voice_ms: 900,
        engine_overhead_ms: 5,
        end_of_turn_wait_ms: 250,
      }));
      await db.query(
        `insert into call_logs (id, workspace_id, agent_id, agent_name, channel, direction, status, end_reason,
           started_at, ended_at, duration_seconds, cost, analysis, turn_metrics)
         values ($1, $2, $3, $4, 'web', 'inbound', 'completed', 'caller_hangup', $5, $5::timestamptz + $6 * interval '1 second',
           $6, $7, $8, $9)`,
        [
          id,
          workspaceId,
          agents[call.agent],
          call.agent,
          `${call.day}T10:00:00Z`,
          call.seconds,
          call.seconds * 0.001,
          JSON.stringify(analysis),
          JSON.stringify(turns),
        ],
      );
      // What migration 0038 queues for calls that ended before analytics existed.
      await db.query("insert into analytics_backfill (call_id, workspace_id) values ($1, $2)", [id, workspaceId]);
    }
    await db.query(`insert into jobs (queue, payload) values ('analytics.backfill', '{}'::jsonb)`);
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-analytics-"));
  const env = { DATA_DIR: dataDir };
  const first = await startServer(env);
  const token = await apiLogin(first.url, first.admin.email, first.admin.password);
  const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
    workspace_id: string;
  };
  const agents: Record<string, string> = {};
  for (const name of ["Front desk", "Sales caller"]) {
    const created = await apiCall<{ id: string }>(first.url, token, "POST", "/agents", {
      name,
      ...offlineProviders("http://127.0.0.1:9/v1"),
    });
    agents[name] = created.id;
  }
  await first.stop();
  await seedCalls(claims.workspace_id, agents);
  [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
  page = await browser.newPage({ acceptDownloads: true, viewport: DESKTOP });
  page.setDefaultTimeout(60_000);
  for (let attempt = 1; ; attempt += 1) {
    await signIn(page, server.url, server.admin.email, server.admin.password);
    try {
      await page.waitForURL((url) => url.pathname === "/home", { timeout: 20_000 });
      break;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}, 180_000);

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Opens the page over the seeded range and waits for its figures (the backfill may still be running). */
async function openAnalytics(query = "") {
  const url = `${server.url}/analytics?from=${FROM}&to=${today}${query}`;
  for (let attempt = 0; attempt < 30; attempt += 1) {
    await page.goto(url);
    const calls = page.locator('[data-figure="calls"]');
    const shown = await calls.waitFor({ timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    if (shown && (await calls.textContent()) === String(CALLS.length)) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error("the seeded calls never showed on /analytics");
}

describe("analytics page", () => {
  it("shows the range's figures, a chart and the same numbers in a table, at 1440 px with axe clean", async () => {
    await openAnalytics();
    await page.getByRole("heading", { name: "Analytics", level: 1 }).waitFor();
    expect(await page.locator('[data-figure="minutes"]').textContent()).toBe(
      new Intl.NumberFormat("en", { maximumFractionDigits: 1 }).format(TOTAL_MINUTES),
    );
    // 7 of 10 front-desk calls passed (days 0, 4, 8 failed), all 10 sales calls: 17 of 20.
    expect(await page.locator('[data-figure="success_rate"]').textContent()).toBe("85%");
    expect(await page.locator('[data-figure="latency_p95_voice_to_voice"]').textContent()).toMatch(/^9\d\d ms$/);
    await page.getByTestId("trend-chart").waitFor();
    const table = page.getByTestId("analytics-table");
    expect(await table.locator("tbody tr").count()).toBe(10 + 1);
    expect(await table.locator('[data-total="calls"]').textContent()).toBe(String(CALLS.length));
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("groups by assistant and exports the same figures as CSV", async () => {
    await openAnalytics("&group=assistant&bucket=month");
    const table = page.getByTestId("analytics-table");
    await table.getByRole("cell", { name: "Front desk" }).first().waitFor();
    await table.getByRole("cell", { name: "Sales caller" }).first().waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    const rows = readFileSync(await download.path(), "utf8")
      .trim()
      .split("\r\n");
    expect(rows[0]?.startsWith("bucket,assistant,assistant_label,calls,attempts")).toBe(true);
    expect(rows.at(-1)?.split(",")[3]).toBe(String(CALLS.length));
  });

  it("opens the call-log list over the same calls: one page of the same 20 calls", async () => {
    await openAnalytics();
    await page.getByRole("link", { name: "Open these calls" }).click();
    await page.waitForURL((url) => url.pathname === "/call-logs");
    const rows = page.locator("tbody tr");
    await rows.nth(CALLS.length - 1).waitFor();
    expect(await rows.count()).toBe(CALLS.length);
  });

  it("adds an alert rule and lists it", async () => {
    await openAnalytics();
    await page.getByRole("button", { name: "Add rule" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: "Name" }).fill("Success watch");
    await dialog.getByRole("spinbutton", { name: "Success rate (%)" }).fill("90");
    await dialog.getByRole("button", { name: "Save rule" }).click();
    await page.getByText("Rule saved.").waitFor();
    await page.getByRole("list", { name: "Alerts" }).getByText("Success watch").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("fits a 390 px phone in Arabic, right to left and dark, with axe clean", async () => {
    await storeArabicDarkMode(page);
    await page.setViewportSize(PHONE);
    const url = `${server.url}/analytics?from=${FROM}&to=${today}`;
    await page.goto(url);
    await page.getByRole("heading", { name: "التحليلات", level: 1 }).waitFor();
    await page.locator('[data-figure="calls"]').waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    // Nothing wider than the screen: wide tables scroll inside their own region.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    for (const name of ["فتح هذه المكالمات", "تصدير CSV", "إضافة قاعدة"]) {
      const box = await page.getByRole(name === "فتح هذه المكالمات" ? "link" : "button", { name }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    }
    // The choices beyond the range fold behind one button on a phone, so the figures come first.
    const more = page.getByRole("button", { name: "خيارات أخرى" });
    expect(await more.getAttribute("aria-expanded")).toBe("false");
    expect((await page.locator('[data-figure="calls"]').boundingBox())?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(
      PHONE.height,
    );
    await more.click();
    await page.getByRole("combobox", { name: "تجميع حسب" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});
