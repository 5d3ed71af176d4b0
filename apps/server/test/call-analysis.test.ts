import { createServer } from "node:http";
import { CallLog, CallLogPage } from "@parley/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usageRecords } from "../src/modules/billing/schema.ts";
import { call, signedInUser } from "./harness.ts";
import { createAssistant, roomToken, startRoom } from "./support/calls.ts";
import { type LoopbackServer, listenOnLoopback, startReceiver } from "./support/loopback.ts";
import { APP_ORIGIN, connectRealtime, joinCall, useCallApp } from "./support/realtime-calls.ts";
import type { ChatRequestBody, ModelScript } from "./support/scripted-llm.ts";

/** Post-call analysis over a real call: the assistant's own (scripted) model analyses what was said. */

/** A model endpoint that refuses every key (401): retrying cannot help. */
let refusing: LoopbackServer;
/** The workspace's webhook receiver. */
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const systemOf = (request: ChatRequestBody) => request.messages.find((m) => m.role === "system")?.content ?? "";

/** The model: takes a booking during the call, then answers each analysis task the way a model would. */
const script: ModelScript = (request) => {
  const system = systemOf(request);
  if (system.startsWith("You analyse a finished phone call")) return { text: "Ada booked a table for four on Friday." };
  if (system.startsWith("You evaluate whether")) {
    return { text: '{"verdict": "pass", "reason": "The caller got the table she asked for."}' };
  }
  if (system.startsWith("You extract structured data")) {
    // The first answer misses a required field; the correction shows the model what to fix.
    const corrected = request.messages.some((m) => m.role === "user" && m.content?.includes("is not valid"));
    return { text: corrected ? '{"name": "Ada", "party_size": 4, "day": "friday"}' : '{"party_size": 4}' };
  }
  return { text: "Your table for four on Friday is booked." };
};

const t = useCallApp(script);

beforeAll(async () => {
  refusing = await listenOnLoopback(
    createServer((_req, res) => {
      res.writeHead(401, { "content-type": "application/json" }).end('{"error":{"message":"Incorrect API key"}}');
    }),
  );
  receiver = await startReceiver((_request, res) => res.writeHead(200).end("ok"));
});
afterAll(async () => {
  await refusing?.close();
  await receiver?.close();
});

const ANALYSIS = {
  summary: { enabled: true, prompt: "Say who booked and for how many." },
  success_evaluation: { enabled: true, rubric: "A table was booked for the caller.", scale: "pass_fail" },
  structured_data: {
    enabled: true,
    prompt: "",
    schema: {
      type: "object",
      properties: {
        name: { type: "string", description: "The caller's name" },
        party_size: { type: "integer" },
        day: { type: "string", enum: ["friday", "saturday"] },
      },
      required: ["name", "party_size"],
    },
  },
};

const booking = (baseUrl: string, analysis: unknown) => ({
  name: "Bookings",
  first_message: "Bella Cucina, how can I help?",
  llm_provider_config: { model: "scripted", base_url: baseUrl },
  ...(analysis ? { analysis } : {}),
});

/** One short call: the caller asks for a table, the assistant books it, the caller hangs up. */
async function holdCall(token: string, agentId: string): Promise<string> {
  const { client, callId } = await joinCall(t, token, agentId, { origin: APP_ORIGIN });
  await client.waitFor("ready");
  client.send({ type: "text", text: "A table for four on Friday please, my name is Ada." });
  await client.waitFor(
    "transcript",
    (m) => m.role === "assistant" && m.final === true && /booked/.test(String(m.text)),
  );
  client.send({ type: "hangup" });
  await client.closed;
  return callId;
}

