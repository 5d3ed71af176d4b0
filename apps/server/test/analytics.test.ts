import { createHmac } from "node:crypto";
import type { AddressInfo } from "node:net";
import {
  AlertEventList,
  AnalyticsResult,
  BillingUsage,
  type CallAnalysis,
  CallLog,
  CallLogPage,
  type CallLogSummary,
  type TurnMetricsEntry,
} from "@parley/contract";
import { and, count, eq, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/jobs/schema.ts";
import { createMailer } from "../src/lib/mailer.ts";
import { ALERTS_QUEUE } from "../src/modules/analytics/alert-evaluation-across-workspaces.ts";
import { BACKFILL_QUEUE } from "../src/modules/analytics/backfill-across-workspaces.ts";
import { analyticsBackfill, analyticsCalls } from "../src/modules/analytics/schema.ts";
import { recordUsage } from "../src/modules/billing/metering.ts";
import { createCallLog, finishCallLog, saveCallAnalysis } from "../src/modules/call-logs/service.ts";
import { call, signedInUser, useTestApp } from "./harness.ts";
import { createAssistant } from "./support/calls.ts";
import { startReceiver } from "./support/loopback.ts";
import { until } from "./support/until.ts";

/**
 * Issue 33: analytics reads one definition of a call with /billing and the call-log list, keeps its
 * rollup as calls end and as their analysis lands, answers the reporting API (JSON, CSV, API keys),
 * and an alert rule fires once per breach, by email and a signed webhook.
 */

const emails: { to: string; raw: string }[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, session, done) {
    let raw = "";
    stream.on("data", (chunk: Buffer) => {
      raw += chunk.toString("utf8");
    });
    stream.on("end", () => {
      for (const rcpt of session.envelope.rcptTo) emails.push({ to: rcpt.address.toLowerCase(), raw });
      done();
    });
  },
});
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let smtpUrl = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  receiver = await startReceiver((_request, res) => res.writeHead(200).end("ok"));
}, 60_000);

