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

// /billing over a scripted month of usage: the product starts once on its own data directory (so it
// migrates and creates the administrator's workspace), the month's usage rows are written into that
// embedded database while it is stopped, as the metering job writes them, and the product starts
// again on it. The page then shows the month against the plan, and downloads PDF and CSV statements.

const now = new Date();
const year = now.getUTCFullYear();
const month = now.getUTCMonth();
const period = `${year}-${String(month + 1).padStart(2, "0")}`;
const previous = new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 7);
const monthName = (p: string) =>
  new Intl.DateTimeFormat("en", { month: "long", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${p}-01T00:00:00Z`),
  );

/** The scripted month: one row set per call, `minutes` long, on `day` of `p`, by one of two assistants. */
interface ScriptedCall {
  p: string;
  day: number;
  agent: "Front desk" | "Sales caller";
  minutes: number;
}
const days = Math.min(now.getUTCDate(), 28);
const CALLS: ScriptedCall[] = [
  ...Array.from({ length: days }, (_, i) => ({
    p: period,
    day: i + 1,
    agent: i % 3 === 0 ? ("Sales caller" as const) : ("Front desk" as const),
    minutes: 2 + (i % 4),
  })),
  { p: previous, day: 12, agent: "Front desk", minutes: 10 },
];
/** deepgram nova-3 at $0.0077 a minute; a carrier at $0.014; gpt-4o-mini tokens; a voice by characters. */
function linesOf(call: ScriptedCall) {
  return [
    { component: "stt", provider: "deepgram", model: "nova-3", unit: "minute", quantity: call.minutes, price: 0.0077 },
    {
      component: "telephony",
      provider: "carrier",
      model: "pstn",
      unit: "minute",
      quantity: call.minutes,
      price: 0.014,
    },
    {
      component: "llm_input",
      provider: "openai",
      model: "gpt-4o-mini",
      unit: "token",
      quantity: 3000 * call.minutes,
      price: 0.15e-6,
    },
    {
      component: "llm_output",
      provider: "openai",
      model: "gpt-4o-mini",
      unit: "token",
      quantity: 200 * call.minutes,
      price: 0.6e-6,
    },
    {
      component: "tts",
      provider: "openai",
      model: "tts-1",
      unit: "character",
      quantity: 500 * call.minutes,
      price: 0.0075 / 500,
    },
  ].map((l) => ({ ...l, cost: Math.round(l.quantity * l.price * 1e6) / 1e6 }));
}
const monthCalls = CALLS.filter((c) => c.p === period);
const monthMinutes = monthCalls.reduce((n, c) => n + c.minutes, 0);
const monthCost = monthCalls.flatMap(linesOf).reduce((n, l) => n + l.cost, 0);

let dataDir: string;

/** Polls the page's address from here (the app changes it by history, after a request). */
async function untilPath(matches: (url: URL) => boolean, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!matches(new URL(page.url()))) {
    if (Date.now() > deadline) throw new Error(`the page stayed at ${page.url()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
let server: RunningServer;
let browser: Browser;
let page: Page;

async function seedMonth(workspaceId: string, agents: Record<string, string>) {
  const db = await PGlite.create(path.join(dataDir, "pglite"), { extensions: { vector } });
  try {
    for (const call of CALLS) {
      const callId = crypto.randomUUID();
      const startedAt = `${call.p}-${String(call.day).padStart(2, "0")}T10:00:00Z`;
      // The call's log, as the call wrote it (the plan's minutes are counted from call logs).
      await db.query(
        `insert into call_logs (id, workspace_id, agent_id, agent_name, channel, direction, status, end_reason,
           started_at, ended_at, duration_seconds, cost)
         values ($1, $2, $3, $4, 'phone', 'inbound', 'completed', 'caller_hangup', $5, $5::timestamptz + $6 * interval '1 minute', $7, $8)`,
        [
          callId,
          workspaceId,
          agents[call.agent],
          call.agent,
          startedAt,
          call.minutes,
          call.minutes * 60,
          linesOf(call).reduce((n, l) => n + l.cost, 0),
        ],
      );
      for (const line of linesOf(call)) {
        await db.query(
          `insert into usage_records (call_id, component, workspace_id, agent_id, agent_name, channel, day, call_minutes,
             provider, model, unit, quantity, unit_price, cost)
           values ($1, $2, $3, $4, $5, 'phone', $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
            callId,
            line.component,
            workspaceId,
            agents[call.agent],
            call.agent,
            `${call.p}-${String(call.day).padStart(2, "0")}`,
            call.minutes,
            line.provider,
            line.model,
            line.unit,
            line.quantity,
            line.price,
            line.cost,
          ],
        );
      }
    }
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-billing-"));
  const env = { DATA_DIR: dataDir, PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" };
  const first = await startServer(env);
  const token = await apiLogin(first.url, first.admin.email, first.admin.password);
  const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
    id: string;
    workspace_id: string;
  };
  const agents: Record<string, string> = {};
  for (const name of ["Front desk", "Sales caller"]) {
    const created = await apiCall<{ id: string }>(first.url, token, "POST", "/agents", {
      name,
      // No call reaches the model: nothing listens at its address.
      ...offlineProviders("http://127.0.0.1:9/v1"),
    });
    agents[name] = created.id;
  }
  await apiCall(first.url, token, "PATCH", `/admin/enterprise-quotas/${claims.id}`, {
    max_assistants: 20,
    minutes_per_month: 500,
    concurrent_calls: 4,
    max_workspaces: 3,
  });
  await first.stop();
  await seedMonth(claims.workspace_id, agents);

  [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
  page = await browser.newPage({ acceptDownloads: true });
  page.setDefaultTimeout(60_000);
  // The login page is prerendered: a form filled before the app has taken it over can be reset, so a
  // sign-in that leaves the page where it was is tried again.
  for (let attempt = 1; ; attempt += 1) {
    await signIn(page, server.url, server.admin.email, server.admin.password);
    try {
      await untilPath((url) => url.pathname === "/home", 20_000);
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

const money = (n: number) =>
  new Intl.NumberFormat("en", {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  }).format(n);

describe("billing page", () => {
  it("shows the month's minutes and cost against the plan, per day, provider and assistant", async () => {
    await page.goto(`${server.url}/billing`);
    await page.getByRole("heading", { name: "Billing", level: 1 }).waitFor();
    await page.getByText(`Minutes in ${monthName(period)}`).waitFor();
    const figures = page.locator("p.MuiTypography-h5");
    expect(await figures.allTextContents()).toEqual([String(monthMinutes), money(monthCost), String(days)]);

    expect(await page.getByTestId("plan-name").textContent()).toBe("Enterprise quota");
    await page.getByText(`${monthMinutes} of 500`).waitFor();
    await page.getByText("Up to 4 calls at a time").waitFor();

    // One bar per day with calls.
    const bars = page.getByTestId("daily-chart").locator('rect[rx="2"]');
    const heights = await bars.evaluateAll((rects) => rects.map((r) => Number(r.getAttribute("height"))));
    expect(heights.filter((h) => h > 0)).toHaveLength(days);

    const providers = page.getByRole("table", { name: "By provider" });
    await providers.getByRole("row", { name: /Transcriber deepgram · nova-3/ }).waitFor();
    await providers.getByRole("row", { name: /Telephony carrier · pstn/ }).waitFor();
    const assistants = page.getByRole("table", { name: "By assistant" });
    await assistants.getByRole("row", { name: /Front desk/ }).waitFor();
    await assistants.getByRole("row", { name: /Sales caller/ }).waitFor();
    const months = page.getByRole("table", { name: "Months and statements" });
    await months.getByRole("button", { name: monthName(previous), exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("downloads the month's statement as PDF and as CSV", async () => {
    const [pdf] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Statement PDF" }).click(),
    ]);
    expect(pdf.suggestedFilename()).toBe(`statement-${period}.pdf`);
    const pdfBytes = readFileSync(await pdf.path());
    expect(pdfBytes.subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");
    expect(pdfBytes.toString("latin1")).toContain("(Transcriber minutes) Tj");
    await page.getByText(`Statement of ${monthName(period)} downloaded`).waitFor();

    const [csv] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Statement CSV" }).click(),
    ]);
    expect(csv.suggestedFilename()).toBe(`statement-${period}.csv`);
    const rows = readFileSync(await csv.path(), "utf8")
      .trim()
      .split("\r\n");
    expect(rows[0]).toBe("period,component,description,provider,model,unit,quantity,unit_price_usd,cost_usd");
    const stt = rows.find((r) => r.startsWith(`${period},stt,`));
    expect(stt).toBe(
      `${period},stt,Transcriber minutes,deepgram,nova-3,minute,${monthMinutes},0.0077,${(monthMinutes * 0.0077).toFixed(6)}`,
    );
    const total = rows.at(-1)?.split(",").at(-1);
    expect(Number(total)).toBeCloseTo(monthCost, 5);
  });

  it("opens a past month from the list, with its own figures and no plan", async () => {
    await page
      .getByRole("table", { name: "Months and statements" })
      .getByRole("button", { name: monthName(previous), exact: true })
      .click();
    await untilPath((url) => url.searchParams.get("period") === previous);
    await page.getByText(`Minutes in ${monthName(previous)}`).waitFor();
    expect(await page.locator("p.MuiTypography-h5").first().textContent()).toBe("10");
    expect(await page.getByTestId("plan-name").count()).toBe(0);
  });

  it("reads right to left in Arabic and in dark mode without contrast or naming problems", async () => {
    await storeArabicDarkMode(page);
    await page.goto(`${server.url}/billing`);
    await page.getByRole("heading", { name: "الفوترة", level: 1 }).waitFor();
    await page.getByRole("table", { name: "حسب المزوّد" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await seriousViolations(page)).toEqual([]);
  });
});
