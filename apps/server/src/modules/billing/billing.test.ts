import {
  BillingUsage,
  CallLog,
  MINUTES_RUNNING_OUT_WARNING,
  PRICE_TABLE,
  TTS_CHARACTERS_PER_PRICED_MINUTE,
  type UsageComponent,
} from "@parley/contract";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, signedInUser } from "../../../test/harness.ts";
import { callerFirstAssistant } from "../../../test/support/assistant-fields.ts";
import { createAssistant, roomToken, startRoom } from "../../../test/support/calls.ts";
import { recordPastCall } from "../../../test/support/past-calls.ts";
import { closedCallLog, connectRealtime, joinCall, useCallApp } from "../../../test/support/realtime-calls.ts";
import { until } from "../../../test/support/until.ts";
import { minutesUsedUpText } from "../calls/minutes-allowance.ts";
import { saveQuota } from "../users/limits.ts";
import { recordUsage } from "./metering.ts";
import { minuteGrants, usageRecords } from "./schema.ts";

/** Issue 17: calls are metered per component and held to the plan's monthly minutes. */

const t = useCallApp(() => ({ text: "Noted." }));

type User = Awaited<ReturnType<typeof signedInUser>>;

const scriptedModel = () => ({ llm_provider_config: { model: "scripted", base_url: t.llm.baseUrl } });

async function usage(user: User, query = "") {
  const res = await call(t, "GET", `/api/v1/billing/usage${query}`, { token: user.token });
  expect(res.statusCode, res.body).toBe(200);
  return BillingUsage.parse(res.json());
}

const quota = (
  user: User,
  minutesPerMonth: number,
  more: Partial<{ maxAssistants: number; maxWorkspaces: number }> = {},
) =>
  saveQuota(t.ctx.db, user.user.id, {
    maxAssistants: more.maxAssistants ?? 10,
    minutesPerMonth,
    concurrentCalls: 5,
    maxWorkspaces: more.maxWorkspaces ?? 3,
    updatedAt: new Date(),
  });