/** The call's log once its analysis is final (the job runs in the background). */
async function analysedLog(token: string, callId: string): Promise<CallLog> {
  for (let i = 0; i < 300; i += 1) {
    const res = await call(t, "GET", `/api/v1/call-logs/${callId}`, { token });
    const log = CallLog.parse(res.json());
    if (log.analysis && log.analysis.status !== "pending") return log;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the call was never analysed");
}

async function listIds(token: string, query: string): Promise<string[]> {
  const res = await call(t, "GET", `/api/v1/call-logs?${query}`, { token });
  expect(res.statusCode).toBe(200);
  return CallLogPage.parse(res.json()).data.map((c) => c.id);
}

describe("post-call analysis", () => {
  it("writes a summary, a success verdict and extracted data on the call log, filterable by verdict", async () => {
    const a = await signedInUser(t);
    const hook = await call(t, "POST", "/api/v1/webhooks", {
      token: a.token,
      body: { url: `${receiver.origin}/hooks`, events: ["call.ended"] },
    });
    expect(hook.statusCode).toBe(201);
    const agent = await createAssistant(t, a.token, booking(t.llm.baseUrl, ANALYSIS));
    const callId = await holdCall(a.token, agent);

    const log = await analysedLog(a.token, callId);
    expect(log.analysis).toEqual({
      status: "done",
      summary: "Ada booked a table for four on Friday.",
      success: { scale: "pass_fail", verdict: "pass", passed: true, reason: "The caller got the table she asked for." },
      structured_data: { name: "Ada", party_size: 4, day: "friday" },
      error: null,
      completed_at: expect.any(String),
    });
    // The analysis read the call's transcript with the user's own instructions.
    const summaryRequest = t.llm.requests.find((r) => systemOf(r).includes("Say who booked and for how many."));
    expect(summaryRequest?.messages.at(-1)?.content).toContain("Caller: A table for four on Friday please");

    expect(await listIds(a.token, "success=pass")).toEqual([callId]);
    expect(await listIds(a.token, "success=fail")).toEqual([]);
    expect(await listIds(a.token, "analysis_status=done")).toEqual([callId]);
    expect(await listIds(a.token, "analysis_status=failed")).toEqual([]);
    expect((await call(t, "GET", "/api/v1/call-logs?success=maybe", { token: a.token })).statusCode).toBe(422);

    // The analysis's tokens are the call's: every request this model got (the call's reply and the
    // analysis's four) reported 10 input and 5 output tokens, all on the call's model lines.
    const line = (component: string) => log.cost_breakdown?.usage?.find((l) => l.component === component);
    expect(line("llm_input")?.quantity).toBe(10 * t.llm.requests.length);
    expect(line("llm_output")?.quantity).toBe(5 * t.llm.requests.length);
    expect(t.llm.requests.length).toBeGreaterThan(1);
    // The call is metered once the analysis is final: its usage rows hold the same lines.
    await expect
      .poll(
        async () =>
          (await t.ctx.db.select().from(usageRecords).where(eq(usageRecords.callId, callId)))
            .filter((row) => row.component.startsWith("llm_"))
            .map((row) => [row.component, row.quantity, row.cost])
            .sort(),
        { timeout: 20_000 },
      )
      .toEqual([
        ["llm_input", line("llm_input")?.quantity, line("llm_input")?.cost],
        ["llm_output", line("llm_output")?.quantity, line("llm_output")?.cost],
      ]);

    // call.ended waited for the analysis and carries it (one delivery, never an early one without it).
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
    const sent = JSON.parse(receiver.received[0]?.body ?? "{}");
    expect(sent).toMatchObject({
      type: "call.ended",
      data: { call: { id: callId, analysis: log.analysis, cost: log.cost } },
    });
  });

  it("leaves calls of assistants without analysis unanalysed", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, booking(t.llm.baseUrl, null));
    const callId = await holdCall(a.token, agent);
    const asked = t.llm.requests.length;
    // Half a second is long enough for the call.ended listener to have enqueued an analysis.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const log = CallLog.parse((await call(t, "GET", `/api/v1/call-logs/${callId}`, { token: a.token })).json());
    expect(log.analysis).toBeNull();
    expect(t.llm.requests.length).toBe(asked);
  });

  it("records a failed analysis at once when the model refuses the key", async () => {
    const a = await signedInUser(t);
    // The call itself talks to the scripted model; the assistant then moves to a model that refuses.
    const agent = await createAssistant(t, a.token, booking(t.llm.baseUrl, ANALYSIS));
    const { room, callId } = await startRoom(t, a.token, agent);
    const moved = await call(t, "PATCH", `/api/v1/agents/${agent}`, {
      token: a.token,
      body: { llm_provider_config: { model: "scripted", base_url: `${refusing.origin}/v1` } },
    });
    expect(moved.statusCode).toBe(200);
    const client = await connectRealtime(t, await roomToken(t, a.token, room), { origin: APP_ORIGIN });
    await client.waitFor("ready");
    await client.waitFor("transcript", (m) => m.role === "assistant" && m.final === true);
    client.send({ type: "hangup" });
    await client.closed;

    const log = await analysedLog(a.token, callId);
    expect(log.analysis).toMatchObject({ status: "failed", summary: null, success: null, structured_data: null });
    expect(log.analysis?.error).toMatch(/^The model could not analyse the call: .*401/);
    expect(await listIds(a.token, "analysis_status=failed")).toEqual([callId]);
  });

  it("refuses an extraction schema outside the supported subset, naming the property", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, booking(t.llm.baseUrl, null));
    const res = await call(t, "PATCH", `/api/v1/agents/${agent}`, {
      token: a.token,
      body: {
        analysis: {
          structured_data: { enabled: true, schema: { type: "object", properties: { when: { type: "date" } } } },
        },
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toContainEqual({
      field: "analysis.structured_data.schema.properties.when.type",
      message: expect.stringMatching(/^Type must be one of/),
    });
    const saved = await call(t, "PATCH", `/api/v1/agents/${agent}`, { token: a.token, body: { analysis: ANALYSIS } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().analysis).toEqual(ANALYSIS);
  });

  it("reads assistants saved before analysis existed as analysis off, and ends their calls unanalysed", async () => {
    const a = await signedInUser(t);
    const agent = await createAssistant(t, a.token, booking(t.llm.baseUrl, null));
    await t.ctx.db.execute(sql`update agents set config = config - 'analysis' where id = ${agent}`);
    const res = await call(t, "GET", `/api/v1/agents/${agent}`, { token: a.token });
    expect(res.statusCode).toBe(200);
    const listed = await call(t, "GET", "/api/v1/agents", { token: a.token });
    expect(listed.statusCode).toBe(200);
    const callId = await holdCall(a.token, agent);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const log = CallLog.parse((await call(t, "GET", `/api/v1/call-logs/${callId}`, { token: a.token })).json());
    expect(log.analysis).toBeNull();
  });
});
