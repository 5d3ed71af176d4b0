import { BillingUsage, CallLog, CallStatsResponse, MINUTES_RUNNING_OUT_WARNING } from "@parley/contract";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { recordUsage } from "../src/modules/billing/metering.ts";
import { minuteGrants, usageRecords } from "../src/modules/billing/schema.ts";
import { createCallLog, finishCallLog } from "../src/modules/call-logs/service.ts";
import { minutesUsedUpText } from "../src/modules/calls/minutes-allowance.ts";
import { saveQuota } from "../src/modules/users/limits.ts";
import { call, signedInUser } from "./harness.ts";
import { callerFirstAssistant } from "./support/assistant-fields.ts";
import { createAssistant, roomToken, startRoom } from "./support/calls.ts";
import { recordPastCall } from "./support/past-calls.ts";
import { closedCallLog, connectRealtime, joinCall, useCallApp } from "./support/realtime-calls.ts";
import { until } from "./support/until.ts";

/**
 * Issue 26 items 3 and 10: one definition of a call and of used minutes on every page (Home, Billing,
 * the plan), attempts that never connected count and bill nothing, a model request that never left
 * the server bills no tokens, and the plan's minutes are refused at the API when too few are left.
 */

const t = useCallApp(() => ({ text: "Noted." }));

type User = Awaited<ReturnType<typeof signedInUser>>;

async function homeFigures(user: User) {
  const res = await call(t, "GET", "/api/v1/call-logs/stats", { token: user.token });
  expect(res.statusCode, res.body).toBe(200);
  return CallStatsResponse.parse(res.json());
}

async function billingMonth(user: User) {
  const res = await call(t, "GET", "/api/v1/billing/usage", { token: user.token });
  expect(res.statusCode, res.body).toBe(200);
  return BillingUsage.parse(res.json());
}

const onPlan = (user: User, minutesPerMonth: number) =>
  saveQuota(t.ctx.db, user.user.id, {
    maxAssistants: 10,
    minutesPerMonth,
    concurrentCalls: 5,
    maxWorkspaces: 3,
    updatedAt: new Date(),
  });

/** A call's usage lines as a finished call leaves them: only its transcriber minutes priced. */
const transcriberLines = (seconds: number) => ({
  per_minute: 0,
  minutes: seconds / 60,
  stt: 0,
  llm: 0,
  tts: 0,
  telephony: 0,
  platform: 0,
  currency: "USD" as const,
  usage: [
    {
      component: "stt" as const,
      provider: "local",
      model: "whisper",
      unit: "minute" as const,
      quantity: seconds / 60,
      unit_price: 0.01,
      cost: (seconds / 60) * 0.01,
    },
  ],
});

const NOTHING_SAID = { transcript: [], toolCalls: [], turnMetrics: [], events: [], recordingPath: null };