describe("metering", () => {
  it("records a call's model tokens, transcriber minutes and voice characters at the price table's prices", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, {
      ...scriptedModel(),
      first_speaker: "assistant",
      first_message: "Hello there.",
    });
    const before = t.llm.requests.length;
    const { client, callId } = await joinCall(t, user.token, agent);
    await client.waitFor("ready");
    client.send({ type: "text", text: "Hi" });
    await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true && m.text === "Noted.");
    client.send({ type: "hangup" });
    await client.closed;
    const log = await closedCallLog(t, user.token, callId);
    const requests = t.llm.requests.length - before;
    expect(requests).toBeGreaterThan(0);

    const byComponent = new Map((CallLog.parse(log).cost_breakdown?.usage ?? []).map((line) => [line.component, line]));
    const lineOf = (component: UsageComponent) => {
      const line = byComponent.get(component);
      if (!line) throw new Error(`no ${component} line`);
      return line;
    };
    const lines = {
      llm_input: lineOf("llm_input"),
      llm_output: lineOf("llm_output"),
      stt: lineOf("stt"),
      tts: lineOf("tts"),
    };
    // The scripted model reports 10 input and 5 output tokens per request.
    expect(lines.llm_input).toMatchObject({ provider: "openai-compatible", quantity: 10 * requests, unit: "token" });
    expect(lines.llm_output).toMatchObject({ quantity: 5 * requests });
    expect(lines.llm_input.unit_price).toBe(PRICE_TABLE.llm["openai-compatible"].default.input / 1e6);
    // Both sentences the voice said, character for character.
    expect(lines.tts).toMatchObject({
      provider: "local",
      unit: "character",
      quantity: "Hello there.".length + "Noted.".length,
    });
    expect(lines.tts.unit_price).toBe(PRICE_TABLE.tts.local.default / TTS_CHARACTERS_PER_PRICED_MINUTE);
    // The log keeps seconds to the hundredth; the line, minutes to the millionth.
    expect(lines.stt.quantity).toBeCloseTo(log.duration_seconds / 60, 3);
    expect(byComponent.has("telephony")).toBe(false);

    // The ended call is metered into the workspace's month (it counts from its log until then).
    const month = await until(
      () => usage(user),
      (u) => u.calls === 1 && u.by_component.length > 0,
      "the call's usage rows",
    );
    expect(month.minutes).toBeCloseTo(log.duration_seconds / 60, 4);
    expect(month.by_assistant).toEqual([
      expect.objectContaining({ agent_id: agent, agent_name: "Front desk", calls: 1 }),
    ]);
    expect(month.by_component.find((c) => c.component === "llm_input")?.quantity).toBe(10 * requests);
    expect(month.daily).toHaveLength(1);
    expect(month.periods[0]).toMatchObject({ period: month.period, calls: 1 });
  });

  it("writes a call's rows once, however often it is metered", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, scriptedModel());
    const callLog = {
      id: crypto.randomUUID(),
      agent_id: agent,
      agent_name: "Front desk",
      channel: "phone" as const,
      started_at: "2026-03-14T10:00:00.000Z",
      duration_seconds: 120,
      cost_breakdown: {
        usage: [
          {
            component: "stt" as const,
            provider: "deepgram",
            model: "nova-3",
            unit: "minute" as const,
            quantity: 2,
            unit_price: 0.0077,
            cost: 0.0154,
          },
          {
            component: "telephony" as const,
            provider: "carrier",
            model: "pstn",
            unit: "minute" as const,
            quantity: 2,
            unit_price: 0.014,
            cost: 0.028,
          },
        ],
      },
    };
    // A partial call log is all recordUsage reads.
    const asLog = callLog as unknown as Parameters<typeof recordUsage>[2];
    await recordUsage(t.ctx.db, user.workspaceId, asLog);
    await recordUsage(t.ctx.db, user.workspaceId, asLog);
    const rows = await t.ctx.db.select().from(usageRecords).where(eq(usageRecords.callId, callLog.id));
    expect(rows).toHaveLength(2);
    const march = await usage(user, "?period=2026-03");
    expect(march).toMatchObject({ calls: 1, minutes: 2, cost: 0.0434, plan: null });
    expect(march.daily).toEqual([{ day: "2026-03-14", calls: 1, minutes: 2, cost: 0.0434 }]);

    // Another workspace sees none of it.
    const stranger = await signedInUser(t);
    expect((await usage(stranger, "?period=2026-03")).calls).toBe(0);

    const csv = await call(t, "GET", "/api/v1/billing/statements/2026-03?format=csv", { token: user.token });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-disposition"]).toBe('attachment; filename="statement-2026-03.csv"');
    expect(csv.body.split("\r\n")).toEqual([
      "period,component,description,provider,model,unit,quantity,unit_price_usd,cost_usd",
      "2026-03,stt,Transcriber minutes,deepgram,nova-3,minute,2,0.0077,0.015400",
      "2026-03,telephony,Telephony minutes,carrier,pstn,minute,2,0.014,0.028000",
      "2026-03,total,Total,,,,,,0.043400",
      "",
    ]);
    const pdf = await call(t, "GET", "/api/v1/billing/statements/2026-03?format=pdf", { token: user.token });
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    const text = pdf.rawPayload.toString("latin1");
    expect(text.startsWith("%PDF-1.4")).toBe(true);
    expect(text).toContain("(Transcriber minutes) Tj");
    expect(text).toContain("($0.0434) Tj");
    expect(text).toContain("(Period: 2026-03-01 to 2026-03-31 \\(UTC\\)) Tj");
    expect(text.trimEnd().endsWith("%%EOF")).toBe(true);
  });
});

