import type { CallLog } from "@parley/contract";
import { callerSpeech } from "@parley/engine/testing/telephony/audio-checks";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/jobs/schema.ts";
import { tracingOf } from "../src/lib/tracing/tracing.ts";
import { call, signedInUser } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant, startWebhook } from "./support/calls.ts";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./support/otlp-receiver.ts";
import { type CallApp, closedCallLog, joinCall, startCallApp } from "./support/realtime-calls.ts";
import type { RealtimeClient } from "./support/realtime-client.ts";
import { lastUserText } from "./support/scripted-llm.ts";
import { until } from "./support/until.ts";

/**
 * Issue 27's trace acceptance: with an OTLP endpoint set, one call is one trace whose turn spans
 * last what the call log stores for each turn (within 50 ms), and each job attempt is a span.
 */

const COLLECTOR_KEY = "collector-key-for-tests";
/** The acceptance's bound between a span's duration and the stored figure. */
const WITHIN_MS = 50;

let receiver: OtlpReceiver;
let webhook: Awaited<ReturnType<typeof startWebhook>>;
let t: CallApp;

/** Starts the app with the OTEL_* variables set, as an operator would (they are read from the environment). */
async function withTracingEnv<T>(env: Record<string, string>, start: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await start();
  } finally {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  webhook = await startWebhook({ hours: "9am to 5pm" });
  t = await withTracingEnv(
    { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.origin, OTEL_EXPORTER_OTLP_HEADERS: `x-collector-key=${COLLECTOR_KEY}` },
    () =>
      // The spoken turn gets a spoken answer; the typed one about Monday has the model call the
      // function first, then answer.
      startCallApp((request) =>
        request.messages.at(-1)?.role === "tool"
          ? { text: "We open at nine in the morning." }
          : /monday/i.test(lastUserText(request))
            ? { toolCall: { name: "check_hours", arguments: '{"day":"monday"}' } }
            : { text: "Happy to help with that." },
      ),
  );
}, 180_000);

afterAll(async () => {
  await t?.close();
  await webhook?.close();
  await receiver?.close();
});

async function assignHoursFunction(token: string, agentId: string) {
  const created = await call(t, "POST", "/api/v1/functions", {
    token,
    body: {
      name: "check_hours",
      description: "Opening hours for a day of the week",
      url: webhook.url,
      parameters: { type: "object", properties: { day: { type: "string" } } },
    },
  });
  expect(created.statusCode).toBe(201);
  const assigned = await call(t, "POST", "/api/v1/functions/assign", {
    token,
    body: { agent_id: agentId, function_id: created.json().id },
  });
  expect(assigned.statusCode).toBeLessThan(300);
}

const lastState = (client: RealtimeClient) => client.messages.filter((m) => m.type === "state").at(-1)?.state;

/**
 * A microphone: the caller's line as 20 ms frames at the pace they were spoken, then silence, as a
 * browser keeps sending; stopped when the test is done with it.
 */
function speak(client: RealtimeClient, line: string): { stop(): void } {
  const speech = callerSpeech(line);
  const silence = new Int16Array(320);
  const started = performance.now();
  let sent = 0;
  const timer = setInterval(() => {
    const due = Math.floor((performance.now() - started) / 20);
    for (; sent <= due; sent += 1) {
      const from = sent * 320;
      client.sendPcm(from + 320 <= speech.length ? speech.subarray(from, from + 320) : silence);
    }
  }, 10);
  return { stop: () => clearInterval(timer) };
}

const figureOf = (entry: CallLog["turn_metrics"][number], metric: string) =>
  (entry as unknown as Record<string, number | null>)[metric];

