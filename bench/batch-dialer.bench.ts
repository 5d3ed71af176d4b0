// The campaign dialer (issue 14): how many dials a second one process issues against an instant
// phone network (goal ≥ 200/s), and how late a scheduled campaign places its first call after its
// scheduled_time (goal ≤ 1 s). The phone network is the dialer's in-memory port (calls end at once),
// so the figures are the dialer's and the database's, not a carrier's. PARLEY_TEST_DB=postgres runs
// it on PostgreSQL; BATCH_BENCH_CONTACTS sets the campaign's size.

import { eq } from "drizzle-orm";
import { campaignDialerOf } from "../apps/server/src/modules/batch-calls/routes.ts";
import { batchCalls } from "../apps/server/src/modules/batch-calls/schema.ts";
import { FakeDialPort } from "../apps/server/test/batch-calls/fake-dial-port.ts";
import { campaignWorld, createCampaign, initiate, numbers } from "../apps/server/test/batch-calls/world.ts";
import { createTestApp, testDatabaseKind } from "../apps/server/test/harness.ts";
import type { BenchResult } from "./run.ts";

const CONTACTS = Number(process.env.BATCH_BENCH_CONTACTS ?? 3_000);
const CONCURRENCY = 100;
const SCHEDULED_RUNS = 3;

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 300_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function run(): Promise<BenchResult> {
  const t = await createTestApp();
  try {
    const world = await campaignWorld(t, { concurrencyLimit: CONCURRENCY });
    const statusOf = async (id: string) =>
      (await t.ctx.db.select({ status: batchCalls.status }).from(batchCalls).where(eq(batchCalls.id, id)))[0]?.status;
    const rows: BenchResult["rows"] = [];

    const port = new FakeDialPort();
    campaignDialerOf(t.ctx).usePort(port);
    const campaign = await createCampaign(world, { phone_numbers: numbers(CONTACTS), concurrency: CONCURRENCY });
    const started = performance.now();
    await initiate(world, campaign.id);
    await until(async () => (await statusOf(campaign.id)) === "completed", "the campaign to complete");
    const wall = (performance.now() - started) / 1000;
    const first = port.dials[0]?.at ?? 0;
    const last = port.dials.at(-1)?.at ?? 0;
    rows.push({
      measure: `dispatch rate, ${CONTACTS} contacts, concurrency ${CONCURRENCY} (${testDatabaseKind})`,
      value: Math.round(port.dials.length / Math.max(0.001, (last - first) / 1000)),
      unit: "dials/s",
      goal: "≥ 200",
      note: `whole campaign ${wall.toFixed(1)} s, max ${port.maxLive} calls at once`,
    });

    const delays: number[] = [];
    for (let i = 0; i < SCHEDULED_RUNS; i += 1) {
      const scheduledPort = new FakeDialPort();
      campaignDialerOf(t.ctx).usePort(scheduledPort);
      const at = new Date(Date.now() + 2_000);
      const scheduled = await createCampaign(world, {
        phone_numbers: numbers(1, 900_000 + i),
        scheduled_time: at.toISOString(),
      });
      await initiate(world, scheduled.id);
      await until(async () => scheduledPort.dials.length > 0, "the scheduled dial", 30_000);
      delays.push((scheduledPort.dials[0]?.at ?? 0) - at.getTime());
    }
    rows.push({
      measure: `scheduling delay, worst of ${SCHEDULED_RUNS} (${testDatabaseKind})`,
      value: Math.max(...delays),
      unit: "ms",
      goal: "≤ 1000",
      note: `each: ${delays.join(", ")} ms`,
    });
    return { name: "batch-dialer", rows };
  } finally {
    await t.close();
  }
}
