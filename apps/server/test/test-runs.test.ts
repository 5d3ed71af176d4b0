import { randomUUID } from "node:crypto";
import {
  type CallLog,
  type CreateTestCaseBody,
  type Expectation,
  SimulatedCaller,
  type TestResult,
} from "@parley/contract";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { JobRow } from "../src/jobs/schema.ts";
import { AppError } from "../src/lib/app-error.ts";
import type { Room } from "../src/lib/call-runtime.ts";
import { giveUpTestRun, runTestRunJob } from "../src/modules/test-suites/run-job.ts";
import { testRuns } from "../src/modules/test-suites/schema.ts";
import { workspaces } from "../src/modules/workspaces/schema.ts";
import { call, signedInUser } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant } from "./support/calls.ts";
import { useCallApp } from "./support/realtime-calls.ts";
import { isJudgeRequest, testSuiteModel, UNJUDGEABLE } from "./support/test-suite-model.ts";
import {
  createSuite,
  finishedRun,
  insertRunningRun,
  RUN_TIMEOUT_MS,
  readRun,
  resultOf,
  resultRows,
  runRow,
  runWhere,
  startRun,
} from "./support/test-suite-runs.ts";
import { until } from "./support/until.ts";

/**
 * Test runs end to end: real calls on the test channel through the real engine, the simulated
 * caller speaking with the offline voice to an assistant on the offline recogniser and the scripted
 * model, which also judges the rubrics. Calls run in real time, so scripts are one line long.
 */

const t = useCallApp(
  testSuiteModel((callerSaid) =>
    /check my order/i.test(callerSaid) ? "Your order ships tomorrow." : "Your table is booked for tonight.",
  ),
);

const bistro = () => ({
  name: "Bistro",
  first_message: "Hello, this is the bistro.",
  ...keylessAssistant(t.llm.baseUrl),
});

/** One line, said once the greeting has been heard; the caller hangs up once the reply has been. */
const booking = (name: string, expectations: CreateTestCaseBody["expectations"]): CreateTestCaseBody => ({
  name,
  caller: { mode: "script", script: [{ text: "I would like a table for two tonight.", wait_ms: 300 }] },
  expectations,
});

async function callLog(token: string, callId: string | null): Promise<CallLog> {
  const res = await call(t, "GET", `/api/v1/call-logs/${callId}`, { token });
  expect(res.statusCode).toBe(200);
  return res.json<CallLog>();
}

const GREETING = "Hello and welcome to the order line. Press one for sales, or two to check on an order you made.";

const failing = (result: TestResult) => result.expectations.filter((e) => !e.passed);

