import type { AddressInfo } from "node:net";
import {
  BillingUsage,
  CallLog,
  MINUTES_RUNNING_OUT_WARNING,
  PRICE_TABLE,
  TTS_CHARACTERS_PER_PRICED_MINUTE,
  type UsageComponent,
} from "@parley/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, signedInUser, type TestApp } from "../../../test/harness.ts";
import { createAssistant, roomToken, startRoom } from "../../../test/support/calls.ts";
import { RealtimeClient } from "../../../test/support/realtime-client.ts";
import { type ScriptedLlm, startScriptedLlm } from "../../../test/support/scripted-llm.ts";
import { createCallLog, finishCallLog } from "../call-logs/service.ts";
import { minutesUsedUpText } from "../calls/minutes-allowance.ts";
import { saveQuota } from "../users/limits.ts";
import { recordUsage } from "./metering.ts";
import { minuteGrants, usageRecords } from "./schema.ts";

/** Issue 17: calls are metered per component and held to the plan's monthly minutes. */

let t: TestApp;
let wsBase: string;
let llm: ScriptedLlm;

beforeAll(async () => {
  llm = await startScriptedLlm(() => ({ text: "Noted." }));
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  wsBase = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/realtime`;
});
afterAll(async () => {
  await t.close();
  await llm.close();
});

type User = Awaited<ReturnType<typeof signedInUser>>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const scriptedModel = () => ({
  llm_provider: "openai-compatible",
  llm_provider_config: { model: "scripted", base_url: llm.baseUrl },
});

async function join(user: User, agent: string) {
  const { room, callId } = await startRoom(t, user.token, agent);
  const token = await roomToken(t, user.token, room);
  const client = await RealtimeClient.connect(`${wsBase}?token=${encodeURIComponent(token)}`);
  return { client, callId };
}

async function finishedLog(token: string, callId: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const log = (await call(t, "GET", `/api/v1/call-logs/${callId}`, { token })).json();
    if (log.status === "completed" || log.status === "failed") return log;
    await sleep(100);
  }
  throw new Error("the call log was not closed");
}

async function usage(user: User, query = "") {
  const res = await call(t, "GET", `/api/v1/billing/usage${query}`, { token: user.token });
  expect(res.statusCode, res.body).toBe(200);
  return BillingUsage.parse(res.json());
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
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

/** A call of `seconds` the plan has already used this month. */
async function pastCall(user: User, agent: string, seconds: number) {
  const tenant = { workspaceId: user.workspaceId };
  const log = await createCallLog(t.ctx.db, tenant, {
    agentId: agent,
    agentName: "A",
    channel: "web",
    direction: "inbound",
  });
  await finishCallLog(t.ctx.db, tenant, log.id, {
    status: "completed",
    endReason: "caller_hangup",
    endedAt: new Date(),
    durationSeconds: seconds,
    cost: 0,
    costBreakdown: null,
    transcript: [],
    toolCalls: [],
    turnMetrics: [],
    events: [],
    recordingPath: null,
  });
}

describe("metering", () => {
  it("records a call's model tokens, transcriber minutes and voice characters at the price table's prices", async () => {
    const user = await signedInUser(t);
    const agent = await createAssistant(t, user.token, {
      ...scriptedModel(),
      first_speaker: "assistant",
      first_message: "Hello there.",
    });
    const before = llm.requests.length;
    const { client, callId } = await join(user, agent);
    await client.waitFor("ready");
    client.send({ type: "text", text: "Hi" });
    await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true && m.text === "Noted.");
    client.send({ type: "hangup" });
    await client.closed;
    const log = await finishedLog(user.token, callId);
    const requests = llm.requests.length - before;
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

    // The ended call is metered into the workspace's month.
    const month = await until(
      () => usage(user),
      (u) => u.calls === 1,
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
    // biome-ignore lint/suspicious/noExplicitAny: a partial call log is all recordUsage reads.
    const asLog = callLog as any;
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
  it("gives two calls in parallel only what is left, between them, and refuses a third", async () => {
    const user = await signedInUser(t);
    await quota(user, 2);
    const agent = await createAssistant(t, user.token, {
      ...scriptedModel(),
      first_message: "",
      first_speaker: "user",
      max_call_duration: 90,
    });
    const first = await join(user, agent);
    await first.client.waitFor("ready");
    const second = await join(user, agent);
    await second.client.waitFor("ready");
    const grants = await t.ctx.db.select().from(minuteGrants).where(eq(minuteGrants.workspaceId, user.workspaceId));
    expect(grants.map((g) => g.seconds).sort((a, b) => b - a)).toEqual([90, 30]);

    const refused = await call(t, "POST", `/api/v1/agents/${agent}/call`, { token: user.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: minutesUsedUpText(2) });

    // Ending a call frees its grant: only its real minutes count then.
    first.client.send({ type: "hangup" });
    await first.client.closed;
    await finishedLog(user.token, first.callId);
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
    const user = await signedInUser(t);
    await quota(user, 1);
    const agent = await createAssistant(t, user.token, {
      ...scriptedModel(),
      first_message: "",
      first_speaker: "user",
    });
    await pastCall(user, agent, 56);
    const { client, callId } = await join(user, agent);
    await client.waitFor("ready");
    await client.waitFor("transcript", (m) => m.role === "assistant" && m.text === MINUTES_RUNNING_OUT_WARNING);
    const log = await finishedLog(user.token, callId);
    expect(log.end_reason).toBe("max_duration");
    expect(log.duration_seconds).toBeLessThan(30);
  });

  it("refuses a caller who joins once another call has taken what was left", async () => {
    const user = await signedInUser(t);
    await quota(user, 1);
    const agent = await createAssistant(t, user.token, {
      ...scriptedModel(),
      first_message: "",
      first_speaker: "user",
      max_call_duration: 60,
    });
    // Both rooms are created while the minute is free; the first caller to join takes it.
    const a = await startRoom(t, user.token, agent);
    const b = await startRoom(t, user.token, agent);
    const connect = async (room: string) =>
      RealtimeClient.connect(`${wsBase}?token=${encodeURIComponent(await roomToken(t, user.token, room))}`);
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
    await pastCall(user, agent, 90);
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
