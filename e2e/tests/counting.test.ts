import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiLogin } from "../support/api.ts";
import { offlineProviders } from "../support/assistants.ts";
import { launchBrowser, signInToHome } from "../support/browser.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// Issue 26 item 3: Home and Billing count the same calls and minutes for the same month. The product
// starts once on its own data directory, the month's calls are written into that embedded database
// while it is stopped — as calls and the metering job leave them — and the product starts again on it.

const now = new Date();
const period = now.toISOString().slice(0, 7);
const today = now.toISOString().slice(0, 10);
const monthName = new Intl.DateTimeFormat("en", { month: "long", year: "numeric", timeZone: "UTC" }).format(
  new Date(`${period}-01T00:00:00Z`),
);

/** How each seeded call ended: connected ones last `minutes`; the meter reached some of them. */
interface SeededCall {
  status: "completed" | "failed";
  endReason: string;
  minutes: number;
  /** The metering job wrote its usage rows. */
  metered: boolean;
  /** The log was deleted afterwards (its usage rows stay, like the statement). */
  logDeleted?: boolean;
}

const SEEDED: SeededCall[] = [
  { status: "completed", endReason: "caller_hangup", minutes: 3, metered: true },
  { status: "completed", endReason: "assistant_hangup", minutes: 2, metered: true },
  // Ended moments ago: the metering job has not run yet.
  { status: "completed", endReason: "caller_hangup", minutes: 1, metered: false },
  { status: "completed", endReason: "caller_hangup", minutes: 4, metered: true, logDeleted: true },
  // Attempts that never connected: listed in call logs, counted nowhere.
  { status: "failed", endReason: "not_joined", minutes: 0, metered: false },
  { status: "failed", endReason: "no_answer", minutes: 0, metered: false },
  { status: "failed", endReason: "error", minutes: 0, metered: false },
];
const COUNTED = SEEDED.filter((c) => c.minutes > 0);
const COUNTED_MINUTES = COUNTED.reduce((n, c) => n + c.minutes, 0);

let dataDir: string;
let server: RunningServer;
let browser: Browser;
let page: Page;

async function seedMonth(workspaceId: string, agentId: string) {
  const db = await PGlite.create(path.join(dataDir, "pglite"), { extensions: { vector } });
  try {
    for (const [i, call] of SEEDED.entries()) {
      const callId = crypto.randomUUID();
      // Today, a minute apart: inside the current month whatever the day.
      const startedAt = new Date(`${today}T00:00:00Z`).getTime() + i * 60_000;
      const cost = call.minutes * 0.0077;
      if (!call.logDeleted) {
        await db.query(
          `insert into call_logs (id, workspace_id, agent_id, agent_name, channel, direction, status, end_reason,
             started_at, ended_at, duration_seconds, cost)
           values ($1, $2, $3, 'Front desk', 'web', 'inbound', $4, $5, $6, $7, $8, $9)`,
          [
            callId,
            workspaceId,
            agentId,
            call.status,
            call.endReason,
            new Date(startedAt).toISOString(),
            new Date(startedAt + call.minutes * 60_000).toISOString(),
            call.minutes * 60,
            cost,
          ],
        );
      }
      if (call.metered) {
        await db.query(
          `insert into usage_records (call_id, component, workspace_id, agent_id, agent_name, channel, day, call_minutes,
             provider, model, unit, quantity, unit_price, cost)
           values ($1, 'stt', $2, $3, 'Front desk', 'web', $4, $5, 'deepgram', 'nova-3', 'minute', $5, 0.0077, $6)`,
          [callId, workspaceId, agentId, today, call.minutes, cost],
        );
      }
    }
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "parley-e2e-counting-"));
  const env = { DATA_DIR: dataDir, PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" };
  const first = await startServer(env);
  const token = await apiLogin(first.url, first.admin.email, first.admin.password);
  const claims = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString()) as {
    id: string;
    workspace_id: string;
  };
  // No call reaches the model: nothing listens at its address.
  const agent = await apiCall<{ id: string }>(first.url, token, "POST", "/agents", {
    name: "Front desk",
    ...offlineProviders("http://127.0.0.1:9/v1"),
  });
  await apiCall(first.url, token, "PATCH", `/admin/enterprise-quotas/${claims.id}`, {
    max_assistants: 20,
    minutes_per_month: 500,
    concurrent_calls: 4,
    max_workspaces: 3,
  });
  await first.stop();
  await seedMonth(claims.workspace_id, agent.id);

  [server, browser] = await Promise.all([startServer(env), launchBrowser()]);
  page = await browser.newPage();
  page.setDefaultTimeout(60_000);
  await signInToHome(page, server);
}, 180_000);

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The value shown under a Billing figure's label. */
async function billingFigure(label: string): Promise<string> {
  const card = page.locator(".MuiCard-root").filter({ has: page.getByText(label, { exact: true }) });
  return (await card.locator("p.MuiTypography-h5").textContent()) ?? "";
}

describe("one count of calls", () => {
  it("shows the same calls and minutes for the month on Home and on Billing", async () => {
    await page.goto(`${server.url}/home`);
    const homeCalls = page.locator('[data-figure="callsThisMonth"]');
    await homeCalls.waitFor();
    const home = {
      calls: await homeCalls.textContent(),
      minutes: await page.locator('[data-figure="minutesThisMonth"]').textContent(),
    };

    await page.goto(`${server.url}/billing`);
    await page.getByText(`Calls in ${monthName}`, { exact: true }).waitFor();
    const billing = {
      calls: await billingFigure(`Calls in ${monthName}`),
      minutes: await billingFigure(`Minutes in ${monthName}`),
    };

    expect(billing).toEqual(home);
    expect(home).toEqual({ calls: String(COUNTED.length), minutes: String(COUNTED_MINUTES) });
    // The plan's minutes are the same figure: this workspace is the owner's only one with calls.
    await page.getByText(`${COUNTED_MINUTES} of 500`).waitFor();
    expect(await page.getByTestId("plan-workspace-minutes").count()).toBe(0);
  });
});