const t = useTestApp(() => ({ SMTP_URL: smtpUrl, PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" }));

afterAll(async () => {
  await receiver?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

type User = Awaited<ReturnType<typeof signedInUser>>;

/** Last month (UTC): a whole month of seeded calls, in the past so nothing of now mixes in. */
const now = new Date();
const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
const period = month.toISOString().slice(0, 7);
const lastDay = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
const dayOfMonth = (d: number, hour = 12) => new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), d, hour));

const turn = (i: number, v2v: number): TurnMetricsEntry => ({
  turn: i,
  stt_ms: 120,
  llm_ttft_ms: 300 + i,
  tts_ttfb_ms: 150,
  voice_to_voice_ms: v2v,
  engine_overhead_ms: 5,
  end_of_turn_rule: "punctuation",
  end_of_turn_wait_ms: 200,
});

function usageOf(seconds: number) {
  const minutes = seconds / 60;
  const lines = [
    {
      component: "stt" as const,
      provider: "deepgram",
      model: "nova-3",
      unit: "minute" as const,
      quantity: minutes,
      unit_price: 0.0043,
      cost: minutes * 0.0043,
    },
    {
      component: "llm_input" as const,
      provider: "openai",
      model: "gpt-4o-mini",
      unit: "token" as const,
      quantity: 1000,
      unit_price: 0.00000015,
      cost: 0.00015,
    },
    {
      component: "tts" as const,
      provider: "cartesia",
      model: "sonic",
      unit: "character" as const,
      quantity: 500,
      unit_price: 0.00003,
      cost: 0.015,
    },
  ];
  const cost = lines.reduce((s, l) => s + l.cost, 0);
  return {
    cost,
    breakdown: {
      per_minute: 0,
      minutes,
      stt: 0,
      llm: 0,
      tts: 0,
      telephony: 0,
      platform: 0,
      currency: "USD" as const,
      usage: lines,
    },
  };
}

const verdict = (passed: boolean): CallAnalysis => ({
  status: "done",
  summary: "ok",
  success: { scale: "pass_fail", verdict: passed ? "pass" : "fail", passed, reason: "seeded" },
  structured_data: null,
  error: null,
  completed_at: new Date().toISOString(),
});

interface Seed {
  startedAt: Date;
  seconds: number;
  status?: "completed" | "failed";
  endReason?: string;
  channel?: "web" | "phone";
  passed?: boolean;
  v2v?: number;
}

/** A finished call as a live call leaves it, announced as ended: analytics rolls it up from the event. */
async function seedCall(user: User, agentId: string, seed: Seed): Promise<string> {
  const tenant = { workspaceId: user.workspaceId };
  const phone = seed.channel === "phone";
  const log = await createCallLog(t.ctx.db, tenant, {
    agentId,
    agentName: "Analyst",
    channel: seed.channel ?? "web",
    direction: "inbound",
    ...(phone ? { fromNumber: "+15550001111", toNumber: "+15550002222" } : {}),
    startedAt: seed.startedAt,
  });
  const answered = seed.seconds > 0;
  const usage = usageOf(seed.seconds);
  await finishCallLog(t.ctx.db, tenant, log.id, {
    status: seed.status ?? (answered ? "completed" : "failed"),
    endReason: seed.endReason ?? (answered ? "caller_hangup" : "not_joined"),
    endedAt: new Date(seed.startedAt.getTime() + seed.seconds * 1000),
    durationSeconds: seed.seconds,
    cost: answered ? usage.cost : 0,
    costBreakdown: answered ? usage.breakdown : null,
    recordingPath: null,
    transcript: [],
    toolCalls: [],
    turnMetrics: answered ? [turn(1, seed.v2v ?? 800), turn(2, seed.v2v ?? 900)] : [],
    events: [],
  });
  if (seed.passed !== undefined) await saveCallAnalysis(t.ctx.db, tenant, log.id, verdict(seed.passed));
  t.ctx.events.emit("call.ended", {
    workspaceId: user.workspaceId,
    callId: log.id,
    agentId,
    channel: seed.channel ?? "web",
    status: answered ? "completed" : "failed",
    durationSeconds: seed.seconds,
  });
  return log.id;
}

async function rolledCalls(user: User) {
  const [row] = await t.ctx.db
    .select({ n: count() })
    .from(analyticsCalls)
    .where(eq(analyticsCalls.workspaceId, user.workspaceId));
  return Number(row?.n ?? 0);
}

async function analytics(user: User, query: string, token = user.token) {
  const res = await call(t, "GET", `/api/v1/analytics/query?${query}`, { token });
  expect(res.statusCode, res.body).toBe(200);
  return AnalyticsResult.parse(res.json());
}

async function allCallLogs(user: User, query: string): Promise<CallLogSummary[]> {
  const out: CallLogSummary[] = [];
  for (let page = 1; ; page += 1) {
    const res = await call(t, "GET", `/api/v1/call-logs?${query}&page=${page}&items_per_page=100`, {
      token: user.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = CallLogPage.parse(res.json());
    out.push(...body.data);
    if (out.length >= body.total_count || body.data.length === 0) return out;
  }
}

/** Runs the app's alert job now (it would on its own within a minute) and waits for it to finish. */
async function evaluateNow() {
  const due = and(eq(jobs.queue, ALERTS_QUEUE), eq(jobs.status, "queued"));
  const [before] = await t.ctx.db.select({ id: jobs.id, updatedAt: jobs.updatedAt }).from(jobs).where(due);
  if (!before) throw new Error("no alert evaluation job is queued");
  await t.ctx.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, before.id));
  t.app.jobs.wake();
  await until(
    async () => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, before.id)))[0],
    (job) => job?.status === "queued" && job.updatedAt > before.updatedAt && job.runAt.getTime() > Date.now(),
    "the alert job to run",
  );
}

const close = (a: number | null | undefined, b: number) => expect(a ?? Number.NaN).toBeCloseTo(b, 4);