describe("traces over OTLP", () => {
  it("exports one trace per call whose turn spans last what the call log stores", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, { ...keylessAssistant(t.llm.baseUrl), first_message: "Hello." });
    await assignHoursFunction(a.token, agent);
    const { client, callId } = await joinCall(t, a.token, agent);
    await client.waitFor("ready");
    await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true);
    await client.until(() => lastState(client) === "listening", "the greeting to end");

    const microphone = speak(client, "What are your opening hours?");
    try {
      await client.waitFor("turn_metrics", (m) => m.stt_ms !== null && m.voice_to_voice_ms !== null, 60_000);
      await client.until(() => lastState(client) === "listening", "the answer to end", 60_000);
      client.send({ type: "text", text: "And on Monday?" });
      await client.waitFor("tool_call", (m) => m.name === "check_hours", 60_000);
      await client.waitFor("transcript", (m) => m.role === "assistant" && /nine/.test(String(m.text)), 60_000);
      await client.until(() => client.messages.filter((m) => m.type === "turn_metrics").length >= 2, "the second turn");
    } finally {
      microphone.stop();
    }
    client.send({ type: "hangup" });
    await client.closed;
    const log = await closedCallLog(t, a.token, callId);
    await tracingOf(t.config).flush();

    const root = await until(
      async () => receiver.spans.filter((s) => s.name === "call" && s.attributes["parley.call_id"] === callId),
      (roots) => roots.length > 0,
      "the call's span at the collector",
    );
    expect(root).toHaveLength(1);
    const callSpan = root[0] as ReceivedSpan;
    expect(callSpan.parentSpanId).toBeUndefined();
    expect(callSpan.resource["service.name"]).toBe("parley");
    expect(callSpan.attributes).toMatchObject({
      "parley.workspace_id": a.workspaceId,
      "parley.agent_id": agent,
      "parley.channel": log.channel,
      "parley.call.end_reason": log.end_reason,
      "parley.call.status": log.status,
    });
    expect(receiver.exports.every((headers) => headers["x-collector-key"] === COLLECTOR_KEY)).toBe(true);

    // Every turn span is in the call's one trace, one per stored turn.
    const inTrace = receiver.spans.filter((s) => s.traceId === callSpan.traceId);
    const turns = receiver.spans.filter((s) => /^turn \d+$/.test(s.name));
    expect(turns.every((s) => s.traceId === callSpan.traceId && s.parentSpanId === callSpan.spanId)).toBe(true);
    expect(turns.map((s) => s.name).sort()).toEqual(log.turn_metrics.map((m) => `turn ${m.turn}`).sort());
    // The spoken turn has every part, the typed one no recognition.
    expect(log.turn_metrics).toContainEqual(
      expect.objectContaining({
        stt_ms: expect.any(Number),
        end_of_turn_wait_ms: expect.any(Number),
        llm_ttft_ms: expect.any(Number),
        tts_ttfb_ms: expect.any(Number),
        voice_to_voice_ms: expect.any(Number),
      }),
    );
    expect(log.turn_metrics).toContainEqual(
      expect.objectContaining({ stt_ms: null, voice_to_voice_ms: expect.any(Number) }),
    );

    for (const stored of log.turn_metrics) {
      const turn = turns.find((s) => s.name === `turn ${stored.turn}`) as ReceivedSpan;
      if (stored.voice_to_voice_ms !== null)
        expect(Math.abs(turn.durationMs - stored.voice_to_voice_ms), `turn ${stored.turn}`).toBeLessThanOrEqual(
          WITHIN_MS,
        );
      const parts = inTrace.filter((s) => s.parentSpanId === turn.spanId);
      for (const metric of ["stt_ms", "end_of_turn_wait_ms", "llm_ttft_ms", "tts_ttfb_ms"]) {
        const figure = figureOf(stored, metric);
        const part = parts.find((s) => s.attributes["parley.metric"] === metric);
        if (figure === null || figure === undefined) {
          expect(part, `turn ${stored.turn} ${metric}`).toBeUndefined();
          continue;
        }
        expect(part, `turn ${stored.turn} ${metric}`).toBeDefined();
        expect(
          Math.abs((part as ReceivedSpan).durationMs - figure),
          `turn ${stored.turn} ${metric}`,
        ).toBeLessThanOrEqual(WITHIN_MS);
        // Each part lies within its turn.
        expect((part as ReceivedSpan).startMs).toBeGreaterThanOrEqual(turn.startMs - WITHIN_MS);
        expect((part as ReceivedSpan).endMs).toBeLessThanOrEqual(turn.endMs + WITHIN_MS);
      }
    }

    const tool = inTrace.find((s) => s.name === "tool check_hours");
    const stored = log.tool_calls.find((c) => c.name === "check_hours");
    expect(tool?.parentSpanId).toBe(callSpan.spanId);
    expect(tool?.attributes).toMatchObject({ "parley.tool.name": "check_hours", "parley.tool.ok": true });
    expect(Math.abs((tool?.durationMs ?? Number.NaN) - (stored?.duration_ms ?? Number.NaN))).toBeLessThanOrEqual(
      WITHIN_MS,
    );
  }, 180_000);

  it("exports a span per job attempt with its outcome", async () => {
    const workspaceId = "8a0c7c3e-6f4e-4c55-9d0b-1f2a3b4c5d6e";
    t.app.jobs.register("tracing.probe", async () => undefined);
    t.app.jobs.register("tracing.broken", async () => {
      throw new Error("the probe failed with token sk-abcdefghijklmnopqrstu");
    });
    const done = await t.app.jobs.enqueue(t.ctx.db, "tracing.probe", { workspaceId });
    const broken = await t.app.jobs.enqueue(t.ctx.db, "tracing.broken", { workspaceId }, { maxAttempts: 1 });
    for (const [job, status] of [
      [done, "done"],
      [broken, "failed"],
    ] as const) {
      await until(
        async () => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, job.id)))[0]?.status,
        (s) => s === status,
        `job ${job.queue} to be ${status}`,
      );
    }
    await tracingOf(t.config).flush();

    const spanOf = (id: string) =>
      until(
        async () => receiver.spans.find((s) => s.attributes["parley.job.id"] === id),
        (span) => span !== undefined,
        `the span of job ${id}`,
      ) as Promise<ReceivedSpan>;
    const ok = await spanOf(done.id);
    expect(ok).toMatchObject({ name: "job tracing.probe", parentSpanId: undefined, status: { code: 0 } });
    expect(ok.attributes).toMatchObject({
      "parley.job.name": "tracing.probe",
      "parley.job.attempt": 1,
      "parley.job.outcome": "done",
      "parley.workspace_id": workspaceId,
    });
    const failed = await spanOf(broken.id);
    expect(failed).toMatchObject({ name: "job tracing.broken", status: { code: 2 } });
    expect(failed.attributes).toMatchObject({ "parley.job.outcome": "failed", "parley.job.attempt": 1 });
    expect(String(failed.attributes["parley.job.error"])).toContain("the probe failed");
    expect(String(failed.attributes["parley.job.error"])).not.toContain("sk-abcdefghijklmnopqrstu");
  }, 120_000);
});
