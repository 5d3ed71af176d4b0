import type { BatchCall } from "@parley/contract";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobs } from "../src/jobs/schema.ts";
import { DIAL_QUEUE } from "../src/modules/batch-calls/dialer.ts";
import { campaignDialerOf } from "../src/modules/batch-calls/routes.ts";
import { FakeDialPort } from "./batch-calls/fake-dial-port.ts";
import {
  createCampaign,
  eventually,
  finishedCampaign,
  getCampaign,
  initiate,
  numbers,
  useCampaignWorld,
} from "./batch-calls/world.ts";

/**
 * The campaign dialer (issue 14 item 3 and 5) against an in-memory phone network: exactly once per
 * attempt, concurrency, retries, stop, do-not-call, calling windows, spend cap, scheduled start.
 */

const world = useCampaignWorld({ concurrencyLimit: 50 });

const usePort = (port: FakeDialPort) => campaignDialerOf(world.t.ctx).usePort(port);

/** No dialer job of the campaign is queued or running any more: nothing can dial for it after this. */
async function dialerIdle(batchCallId: string) {
  await eventually(
    () =>
      world.t.ctx.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.queue, DIAL_QUEUE),
            inArray(jobs.status, ["queued", "running"]),
            sql`${jobs.payload}->>'batchCallId' = ${batchCallId}`,
          ),
        ),
    (rows) => rows.length === 0,
    "the dialer jobs to end",
  );
}

