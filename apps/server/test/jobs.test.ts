import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { JobRunner } from "../src/jobs/runner.ts";
import { jobs } from "../src/jobs/schema.ts";
import { createTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const quiet = { info: () => undefined, error: () => undefined };
let queueCounter = 0;
const freshQueue = () => {
  queueCounter += 1;
  return `test.${Date.now()}.${queueCounter}`;
};

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 200; i += 1) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const statusOf = async (id: string) => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0];

describe("job runner", () => {
  it("runs each job exactly once across two runners (SKIP LOCKED)", async () => {
    const queue = freshQueue();
    const seen: string[] = [];
    const runners = [0, 1].map(() => new JobRunner(t.ctx.db, { log: quiet, pollMs: 20, concurrency: 2 }));
    for (const runner of runners) {
      runner.register(queue, async (payload) => {
        seen.push(String(payload.n));
        await new Promise((r) => setTimeout(r, 5));
      });
    }
    const ids: string[] = [];
    for (let n = 0; n < 12; n += 1) ids.push((await runners[0]?.enqueue(t.ctx.db, queue, { n }))?.id ?? "");
    for (const runner of runners) runner.start();
    await until(async () => seen.length >= 12, "12 jobs");
    await Promise.all(runners.map((r) => r.stop()));
    expect([...seen].sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 12 }, (_, n) => String(n)));
    for (const id of ids) expect((await statusOf(id))?.status).toBe("done");
  });

  it("records a failure, retrying until max_attempts", async () => {
    const queue = freshQueue();
    const runner = new JobRunner(t.ctx.db, { log: quiet, pollMs: 20 });
    runner.register(queue, async () => {
      throw new Error("the vendor is down");
    });
    const once = await runner.enqueue(t.ctx.db, queue, {}, { maxAttempts: 1 });
    const twice = await runner.enqueue(t.ctx.db, queue, {}, { maxAttempts: 2 });
    runner.start();
    await until(async () => (await statusOf(once.id))?.status === "failed", "the final failure");
    await until(async () => (await statusOf(twice.id))?.attempts === 1, "the first attempt");
    await runner.stop();
    expect(await statusOf(once.id)).toMatchObject({ status: "failed", attempts: 1, lastError: "the vendor is down" });
    const retry = await statusOf(twice.id);
    expect(retry).toMatchObject({ status: "queued", attempts: 1 });
    expect(retry?.runAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("keeps the locks of the jobs it finishes while stopping (a drain), so no other runner takes them", async () => {
    const queue = freshQueue();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const runs: string[] = [];
    const draining = new JobRunner(t.ctx.db, { log: quiet, pollMs: 20, staleAfterMs: 300 });
    draining.register(queue, async () => {
      runs.push("draining node");
      await held;
    });
    const job = await draining.enqueue(t.ctx.db, queue, {});
    await draining.start();
    await until(async () => runs.length === 1, "the job to start");
    const stopped = draining.stop();
    const other = new JobRunner(t.ctx.db, { log: quiet, pollMs: 20, staleAfterMs: 300 });
    other.register(queue, async () => {
      runs.push("other node");
    });
    await other.start();
    // Well past the stale age: a lock left unrenewed would have been taken over by now.
    const lockedAt = (await statusOf(job.id))?.lockedAt?.getTime() ?? 0;
    await until(async () => ((await statusOf(job.id))?.lockedAt?.getTime() ?? 0) > lockedAt + 600, "two renewals");
    expect(runs).toEqual(["draining node"]);
    release();
    await stopped;
    await other.stop();
    expect((await statusOf(job.id))?.status).toBe("done");
    expect(runs).toEqual(["draining node"]);
  });

  it("resumes a job whose process died mid-run, and leaves a live one alone", async () => {
    const queue = freshQueue();
    const [orphan, live] = await t.ctx.db
      .insert(jobs)
      .values([
        {
          queue,
          payload: { which: "orphan" },
          status: "running",
          attempts: 1,
          lockedAt: new Date(Date.now() - 60_000),
          lockedBy: "gone",
        },
        { queue, payload: { which: "live" }, status: "running", attempts: 1, lockedAt: new Date(), lockedBy: "alive" },
      ])
      .returning();
    const ran: unknown[] = [];
    const runner = new JobRunner(t.ctx.db, { log: quiet, pollMs: 20, staleAfterMs: 30_000 });
    runner.register(queue, async (payload) => {
      ran.push(payload.which);
    });
    runner.start();
    await until(async () => (await statusOf(orphan?.id ?? ""))?.status === "done", "the orphan to finish");
    await runner.stop();
    expect(ran).toEqual(["orphan"]);
    expect(await statusOf(orphan?.id ?? "")).toMatchObject({ status: "done", attempts: 2 });
    expect((await statusOf(live?.id ?? ""))?.status).toBe("running");
  });
});