describe("one count of calls and minutes", () => {
  it("shows the same calls and minutes on Home, Billing and the plan, without attempts that never connected", async () => {
    const user = await signedInUser(t);
    await onPlan(user, 100);
    const agent = await createAssistant(t, user.token, { name: "Counter" });
    const tenant = { workspaceId: user.workspaceId };
    const open = () =>
      createCallLog(t.ctx.db, tenant, { agentId: agent, agentName: "Counter", channel: "web", direction: "inbound" });

    // A connected call of 90 s, metered.
    const connected = await open();
    await finishCallLog(t.ctx.db, tenant, connected.id, {
      status: "completed",
      endReason: "caller_hangup",
      endedAt: new Date(),
      durationSeconds: 90,
      cost: 0.015,
      costBreakdown: transcriberLines(90),
      ...NOTHING_SAID,
    });
    const connectedLog = CallLog.parse(
      (await call(t, "GET", `/api/v1/call-logs/${connected.id}`, { token: user.token })).json(),
    );
    await recordUsage(t.ctx.db, user.workspaceId, connectedLog);
    // A connected call of 31 s the meter has not reached yet.
    await recordPastCall(t, user.workspaceId, agent, 31);
    // An attempt whose session never started (still queued when it failed), closed as live calls close it.
    const attempt = await open();
    await finishCallLog(t.ctx.db, tenant, attempt.id, {
      status: "failed",
      endReason: "error",
      endedAt: new Date(),
      durationSeconds: 0.57,
      cost: 0.0001,
      costBreakdown: transcriberLines(0.57),
      ...NOTHING_SAID,
    });
    // A room nobody joined.
    const unjoined = await open();
    await finishCallLog(t.ctx.db, tenant, unjoined.id, {
      status: "failed",
      endReason: "not_joined",
      endedAt: new Date(),
      durationSeconds: 0,
      cost: 0,
      costBreakdown: null,
      ...NOTHING_SAID,
    });

    const attemptLog = CallLog.parse(
      (await call(t, "GET", `/api/v1/call-logs/${attempt.id}`, { token: user.token })).json(),
    );
    expect(attemptLog).toMatchObject({ status: "failed", duration_seconds: 0, cost: 0, cost_breakdown: null });

    const home = await homeFigures(user);
    const billing = await billingMonth(user);
    // 121 s: the same unrounded figure everywhere, so every page rounds it alike.
    const minutes = 2.016667;
    expect(home.calls_this_month).toBe(2);
    expect(home.minutes_this_month).toBe(minutes);
    expect(billing).toMatchObject({ calls: 2, minutes });
    expect(billing.plan?.minutes_used).toBe(minutes);
    expect(billing.daily.reduce((n, d) => n + d.calls, 0)).toBe(2);
    expect(billing.by_assistant).toEqual([expect.objectContaining({ agent_id: agent, calls: 2, minutes })]);
    expect(billing.periods[0]).toMatchObject({ period: billing.period, calls: 2, minutes });
    // Every log is still listed, attempts included.
    const list = await call(t, "GET", "/api/v1/call-logs", { token: user.token });
    expect(list.json<{ total_count: number }>().total_count).toBe(4);

    // Deleting a metered call's log changes no count and gives no minutes back.
    const deleted = await call(t, "DELETE", `/api/v1/call-logs/${connected.id}`, { token: user.token });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await homeFigures(user)).calls_this_month).toBe(2);
    expect(await billingMonth(user)).toMatchObject({ calls: 2, minutes, plan: { minutes_used: minutes } });
  });

  it("bills no tokens for a model request that never left the server", { timeout: 120_000 }, async () => {
    const user = await signedInUser(t);
    // The model's address refuses connections: the request fails before it is sent.
    const agent = await createAssistant(t, user.token, callerFirstAssistant("Unreachable model"));
    const { client, callId } = await joinCall(t, user.token, agent);
    await client.waitFor("ready");
    client.send({ type: "text", text: "Hello, is anybody there?" });
    // The fault policy reports the model's failure, says its recovery line, asks once more and,
    // the model still unreachable, says goodbye and ends the call: no request ever left the server.
    await client.waitFor("fault", (m) => m.stage === "llm");
    expect((await client.waitFor("end")).reason).toBe("assistant_error");
    await client.closed;
    const log = await closedCallLog(t, user.token, callId);
    const lines = new Map((log.cost_breakdown?.usage ?? []).map((line) => [line.component, line.quantity]));
    expect(lines.get("llm_input")).toBe(0);
    expect(lines.get("llm_output")).toBe(0);
  });
});

describe("the plan's last minutes", () => {
  /** A user on a one-minute plan with a caller-first assistant on the scripted model. */
  async function oneMinutePlan(fields: Record<string, unknown> = {}) {
    const user = await signedInUser(t);
    await onPlan(user, 1);
    const agent = await createAssistant(t, user.token, {
      ...callerFirstAssistant("Last minute", t.llm.baseUrl),
      ...fields,
    });
    return { user, agent };
  }

  it("refuses a call at the API when less than a useful call is left", async () => {
    const { user, agent } = await oneMinutePlan();
    await recordPastCall(t, user.workspaceId, agent, 59.4);
    const refused = await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: user.token });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({ detail: minutesUsedUpText(1) });
    const list = await call(t, "GET", "/api/v1/call-logs", { token: user.token });
    expect(list.json<{ total_count: number }>().total_count).toBe(1);
  });

  it("bills nothing for a caller refused on joining, and ends a capped call within the plan", async () => {
    const { user, agent } = await oneMinutePlan({ max_call_duration: 180 });
    await recordPastCall(t, user.workspaceId, agent, 45);
    // Both rooms are created while 15 s are free; the first caller to join takes them.
    const first = await startRoom(t, user.token, agent);
    const second = await startRoom(t, user.token, agent);
    const caller = await connectRealtime(t, await roomToken(t, user.token, first.room));
    await caller.waitFor("ready");
    const refused = await connectRealtime(t, await roomToken(t, user.token, second.room));
    expect((await refused.waitFor("error")).message).toBe(minutesUsedUpText(1));
    const refusedLog = await closedCallLog(t, user.token, second.callId);
    expect(refusedLog).toMatchObject({ status: "failed", duration_seconds: 0, cost: 0, cost_breakdown: null });

    await caller.waitFor("transcript", (m) => m.role === "assistant" && m.text === MINUTES_RUNNING_OUT_WARNING);
    const capped = await closedCallLog(t, user.token, first.callId);
    expect(capped.end_reason).toBe("max_duration");
    await until(
      () => t.ctx.db.select().from(minuteGrants).where(eq(minuteGrants.callId, first.callId)),
      (rows) => rows.length === 0,
      "the capped call's grant to be freed",
    );
    // 45 s before, the capped call after: within the plan's 60 s, the refused attempt adding nothing.
    const month = await billingMonth(user);
    expect(month.plan?.minutes_used).toBeLessThanOrEqual(1);
    expect(month.calls).toBe(2);
    expect(await t.ctx.db.select().from(usageRecords).where(eq(usageRecords.callId, second.callId))).toEqual([]);
  });
});