describe("the campaign dialer", () => {
  it("dials 1,000 contacts once per attempt, never more than 20 at once, retrying busy as the policy says", async () => {
    const contacts = numbers(1_000, 10_000);
    const busyFirst = new Set(contacts.filter((_, i) => i % 10 === 0));
    const noAnswer = new Set(contacts.filter((_, i) => i % 10 === 5));
    const port = new FakeDialPort({
      outcomeOf: (number, attempt) =>
        busyFirst.has(number) && attempt === 1 ? "busy" : noAnswer.has(number) ? "no-answer" : "answered",
      holdMs: () => 1 + Math.floor(Math.random() * 5),
    });
    usePort(port);
    const created = await createCampaign(world, {
      phone_numbers: contacts,
      concurrency: 20,
      retry_policy: { max_attempts: 2, delay_seconds: 0, retry_on: ["busy"] },
    });
    expect((await initiate(world, created.id)).statusCode).toBe(200);
    const done = await finishedCampaign(world.t, world, created.id);

    expect(done.status).toBe("partial");
    expect(port.maxLive).toBeLessThanOrEqual(20);
    expect(port.maxLive).toBeGreaterThan(1);
    for (const number of contacts) expect(port.dialsOf(number)).toBe(busyFirst.has(number) ? 2 : 1);
    expect(port.dials).toHaveLength(1_100);
    expect(done.progress).toMatchObject({
      total: 1_000,
      dialled: 1_000,
      answered: 900,
      failed: 100,
      in_progress: 0,
      pending: 0,
    });
    const byNumber = new Map(done.phone_numbers.map((c) => [c.number, c]));
    expect(byNumber.get(contacts[0] ?? "")).toMatchObject({
      status: "answered",
      attempts: 2,
      last_outcome: "answered",
    });
    expect(byNumber.get(contacts[5] ?? "")).toMatchObject({ status: "no-answer", attempts: 1 });
  }, 240_000);

  it("stop cancels contacts not yet dialled at once, lets live calls finish, and dials no more", async () => {
    const port = new FakeDialPort({ holdMs: () => 150 });
    usePort(port);
    const created = await createCampaign(world, { phone_numbers: numbers(200, 20_000), concurrency: 5 });
    await initiate(world, created.id);
    await eventually(
      async () => port.dials.length,
      (n) => n >= 10,
      "some dials",
    );
    const stopped = await world.api("POST", `/batch-calls/${created.id}/stop`);
    expect(stopped.json<BatchCall>().status).toBe("cancelled");
    const after = await eventually(
      () => getCampaign(world, created.id),
      (b) => b.progress.in_progress === 0,
      "live calls to finish",
    );
    await dialerIdle(created.id);
    const dialled = port.dials.length;
    expect(dialled).toBeLessThan(200);
    expect(after.progress.answered).toBe(dialled);
    expect(after.progress.cancelled).toBe(200 - dialled);
    expect(after.status).toBe("cancelled");
    const final = await getCampaign(world, created.id);
    expect(port.dials.length).toBe(dialled);
    expect(final.phone_numbers.filter((c) => c.status === "cancelled").every((c) => c.attempts === 0)).toBe(true);
  }, 60_000);

  it("never dials a number on the do-not-call list, even one listed after the campaign was made", async () => {
    const port = new FakeDialPort();
    usePort(port);
    const [listedBefore = "", listedAfter = "", fine = ""] = numbers(3, 30_000);
    await world.api("POST", "/do-not-call", { phone_numbers: [listedBefore] });
    const created = await createCampaign(world, { phone_numbers: [listedBefore, listedAfter, fine] });
    await world.api("POST", "/do-not-call", { phone_numbers: [listedAfter] });
    await initiate(world, created.id);
    const done = await finishedCampaign(world.t, world, created.id);
    expect(port.dials.map((d) => d.number)).toEqual([fine]);
    expect(done.phone_numbers.map((c) => c.status)).toEqual(["do-not-call", "do-not-call", "answered"]);
    expect(done).toMatchObject({ status: "completed", progress: { do_not_call: 2, answered: 1 } });
  });

  it("keeps a contact outside its calling window waiting, in the recipient's time zone", async () => {
    const port = new FakeDialPort();
    usePort(port);
    const utcHour = new Date().getUTCHours();
    /** An Etc zone where it is now `hour` o'clock (Etc/GMT-3 is UTC+3). */
    const zoneAt = (hour: number) => {
      let offset = (hour - utcHour + 24) % 24;
      if (offset > 12) offset -= 24;
      return offset === 0 ? "Etc/UTC" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
    };
    const [open = "", closed = ""] = numbers(2, 40_000);
    const created = await createCampaign(world, {
      phone_numbers: [
        { number: open, timezone: zoneAt(10) },
        { number: closed, timezone: zoneAt(22) },
      ],
      calling_window: { days: [1, 2, 3, 4, 5, 6, 7], start: "10:00", end: "12:00", timezone: "recipient" },
    });
    await initiate(world, created.id);
    const waiting = await eventually(
      () => getCampaign(world, created.id),
      (b) => b.phone_numbers[0]?.status === "answered" && b.phone_numbers[1]?.next_attempt_at !== null,
      "the open contact to be called and the closed one to be put off",
    );
    expect(port.dials.map((d) => d.number)).toEqual([open]);
    expect(waiting.status).toBe("running");
    const closedContact = waiting.phone_numbers[1];
    expect(closedContact).toMatchObject({ status: "pending", attempts: 0 });
    // It opens at 10:00 in its zone: 12 hours from now, give or take the minutes past the hour.
    const opensIn = new Date(closedContact?.next_attempt_at ?? 0).getTime() - Date.now();
    expect(opensIn).toBeGreaterThan(11 * 3_600_000);
    expect(opensIn).toBeLessThanOrEqual(12 * 3_600_000);
    await world.api("POST", `/batch-calls/${created.id}/stop`);
  });

  it("pauses the campaign when its spend cap is reached, and resumes once the cap is raised", async () => {
    const port = new FakeDialPort({ cost: 0.1 });
    usePort(port);
    const created = await createCampaign(world, {
      phone_numbers: numbers(10, 50_000),
      concurrency: 1,
      spend_cap: 0.25,
    });
    await initiate(world, created.id);
    const paused = await eventually(
      () => getCampaign(world, created.id),
      (b) => b.status === "pending" && b.pause_reason === "spend_cap" && b.progress.in_progress === 0,
      "the spend cap to pause the campaign",
    );
    await dialerIdle(created.id);
    expect(port.dials).toHaveLength(3);
    expect(paused.spent).toBeCloseTo(0.3);
    expect((await initiate(world, created.id)).statusCode).toBe(409);
    const raised = await world.api("PUT", `/batch-calls/${created.id}`, { spend_cap: null });
    expect(raised.statusCode).toBe(200);
    expect((await initiate(world, created.id)).statusCode).toBe(200);
    const done = await finishedCampaign(world.t, world, created.id);
    expect(done.status).toBe("completed");
    expect(port.dials).toHaveLength(10);
  }, 60_000);

  it("starts a scheduled campaign on time", async () => {
    const port = new FakeDialPort();
    usePort(port);
    const at = new Date(Date.now() + 1_500);
    const created = await createCampaign(world, {
      phone_numbers: numbers(1, 60_000),
      scheduled_time: at.toISOString(),
    });
    expect((await initiate(world, created.id)).json<BatchCall>().status).toBe("scheduled");
    await eventually(
      async () => port.dials.length,
      (n) => n === 1,
      "the first dial",
    );
    const delay = (port.dials[0]?.at ?? 0) - at.getTime();
    expect(delay).toBeGreaterThanOrEqual(-5);
    expect(delay).toBeLessThan(1_000);
    await finishedCampaign(world.t, world, created.id);
  });
});