describe("analytics", () => {
  it("gives the same calls, minutes and cost as /billing and the call-log list for a seeded month", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, { name: "Analyst" });
    const other = await createAssistant(t, user.token, { name: "Other" });
    const ids: string[] = [];
    for (let d = 1; d <= 28; d += 1) {
      ids.push(await seedCall(user, agent, { startedAt: dayOfMonth(d, 9), seconds: 30 + d * 7, passed: d % 3 !== 0 }));
      ids.push(await seedCall(user, other, { startedAt: dayOfMonth(d, 23), seconds: 61.5, channel: "phone" }));
      if (d % 4 === 0) ids.push(await seedCall(user, agent, { startedAt: dayOfMonth(d, 1), seconds: 0 }));
      // A second call in the same hour, assistant and channel: its row sums both.
      if (d % 5 === 0)
        ids.push(await seedCall(user, agent, { startedAt: dayOfMonth(d, 9), seconds: 200, passed: false, v2v: 2600 }));
      if (d % 7 === 0)
        ids.push(
          await seedCall(user, other, {
            startedAt: dayOfMonth(d, 15),
            seconds: 12,
            status: "failed",
            endReason: "assistant_error",
          }),
        );
    }
    await until(
      () => rolledCalls(user),
      (n) => n === ids.length,
      "every seeded call in analytics",
    );
    // Metered as their follow-up meters them (the seeded calls carry usage lines).
    for (const id of ids) {
      const log = CallLog.parse((await call(t, "GET", `/api/v1/call-logs/${id}`, { token: user.token })).json());
      await recordUsage(t.ctx.db, user.workspaceId, log);
    }

    const range = `from=${period}-01&to=${lastDay}`;
    const result = await analytics(
      user,
      `${range}&bucket=day&metrics=calls,attempts,unanswered,minutes,cost,success_rate,error_rate,p95_latency_voice_to_voice,latency_p95_voice_to_voice`.replace(
        "p95_latency_voice_to_voice,",
        "",
      ),
    );
    const billing = BillingUsage.parse(
      (await call(t, "GET", `/api/v1/billing/usage?period=${period}`, { token: user.token })).json(),
    );
    const logs = await allCallLogs(user, `date_from=${period}-01&date_to=${lastDay}`);

    expect(result.totals.calls).toBe(billing.calls);
    close(result.totals.minutes, billing.minutes);
    close(result.totals.cost, billing.cost);
    expect(result.totals.attempts).toBe(logs.length);
    close(result.totals.minutes, logs.reduce((s, l) => s + l.duration_seconds, 0) / 60);
    close(
      result.totals.cost,
      logs.reduce((s, l) => s + l.cost, 0),
    );
    expect(result.totals.unanswered).toBe(logs.filter((l) => l.duration_seconds === 0).length);
    // Per day as /billing's days (the workspace's zone is UTC by default).
    for (const day of billing.daily) {
      const row = result.rows.find((r) => r.bucket === day.day);
      expect(row?.values.calls, day.day).toBe(day.calls);
      close(row?.values.minutes, day.minutes);
    }
    // Per assistant as /billing's assistants.
    const byAssistant = await analytics(user, `${range}&bucket=total&group_by=assistant&metrics=calls,minutes,cost`);
    for (const a of billing.by_assistant) {
      const row = byAssistant.rows.find((r) => r.keys.assistant?.value === a.agent_id);
      expect(row?.values.calls).toBe(a.calls);
      close(row?.values.minutes, a.minutes);
      close(row?.values.cost, a.cost);
    }
    // The rows with dimensions sum to the day totals, whatever they are grouped by.
    const metrics =
      "calls,attempts,minutes,cost,cost_tts,analysed,passed,latency_p95_voice_to_voice,p95_duration_seconds";
    const whole = await analytics(user, `${range}&bucket=total&metrics=${metrics}`);
    for (const dim of ["channel", "end_reason", "version"]) {
      const grouped = await analytics(user, `${range}&bucket=total&group_by=${dim}&metrics=${metrics}`);
      for (const m of ["calls", "attempts", "minutes", "cost", "cost_tts", "analysed", "passed"] as const)
        close(
          grouped.rows.reduce((sum, r) => sum + (r.values[m] ?? 0), 0),
          whole.totals[m] ?? Number.NaN,
        );
      expect(grouped.totals).toEqual(whole.totals);
    }
    // The same filter on both sides: one assistant's calls.
    const oneAgent = await analytics(user, `${range}&bucket=total&assistant_id=${agent}&metrics=attempts`);
    expect(oneAgent.totals.attempts).toBe(
      (await allCallLogs(user, `date_from=${period}-01&date_to=${lastDay}&agent_id=${agent}`)).length,
    );
    // Success from the verdicts; latency from the turns (800 and 900 ms: p95 within a bucket's width, 100 ms).
    const analysed = logs.filter((l) => l.agent_id === agent && l.duration_seconds > 0);
    // 28 first calls (9 failed verdicts: d % 3 === 0) and 5 second ones (all failed).
    expect(analysed.length).toBe(28 + 5);
    close(result.totals.success_rate, Math.round(((28 - 9) / 33) * 10000) / 100);
    // 10 of 130 turns at 2,600 ms (over 5 %), the rest at 800 and 900 ms: the p95 is in 2,600's bucket.
    expect(result.totals.latency_p95_voice_to_voice).toBeGreaterThanOrEqual(2500);
    expect(result.totals.latency_p95_voice_to_voice).toBeLessThanOrEqual(3000);
    close(result.totals.error_rate, Math.round((4 / logs.length) * 10000) / 100);
  }, 240_000);

  it("counts a verdict that lands after the call ended, once", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, { name: "Late" });
    const id = await seedCall(user, agent, { startedAt: dayOfMonth(3), seconds: 40 });
    await until(
      () => rolledCalls(user),
      (n) => n === 1,
      "the call in analytics",
    );
    const q = `from=${period}-01&to=${lastDay}&bucket=total&metrics=analysed,success_rate,calls`;
    expect((await analytics(user, q)).totals).toMatchObject({ analysed: 0, success_rate: null, calls: 1 });
    await saveCallAnalysis(t.ctx.db, { workspaceId: user.workspaceId }, id, verdict(false));
    const { rollEndedCall } = await import("../src/modules/analytics/roll-ended-call.ts");
    await rollEndedCall(t.ctx, user.workspaceId, id);
    await rollEndedCall(t.ctx, user.workspaceId, id);
    expect((await analytics(user, q)).totals).toMatchObject({ analysed: 1, success_rate: 0, calls: 1 });
  }, 120_000);

  it("answers with an API key's read scope, as CSV too, and refuses bad input with a reason", async () => {
    const user = await signedInUser(t);
    const key = async (scopes: string[]) =>
      (await call(t, "POST", "/api/v1/api-keys", { token: user.token, body: { name: "k", scopes } })).json<{
        secret: string;
      }>().secret;
    const reader = await key(["read"]);
    const writer = await key(["write"]);
    const csv = await call(
      t,
      "GET",
      `/api/v1/analytics/query?from=${period}-01&to=${lastDay}&bucket=week&format=csv&metrics=calls,cost`,
      { token: reader },
    );
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.body.split("\r\n")[0]).toBe("bucket,calls,cost");
    const refused = await call(t, "GET", `/api/v1/analytics/query?from=${period}-01&to=${lastDay}`, { token: writer });
    expect(refused.statusCode).toBe(403);
    const bad = await call(t, "GET", `/api/v1/analytics/query?from=${period}-01&to=${lastDay}&metrics=calls,nonsense`, {
      token: user.token,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("Unknown metric: nonsense");
    const docs = await call(t, "GET", "/api/v1/openapi.json");
    expect(docs.statusCode).toBe(200);
    const spec = docs.json<{ paths: Record<string, { get?: { parameters?: { name: string }[] } }> }>();
    const query = spec.paths["/api/v1/analytics/query"]?.get;
    expect(query?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(["metrics", "group_by", "from", "to", "bucket", "format"]),
    );
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(["/api/v1/analytics/alerts/rules", "/api/v1/analytics/alerts/events"]),
    );
  }, 120_000);

  it("fires a success-rate alert once when the rate drops, by email and a signed webhook, and again only after recovery", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, { name: "Watched" });
    const hook = await call(t, "POST", "/api/v1/webhooks", {
      token: user.token,
      body: { url: `${receiver.origin}/alerts`, events: ["alert.triggered"] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const secret = hook.json<{ secret: string }>().secret;
    // The app's mailer speaks SMTP to a real server here (the test app's default keeps emails in memory).
    Object.assign(t.ctx, { mailer: createMailer({ smtpUrl, from: "parley@example.com", log: t.app.log }) });
    const rule = await call(t, "POST", "/api/v1/analytics/alerts/rules", {
      token: user.token,
      body: {
        name: "Success dropped",
        kind: "success_rate_below",
        threshold: 60,
        window_calls: 5,
        emails: ["ops@example.com"],
      },
    });
    expect(rule.statusCode, rule.body).toBe(201);

    let minute = 0;
    const seedMany = async (n: number, passed: boolean) => {
      for (let i = 0; i < n; i += 1) {
        minute += 1;
        await seedCall(user, agent, {
          startedAt: new Date(Date.now() - 3_600_000 + minute * 60_000),
          seconds: 20,
          passed,
        });
      }
    };
    const evaluate = evaluateNow;
    const history = async () =>
      AlertEventList.parse((await call(t, "GET", "/api/v1/analytics/alerts/events", { token: user.token })).json());

    await seedMany(5, true);
    await until(
      () => rolledCalls(user),
      (n) => n === 5,
      "5 calls rolled",
    );
    await evaluate();
    expect(await history()).toEqual([]);

    await seedMany(3, false);
    await until(
      () => rolledCalls(user),
      (n) => n === 8,
      "8 calls rolled",
    );
    await evaluate();
    await evaluate();
    const fired = await history();
    expect(fired.map((e) => e.state)).toEqual(["triggered"]);
    expect(fired[0]).toMatchObject({ value: 40, threshold: 60, emailed: 1 });

    const mail = await until(
      async () => emails.filter((e) => e.to === "ops@example.com"),
      (m) => m.length > 0,
      "the alert email",
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]?.raw).toContain("Success dropped");
    const delivered = await until(
      async () => receiver.received.filter((r) => r.url === "/alerts"),
      (r) => r.length > 0,
      "the webhook",
    );
    const got = delivered[0];
    if (!got) throw new Error("no delivery");
    const expected = `sha256=${createHmac("sha256", secret).update(`${got.headers["x-parley-timestamp"]}.${got.body}`).digest("hex")}`;
    expect(got.headers["x-parley-signature"]).toBe(expected);
    expect(JSON.parse(got.body)).toMatchObject({
      type: "alert.triggered",
      data: { alert: { rule_name: "Success dropped", value: 40 } },
    });

    // Recovers, then drops again: a second alert.
    await seedMany(5, true);
    await until(
      () => rolledCalls(user),
      (n) => n === 13,
      "13 calls rolled",
    );
    await evaluate();
    await seedMany(4, false);
    await until(
      () => rolledCalls(user),
      (n) => n === 17,
      "17 calls rolled",
    );
    await evaluate();
    expect((await history()).map((e) => e.state)).toEqual(["triggered", "recovered", "triggered"]);
    expect(emails.filter((e) => e.to === "ops@example.com")).toHaveLength(2);
  }, 240_000);

  it("reads days in the workspace's time zone, rebuilt when it changes, and refuses a zone the database does not know", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, { name: "Zoned" });
    await seedCall(user, agent, { startedAt: new Date(dayOfMonth(10, 23).getTime() + 30 * 60_000), seconds: 60 });
    await until(
      () => rolledCalls(user),
      (n) => n === 1,
      "the call in analytics",
    );
    const q = `from=${period}-01&to=${lastDay}&metrics=calls`;
    const dayWithCall = async () => (await analytics(user, q)).rows.find((r) => r.values.calls === 1)?.bucket;
    expect(await dayWithCall()).toBe(`${period}-10`);
    const set = await call(t, "PUT", "/api/v1/analytics/settings", {
      token: user.token,
      body: { time_zone: "Europe/Paris" },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(await dayWithCall()).toBe(`${period}-11`);
    const bad = await call(t, "PUT", "/api/v1/analytics/settings", {
      token: user.token,
      body: { time_zone: "Mars/Olympus" },
    });
    expect(bad.statusCode).toBe(422);
  }, 120_000);

  it("rolls up the calls that ended before analytics existed, through the backfill job", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, { name: "Old" });
    const tenant = { workspaceId: user.workspaceId };
    const log = await createCallLog(t.ctx.db, tenant, {
      agentId: agent,
      agentName: "Old",
      channel: "web",
      direction: "inbound",
      startedAt: dayOfMonth(5),
    });
    await finishCallLog(t.ctx.db, tenant, log.id, {
      status: "completed",
      endReason: "caller_hangup",
      endedAt: dayOfMonth(5, 13),
      durationSeconds: 90,
      cost: 0,
      costBreakdown: null,
      recordingPath: null,
      transcript: [],
      toolCalls: [],
      turnMetrics: [],
      events: [],
    });
    // What migration 0038 does for the calls it finds.
    await t.ctx.db.insert(analyticsBackfill).values({ callId: log.id, workspaceId: user.workspaceId });
    await t.app.jobs.enqueue(t.ctx.db, BACKFILL_QUEUE, {});
    await until(
      () => rolledCalls(user),
      (n) => n === 1,
      "the past call in analytics",
    );
    const totals = (await analytics(user, `from=${period}-01&to=${lastDay}&bucket=total&metrics=calls,minutes`)).totals;
    expect(totals).toMatchObject({ calls: 1, minutes: 1.5 });
  }, 120_000);

  it("judges error rate, p95 latency and spend rules against the calls, and fires each once", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, { name: "Measured" });
    const rule = async (body: Record<string, unknown>) => {
      const res = await call(t, "POST", "/api/v1/analytics/alerts/rules", {
        token: user.token,
        body: { emails: [], ...body },
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await rule({ name: "Errors", kind: "error_rate_above", threshold: 20, window_calls: 5 });
    await rule({
      name: "Slow",
      kind: "p95_latency_above",
      threshold: 1500,
      window_hours: 2,
      component: "voice_to_voice",
    });
    await rule({ name: "Budget", kind: "spend_above", threshold: 0.05 });
    const bad = await call(t, "POST", "/api/v1/analytics/alerts/rules", {
      token: user.token,
      body: { name: "Odd", kind: "success_rate_below", threshold: 140 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("A rate is a percentage from 0 to 100");

    const recent = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    for (let i = 0; i < 3; i += 1) await seedCall(user, agent, { startedAt: recent(50 - i), seconds: 30, v2v: 800 });
    for (let i = 0; i < 2; i += 1)
      await seedCall(user, agent, {
        startedAt: recent(40 - i),
        seconds: 12,
        status: "failed",
        endReason: "voice_error",
        v2v: 2600,
      });
    await until(
      () => rolledCalls(user),
      (n) => n === 5,
      "5 calls rolled",
    );
    await evaluateNow();
    await evaluateNow();
    const events = AlertEventList.parse(
      (await call(t, "GET", "/api/v1/analytics/alerts/events", { token: user.token })).json(),
    );
    const fired = Object.fromEntries(events.map((e) => [e.rule_name, e]));
    // 2 of the last 5 calls ended with an error: 40 %.
    expect(fired.Errors).toMatchObject({ state: "triggered", value: 40 });
    // 4 of 10 turns at 2,600 ms: the p95 is in the 2,500–3,000 ms bucket.
    expect(fired.Slow?.value).toBeGreaterThanOrEqual(2500);
    expect(fired.Slow?.value).toBeLessThanOrEqual(3000);
    // Each seeded call costs ≈ $0.015 + its minutes: 5 calls pass $0.05.
    expect(fired.Budget?.state).toBe("triggered");
    expect(events).toHaveLength(3);
  }, 120_000);

  it("keeps each workspace's figures and rules to itself", async () => {
    const owner = await signedInUser(t);
    const stranger = await signedInUser(t);
    const agent = await createAssistant(t, owner.token, { name: "Private" });
    await seedCall(owner, agent, { startedAt: dayOfMonth(2), seconds: 30 });
    await until(
      () => rolledCalls(owner),
      (n) => n === 1,
      "the call in analytics",
    );
    const q = `from=${period}-01&to=${lastDay}&bucket=total&metrics=calls`;
    expect((await analytics(owner, q)).totals.calls).toBe(1);
    expect((await analytics(stranger, q)).totals.calls).toBe(0);
    expect((await analytics(stranger, `${q}&assistant_id=${agent}`)).totals.calls).toBe(0);
    const created = await call(t, "POST", "/api/v1/analytics/alerts/rules", {
      token: owner.token,
      body: { name: "Mine", kind: "spend_above", threshold: 100 },
    });
    const id = created.json<{ id: string }>().id;
    const body = { name: "Taken", kind: "spend_above", threshold: 1 };
    expect(
      (await call(t, "PUT", `/api/v1/analytics/alerts/rules/${id}`, { token: stranger.token, body })).statusCode,
    ).toBe(404);
    expect(
      (await call(t, "DELETE", `/api/v1/analytics/alerts/rules/${id}`, { token: stranger.token })).statusCode,
    ).toBe(404);
    expect((await call(t, "GET", "/api/v1/analytics/alerts/rules", { token: stranger.token })).json()).toEqual([]);
  }, 120_000);
});