describe("minutes per month", () => {
  /** A user whose plan allows `minutesPerMonth`, with an assistant that waits for the caller to speak. */
  async function userOnPlan(minutesPerMonth: number, fields: Record<string, unknown> = {}) {
    const user = await signedInUser(t);
    await quota(user, minutesPerMonth);
    const agent = await createAssistant(t, user.token, {
      ...callerFirstAssistant("Front desk", t.llm.baseUrl),
      ...fields,
    });
    return { user, agent };
  }

  it("gives two calls in parallel only what is left, between them, and refuses a third", async () => {
    const { user, agent } = await userOnPlan(2, { max_call_duration: 90 });
    const first = await joinCall(t, user.token, agent);
    await first.client.waitFor("ready");
    const second = await joinCall(t, user.token, agent);
    await second.client.waitFor("ready");
    const grants = await t.ctx.db.select().from(minuteGrants).where(eq(minuteGrants.workspaceId, user.workspaceId));
    expect(grants.map((g) => g.seconds).sort((a, b) => b - a)).toEqual([90, 30]);

    const refused = await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: user.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: minutesUsedUpText(2) });

    // Ending a call frees its grant: only its real minutes count then.
    first.client.send({ type: "hangup" });
    await first.client.closed;
    await closedCallLog(t, user.token, first.callId);
    await until(
      () => t.ctx.db.select().from(minuteGrants).where(eq(minuteGrants.callId, first.callId)),
      (rows) => rows.length === 0,
      "the first call's grant to be freed",
    );
    const again = await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: user.token });
    expect(again.statusCode, again.body).toBe(201);
    second.client.send({ type: "hangup" });
    await second.client.closed;
  });

  it("ends a call at the minutes left, after saying that they are running out", async () => {
    const { user, agent } = await userOnPlan(1);
    await recordPastCall(t, user.workspaceId, agent, 45);
    const { client, callId } = await joinCall(t, user.token, agent);
    await client.waitFor("ready");
    await client.waitFor("transcript", (m) => m.role === "assistant" && m.text === MINUTES_RUNNING_OUT_WARNING);
    const log = await closedCallLog(t, user.token, callId);
    expect(log.end_reason).toBe("max_duration");
    expect(log.duration_seconds).toBeLessThan(30);
  });

  it("refuses a caller who joins once another call has taken what was left", async () => {
    const { user, agent } = await userOnPlan(1, { max_call_duration: 60 });
    // Both rooms are created while the minute is free; the first caller to join takes it.
    const a = await startRoom(t, user.token, agent);
    const b = await startRoom(t, user.token, agent);
    const connect = async (room: string) => connectRealtime(t, await roomToken(t, user.token, room));
    const first = await connect(a.room);
    await first.waitFor("ready");
    const second = await connect(b.room);
    const error = await second.waitFor("error");
    expect(error.message).toBe(minutesUsedUpText(1));
    first.send({ type: "hangup" });
    await first.closed;
  });
});

describe("plan limits on assistants and workspaces", () => {
  it("refuses an assistant beyond the plan's count", async () => {
    const user = await signedInUser(t);
    await quota(user, 100, { maxAssistants: 1 });
    await createAssistant(t, user.token, scriptedModel());
    const refused = await call(t, "POST", "/api/v1/agents", { token: user.token, body: { name: "Second" } });
    expect(refused.statusCode).toBe(403);
  });

  it("refuses a workspace beyond the plan's count", async () => {
    const user = await signedInUser(t);
    await quota(user, 100, { maxWorkspaces: 1 });
    const refused = await call(t, "POST", "/api/v1/workspaces", { token: user.token, body: { name: "Second" } });
    expect(refused.statusCode).toBe(403);
  });
});

describe("the billing page's data", () => {
  it("shows the plan's limits and use this month", async () => {
    const user = await signedInUser(t);
    await quota(user, 100, { maxAssistants: 4 });
    const agent = await createAssistant(t, user.token, scriptedModel());
    await recordPastCall(t, user.workspaceId, agent, 90);
    const month = await usage(user);
    expect(month.plan).toMatchObject({
      source: "enterprise",
      tier_name: null,
      limits: { minutes_per_month: 100, max_assistants: 4 },
      minutes_used: 1.5,
      assistants_used: 1,
      workspaces_used: 1,
    });
  });

  it("answers 422 for a period that is not a month", async () => {
    const user = await signedInUser(t);
    const res = await call(t, "GET", "/api/v1/billing/statements/2026-13?format=csv", { token: user.token });
    expect(res.statusCode).toBe(422);
  });
});