describe("a test run", () => {
  it(
    "calls each case, and says which expectation failed and why: a rubric, a timing",
    async () => {
      const user = await signedInUser(t);
      const agentId = await createAssistant(t, user.token, bistro());
      const completed: string[] = [];
      const unsubscribe = t.ctx.events.on("test.run.completed", (e) => void completed.push(e.runId));
      const suiteId = await createSuite(t, user.token, { name: "Bookings", agent_id: agentId }, [
        booking("books a table", [
          { type: "rubric", rubric: 'The assistant says "booked"' },
          { type: "end_reason", reasons: ["caller_hangup"] },
          { type: "max_turns", turns: 2 },
        ]),
        booking("mentions a cancellation", [{ type: "rubric", rubric: 'The assistant says "cancelled"' }]),
        booking("answers at once", [
          { type: "rubric", rubric: 'The assistant says "booked"' },
          { type: "latency", p95_ms: 1 },
        ]),
      ]);
      const started = await startRun(t, user.token, suiteId);
      const run = await finishedRun(t, user.token, suiteId, started.id);
      unsubscribe();

      const passed = resultOf(run, "books a table");
      const log = await callLog(user.token, passed.call_id);
      const seen = JSON.stringify({ passed, transcript: log.transcript, events: log.events, end: log.end_reason });
      expect(passed.status, seen).toBe("passed");
      expect(passed.expectations.map((e) => e.label)).toEqual([
        'Rubric: The assistant says "booked"',
        "Ends as caller_hangup",
        "Over within 2 caller turns",
      ]);
      expect(passed.expectations[0]?.reason).toBe('The assistant said "booked".');
      expect(passed.expectations[0]?.evidence.transcript.some((l) => l.text.includes("booked"))).toBe(true);
      expect(passed.figures).toMatchObject({ caller_turns: 1 });
      expect(passed.figures?.latency_p95_ms).toBeGreaterThan(0);
      expect(passed.figures?.duration_seconds).toBeGreaterThan(0);

      const rubric = resultOf(run, "mentions a cancellation");
      expect(rubric.status).toBe("failed");
      expect(failing(rubric)).toMatchObject([
        {
          type: "rubric",
          label: 'Rubric: The assistant says "cancelled"',
          reason: 'The assistant never said "cancelled".',
        },
      ]);

      expect(run.status).toBe("failed");
      const timing = resultOf(run, "answers at once");
      expect(timing.status).toBe("failed");
      const [latency] = failing(timing);
      expect(failing(timing)).toHaveLength(1);
      expect(latency).toMatchObject({ type: "latency", label: "p95 latency under 1 ms" });
      expect(latency?.reason).toMatch(/^p95 \d+ ms ≥ 1 ms \(turns: \d+ ms\)\.$/);
      expect(latency?.evidence.figures.p95_ms).toBe(timing.figures?.latency_p95_ms);

      // Each result is a normal call log on the test channel, linked to the run.
      expect(log).toMatchObject({ channel: "test", test_run_id: run.id, status: "completed" });
      expect(log.end_reason).toBe("caller_hangup");
      expect(completed).toContain(run.id);
      expect(t.llm.requests.filter(isJudgeRequest)).toHaveLength(3);
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  it(
    "on a phone line, interrupts the greeting and presses 2: the call shows the key and the barge-in",
    async () => {
      const user = await signedInUser(t);
      const agentId = await createAssistant(t, user.token, {
        ...bistro(),
        first_message: GREETING,
        dtmf_enabled: true,
        dtmf_mapping: { "2": "I want to check my order" },
      });
      const suiteId = await createSuite(t, user.token, { name: "Keys", agent_id: agentId }, [
        {
          name: "presses 2 over the greeting",
          caller: {
            mode: "script",
            script: [{ text: "Hello there.", wait_ms: 0 }],
            profile: "phone",
            behaviours: { interrupts_greeting: true, interrupt_after_ms: 1000, dtmf: [{ turn: 1, digits: "2" }] },
          },
          expectations: [{ type: "rubric", rubric: 'The assistant says "ships tomorrow"' }],
        },
      ]);
      const started = await startRun(t, user.token, suiteId);
      const run = await finishedRun(t, user.token, suiteId, started.id);
      const result = resultOf(run, "presses 2 over the greeting");
      const log = await callLog(user.token, result.call_id);
      expect(result.status, JSON.stringify({ result, log })).toBe("passed");
      expect(log.events).toContainEqual(expect.objectContaining({ type: "dtmf", direction: "in", digits: "2" }));
      // The greeting was cut short: the caller heard only its beginning.
      const cut = log.events.find((e) => e.type === "interruption");
      const heard = cut?.type === "interruption" ? cut.heard_text : "";
      expect(heard, JSON.stringify(log.events)).not.toBe("");
      expect(GREETING.startsWith(heard)).toBe(true);
      expect(log.transcript).toContainEqual(
        expect.objectContaining({ role: "assistant", text: "Your order ships tomorrow." }),
      );
      // The result itself shows both: the caller's turn (key and cut-in) and how the assistant met them.
      expect(result.caller_turns[0]).toMatchObject({ turn: 1, dtmf: "2", interrupted: true });
      expect(result.call_events).toContainEqual(
        expect.objectContaining({ type: "dtmf", direction: "in", digits: "2" }),
      );
      expect(result.call_events).toContainEqual(expect.objectContaining({ type: "interruption", heard_text: heard }));
      // Both on the call's clock: the key reached the call as the caller's turn began (not seconds apart).
      const key = result.call_events.find((e) => e.type === "dtmf");
      expect(Math.abs((key?.at_ms ?? 0) - (result.caller_turns[0]?.started_at_ms ?? 0))).toBeLessThan(1000);
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  it(
    "plays a persona with the caller's model; a judge that answers no verdict makes its result an error, not a failure",
    async () => {
      const user = await signedInUser(t);
      const agentId = await createAssistant(t, user.token, bistro());
      const suiteId = await createSuite(t, user.token, { name: "Persona", agent_id: agentId }, [
        {
          name: "a diner",
          caller: { mode: "persona", persona: "You want a table for two tonight. Say goodbye once it is booked." },
          expectations: [
            { type: "rubric", rubric: 'The assistant says "booked"' },
            { type: "max_turns", turns: 2 },
          ],
        },
        booking("a rambling judge", [{ type: "rubric", rubric: `The assistant is polite ${UNJUDGEABLE}` }]),
      ]);
      const started = await startRun(t, user.token, suiteId);
      const run = await finishedRun(t, user.token, suiteId, started.id);
      const diner = resultOf(run, "a diner");
      expect(diner.status, JSON.stringify(diner)).toBe("passed");
      expect(diner.figures?.caller_turns).toBe(2);
      const log = await callLog(user.token, diner.call_id);
      expect(log.end_reason).toBe("caller_hangup");
      const rambling = resultOf(run, "a rambling judge");
      expect(rambling).toMatchObject({
        status: "error",
        error: "The judge model (openai-compatible) answered no pass/fail verdict: I would rather not say.",
        expectations: [],
      });
      // The call itself was made: its figures are kept beside the error.
      expect(rambling.figures?.caller_turns).toBe(1);
      // None failed, one could not be judged.
      expect(run.status).toBe("error");
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  it("ends as an error, saying why, a case whose caller's voice needs a key the workspace lacks; no call is made", async () => {
    const user = await signedInUser(t);
    const agentId = await createAssistant(t, user.token, bistro());
    const suiteId = await createSuite(t, user.token, { name: "Keyed voice", agent_id: agentId }, [
      {
        name: "a hosted voice",
        caller: {
          mode: "script",
          script: [{ text: "Hello." }],
          voice: { provider: "deepgram", config: { model: "aura-2", voice: "aura-2-thalia-en" } },
        },
        expectations: [{ type: "end_reason", reasons: ["caller_hangup"] }],
      },
    ]);
    const started = await startRun(t, user.token, suiteId);
    const run = await finishedRun(t, user.token, suiteId, started.id);
    expect(run.status).toBe("error");
    expect(run.results[0]).toMatchObject({ status: "error", call_id: null, figures: null });
    expect(run.results[0]?.error).toMatch(/^The simulated caller could not be set up: .*Integrations/);
  });

  it(
    "calls each case `repeat` times",
    async () => {
      const user = await signedInUser(t);
      const agentId = await createAssistant(t, user.token, bistro());
      const suiteId = await createSuite(t, user.token, { name: "Twice", agent_id: agentId, repeat: 2 }, [
        booking("books a table", [{ type: "end_reason", reasons: ["caller_hangup"] }]),
      ]);
      const started = await startRun(t, user.token, suiteId);
      const run = await finishedRun(t, user.token, suiteId, started.id);
      expect(run.results.map((r) => [r.attempt, r.status])).toEqual([
        [1, "passed"],
        [2, "passed"],
      ]);
      expect(new Set(run.results.map((r) => r.call_id)).size).toBe(2);
      expect(run.status).toBe("passed");
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  it(
    "cancelled, ends the test call still running",
    async () => {
      const user = await signedInUser(t);
      const agentId = await createAssistant(t, user.token, bistro());
      const suiteId = await createSuite(t, user.token, { name: "Long", agent_id: agentId }, [
        {
          name: "waits a long time",
          // The second line waits half a minute: the call is live when the run is cancelled.
          caller: {
            mode: "script",
            script: [
              { text: "I would like a table.", wait_ms: 0 },
              { text: "Thank you.", wait_ms: 30_000 },
            ],
          },
          expectations: [{ type: "end_reason", reasons: ["caller_hangup"] }],
        },
      ]);
      const started = await startRun(t, user.token, suiteId);
      const live = await runWhere(
        t,
        user.token,
        suiteId,
        started.id,
        (r) => r.status === "running" && r.call_id !== null,
        "the test call to start",
      );
      const callId = live.results[0]?.call_id ?? null;
      const cancel = await call(t, "POST", `/api/v1/test-suites/${suiteId}/runs/${started.id}/cancel`, {
        token: user.token,
      });
      expect(cancel.statusCode).toBe(200);
      const run = await finishedRun(t, user.token, suiteId, started.id);
      expect(run.status).toBe("cancelled");
      expect(run.results[0]?.status).toBe("cancelled");
      const log = await until(
        () => callLog(user.token, callId),
        (l) => l.status !== "in_progress" && l.status !== "queued",
        "the cancelled call's log to close",
      );
      expect(log.end_reason).toBe("removed");
      // Ended at the cancel, not after the half-minute line.
      expect(log.duration_seconds).toBeLessThan(30);
    },
    RUN_TIMEOUT_MS + 30_000,
  );

  it(
    "waits while other calls hold the workspace's concurrent-call slots, then runs",
    async () => {
      const user = await signedInUser(t);
      const tenant = { workspaceId: user.workspaceId };
      await t.ctx.db.update(workspaces).set({ concurrencyLimit: 1 }).where(eq(workspaces.id, user.workspaceId));
      const agentId = await createAssistant(t, user.token, bistro());
      // A call nobody has joined yet holds the only slot.
      const held: Room = await t.ctx.calls.openCallRoom(tenant, { agentId, channel: "web", direction: "inbound" });
      const calls = t.ctx.calls;
      const open = calls.openCallRoom;
      let refused = 0;
      calls.openCallRoom = async (scope, request) =>
        open(scope, request).catch((error: unknown) => {
          if (error instanceof AppError && error.code === "rate_limited" && scope.workspaceId === user.workspaceId)
            refused += 1;
          throw error;
        });
      try {
        const suiteId = await createSuite(t, user.token, { name: "Busy", agent_id: agentId }, [
          booking("books a table", [{ type: "end_reason", reasons: ["caller_hangup"] }]),
        ]);
        const started = await startRun(t, user.token, suiteId);
        await until(
          async () => refused,
          (n) => n >= 2,
          "the run to find the slot taken, twice",
        );
        const waiting = await readRun(t, user.token, suiteId, started.id);
        expect(waiting.status).toBe("running");
        expect(waiting.results[0]).toMatchObject({ status: "pending", error: null });
        const freedAt = new Date();
        await t.ctx.calls.expireRoom(held, "not_joined");
        const run = await finishedRun(t, user.token, suiteId, started.id);
        expect(run.status, JSON.stringify(run.results)).toBe("passed");
        expect(Date.parse(run.results[0]?.started_at ?? "")).toBeGreaterThanOrEqual(freedAt.getTime());
      } finally {
        calls.openCallRoom = open;
      }
    },
    RUN_TIMEOUT_MS + 30_000,
  );
});

describe("a test run's job, tried again", () => {
  it(
    "hands back a result whose call its server ended, and calls it again instead of judging it",
    async () => {
      const user = await signedInUser(t);
      const agentId = await createAssistant(t, user.token, bistro());
      const suiteId = await createSuite(t, user.token, { name: "Restart", agent_id: agentId }, [
        booking("books a table", [{ type: "end_reason", reasons: ["caller_hangup"] }]),
      ]);
      const started = await startRun(t, user.token, suiteId);
      const live = await runWhere(
        t,
        user.token,
        suiteId,
        started.id,
        (r) => r.status === "running" && r.call_id !== null,
        "the test call to start",
      );
      const firstCall = live.results[0]?.call_id ?? null;
      // What a stopping server does to its calls; this one goes on taking jobs, as another node would.
      await t.ctx.calls.endAll();
      const run = await finishedRun(t, user.token, suiteId, started.id);
      expect(run.status, JSON.stringify(run.results)).toBe("passed");
      expect(run.results).toHaveLength(1);
      expect(run.results[0]?.call_id).not.toBe(firstCall);
      expect((await callLog(user.token, firstCall)).end_reason).toBe("server_shutdown");
    },
    RUN_TIMEOUT_MS,
  );

  const scripted = SimulatedCaller.parse({ mode: "script", script: [{ text: "A table for two, please." }] });
  const hangsUp: Expectation[] = [{ type: "end_reason", reasons: ["caller_hangup"] }];

  it(
    "calls again a result whose call died with its server, and keeps the finished ones",
    async () => {
      const user = await signedInUser(t);
      const agentId = await createAssistant(t, user.token, bistro());
      const deadCall = randomUUID();
      const runId = await insertRunningRun(t, user.workspaceId, agentId, [
        {
          caseName: "finished before",
          caller: scripted,
          expectations: hangsUp,
          status: "passed",
          callId: randomUUID(),
        },
        { caseName: "cut off", caller: scripted, expectations: hangsUp, status: "running", callId: deadCall },
      ]);
      const before = await resultRows(t, runId);
      const payload = { workspaceId: user.workspaceId, runId };
      await runTestRunJob(t.ctx, t.app.log, payload, { attempts: 2, maxAttempts: 3 } as JobRow);
      const [kept, again] = await resultRows(t, runId);
      expect(kept).toEqual(before[0]);
      expect(again).toMatchObject({ status: "passed", error: null });
      expect(again?.callId).not.toBe(deadCall);
      expect(await runRow(t, runId)).toMatchObject({ status: "passed" });
    },
    RUN_TIMEOUT_MS,
  );

  it("finds its run cancelled after a dead attempt: cancels what was left and announces the run", async () => {
    const user = await signedInUser(t);
    const agentId = await createAssistant(t, user.token, bistro());
    const runId = await insertRunningRun(t, user.workspaceId, agentId, [
      { caseName: "done", caller: scripted, expectations: hangsUp, status: "passed" },
      { caseName: "cut off", caller: scripted, expectations: hangsUp, status: "running", callId: randomUUID() },
    ]);
    // The cancel came while the run was running: announcing it is the job's.
    await t.ctx.db.update(testRuns).set({ status: "cancelled" }).where(eq(testRuns.id, runId));
    const completed: string[] = [];
    const unsubscribe = t.ctx.events.on("test.run.completed", (e) => void completed.push(e.runId));
    await runTestRunJob(t.ctx, t.app.log, { workspaceId: user.workspaceId, runId }, { attempts: 2 } as JobRow);
    unsubscribe();
    expect((await resultRows(t, runId)).map((r) => r.status)).toEqual(["passed", "cancelled"]);
    expect(await runRow(t, runId)).toMatchObject({ status: "cancelled", finishedAt: expect.any(Date) });
    expect(completed).toEqual([runId]);
  });

  it("given up after its last attempt, ends the run and its unfinished results as errors, saying why", async () => {
    const user = await signedInUser(t);
    const agentId = await createAssistant(t, user.token, bistro());
    const runId = await insertRunningRun(t, user.workspaceId, agentId, [
      { caseName: "done", caller: scripted, expectations: hangsUp, status: "failed" },
      { caseName: "cut off", caller: scripted, expectations: hangsUp, status: "running", callId: randomUUID() },
      { caseName: "not reached", caller: scripted, expectations: hangsUp, status: "pending" },
    ]);
    const completed: string[] = [];
    const unsubscribe = t.ctx.events.on("test.run.completed", (e) => void completed.push(e.runId));
    await giveUpTestRun(t.ctx, { workspaceId: user.workspaceId, runId });
    unsubscribe();
    const results = await resultRows(t, runId);
    expect(results.map((r) => r.status)).toEqual(["failed", "error", "error"]);
    expect(results[2]?.error).toMatch(/^The server running this test run stopped before the run could finish/);
    expect(await runRow(t, runId)).toMatchObject({ status: "error" });
    expect(completed).toEqual([runId]);
  });
});
