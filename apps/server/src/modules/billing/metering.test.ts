import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signedInUser, type TestApp } from "../../../test/harness.ts";
import { createAssistant } from "../../../test/support/calls.ts";
import { jobs } from "../../jobs/schema.ts";
import { createCallLog, finishCallLog } from "../call-logs/service.ts";
import { METER_QUEUE } from "./metering.ts";
import { usageRecords } from "./schema.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  // Load-proof: opening a database and running every migration is slow on a busy machine.
}, 240_000);

afterAll(async () => {
  await t.close();
});

/** 90 s of a phone call as its log leaves it: the carrier's minutes priced. */
const CARRIER_MINUTES = {
  per_minute: 0.014,
  minutes: 1.5,
  stt: 0,
  llm: 0,
  tts: 0,
  telephony: 0.021,
  platform: 0,
  currency: "USD" as const,
  usage: [
    {
      component: "telephony" as const,
      provider: "carrier",
      model: "pstn",
      unit: "minute" as const,
      quantity: 1.5,
      unit_price: 0.014,
      cost: 0.021,
    },
  ],
};

describe("metering", () => {
  it("writes an ended call's usage rows as its end is followed up, without a job", async () => {
    const user = await signedInUser(t);
    const agentId = await createAssistant(t, user.token, { name: "Metered" });
    const tenant = { workspaceId: user.workspaceId };
    const log = await createCallLog(t.ctx.db, tenant, {
      agentId,
      agentName: "Metered",
      channel: "web",
      direction: "inbound",
    });
    await finishCallLog(t.ctx.db, tenant, log.id, {
      status: "completed",
      endReason: "caller_hangup",
      endedAt: new Date(),
      durationSeconds: 90,
      cost: 0.021,
      costBreakdown: CARRIER_MINUTES,
      transcript: [],
      toolCalls: [],
      turnMetrics: [],
      events: [],
      recordingPath: null,
    });
    t.ctx.events.emit("call.ended", {
      workspaceId: user.workspaceId,
      callId: log.id,
      agentId,
      channel: "web",
      status: "completed",
      durationSeconds: 90,
    });
    expect(await t.ctx.events.settled(10_000)).toBe(true);

    const rows = await t.ctx.db.select().from(usageRecords).where(eq(usageRecords.callId, log.id));
    expect(rows).toEqual([
      expect.objectContaining({
        component: "telephony",
        agentName: "Metered",
        channel: "web",
        callMinutes: 1.5,
        cost: 0.021,
      }),
    ]);
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.queue, METER_QUEUE))).toEqual([]);
  });
});
