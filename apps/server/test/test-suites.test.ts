import {
  CreateTestCaseBody,
  TEST_SUITE_LIMITS,
  TEST_SUITE_TEXTS,
  type TestCase,
  type TestCaseList,
  type TestRun,
  type TestRunPage,
  type TestSuite,
  type TestSuitePage,
  type WebhookDelivery,
  type WorkflowGraph,
} from "@parley/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../src/jobs/schema.ts";
import { testCases, testResults, testRuns } from "../src/modules/test-suites/schema.ts";
import { call, createTestApp, signedInUser, type TestApp } from "./harness.ts";
import { keylessAssistant } from "./support/assistant-fields.ts";
import { createAssistant } from "./support/calls.ts";
import { type ChatRequestBody, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.ts";
import { until } from "./support/until.ts";

/**
 * The test-suites API: suites and cases, runs started and cancelled, results read back with the
 * comparison with the previous run. The runs' calls are the runner's (test-runs.test.ts): here the
 * job runner is stopped so a run stays as the API left it, and results are written directly.
 */

type Signed = Awaited<ReturnType<typeof signedInUser>>;

let t: TestApp;
let llm: ScriptedLlm;
let owner: Signed;
let stranger: Signed;
/** What the scripted model answers to a request to propose cases. */
let proposal = "";

beforeAll(async () => {
  llm = await startScriptedLlm((request: ChatRequestBody) => {
    const system = request.messages.find((m) => m.role === "system")?.content ?? "";
    return { text: system.startsWith("You write test cases") ? proposal : "Hello." };
  });
  t = await createTestApp({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
  // Runs stay queued: nothing here waits for a call.
  await t.app.jobs.stop();
  owner = await signedInUser(t);
  stranger = await signedInUser(t);
  // Load-proof: opening a database and running every migration is slow on a busy machine.
}, 240_000);

afterAll(async () => {
  await t?.close();
  await llm?.close();
});

const api = (path: string) => `/api/v1${path}`;

const personaCase = (name: string, rubric = "The assistant books the table.") => ({
  name,
  caller: { mode: "persona", persona: "You want a table for four on Friday." },
  expectations: [{ type: "rubric", rubric }],
});

async function newSuite(user: Signed, fields: Record<string, unknown> = {}): Promise<TestSuite> {
  const agentId = await createAssistant(t, user.token, { name: "Bookings" });
  const res = await call(t, "POST", api("/test-suites"), {
    token: user.token,
    body: { name: "Bookings suite", agent_id: agentId, ...fields },
  });
  if (res.statusCode !== 201) throw new Error(`create suite failed: ${res.statusCode} ${res.body}`);
  return res.json<TestSuite>();
}

async function newCase(user: Signed, suiteId: string, body: unknown = personaCase("Books a table")): Promise<TestCase> {
  const res = await call(t, "POST", api(`/test-suites/${suiteId}/cases`), { token: user.token, body });
  if (res.statusCode !== 201) throw new Error(`create case failed: ${res.statusCode} ${res.body}`);
  return res.json<TestCase>();
}

describe("test suites and cases", () => {
  it("creates, reads, lists, changes and deletes a suite and its cases", async () => {
    const suite = await newSuite(owner, { description: "Table bookings", repeat: 2 });
    expect(suite).toMatchObject({
      name: "Bookings suite",
      description: "Table bookings",
      agent_name: "Bookings",
      repeat: 2,
      judge_model: null,
      case_count: 0,
      last_run: null,
    });

    const created = await newCase(owner, suite.id);
    expect(created).toMatchObject({ suite_id: suite.id, name: "Books a table", variables: {} });
    // The caller's defaults are filled in.
    expect(created.caller).toMatchObject({ mode: "persona", profile: "browser", max_turns: 8, voice: null });

    const read = await call(t, "GET", api(`/test-suites/${suite.id}`), { token: owner.token });
    expect(read.json<TestSuite>().case_count).toBe(1);
    const listed = await call(t, "GET", api(`/test-suites?agent_id=${suite.agent_id}`), { token: owner.token });
    expect(listed.json<TestSuitePage>()).toMatchObject({ total_count: 1, data: [{ id: suite.id }] });

    const renamed = await call(t, "PATCH", api(`/test-suites/${suite.id}`), {
      token: owner.token,
      body: { name: "Renamed", repeat: 3 },
    });
    expect(renamed.json<TestSuite>()).toMatchObject({ name: "Renamed", repeat: 3, description: "Table bookings" });

    const changed = await call(t, "PATCH", api(`/test-suites/${suite.id}/cases/${created.id}`), {
      token: owner.token,
      body: { name: "Books for four", variables: { customer_name: "Ada" } },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<TestCase>()).toMatchObject({ name: "Books for four", variables: { customer_name: "Ada" } });
    const cases = await call(t, "GET", api(`/test-suites/${suite.id}/cases`), { token: owner.token });
    expect(cases.json<TestCaseList>().items.map((c) => c.name)).toEqual(["Books for four"]);

    const deletedCase = await call(t, "DELETE", api(`/test-suites/${suite.id}/cases/${created.id}`), {
      token: owner.token,
    });
    expect(deletedCase.json()).toEqual({ message: "Test case deleted." });
    const deleted = await call(t, "DELETE", api(`/test-suites/${suite.id}`), { token: owner.token });
    expect(deleted.json()).toEqual({ message: "Test suite deleted." });
    const gone = await call(t, "GET", api(`/test-suites/${suite.id}`), { token: owner.token });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toBe("Test suite not found");
  }, 120_000);
});

describe("validation", () => {
  it("refuses a suite for an assistant the workspace does not have", async () => {
    const foreign = await createAssistant(t, stranger.token, { name: "Theirs" });
    const res = await call(t, "POST", api("/test-suites"), {
      token: owner.token,
      body: { name: "Borrowed", agent_id: foreign },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe("Assistant not found.");
  }, 60_000);

  it("says what is wrong with a case: the persona, the script, the digits, the arguments schema", async () => {
    const suite = await newSuite(owner);
    const post = (body: unknown) =>
      call(t, "POST", api(`/test-suites/${suite.id}/cases`), { token: owner.token, body });
    const messages = async (body: unknown) => {
      const res = await post(body);
      expect(res.statusCode, res.body).toBe(422);
      return JSON.stringify(res.json());
    };
    const expectations = [{ type: "rubric", rubric: "Polite." }];
    expect(await messages({ name: "No persona", caller: { mode: "persona" }, expectations })).toContain(
      "Describe the caller and what they want",
    );
    expect(await messages({ name: "No script", caller: { mode: "script", script: [] }, expectations })).toContain(
      "Add at least one line for the caller",
    );
    const badDigits = {
      name: "Bad keys",
      caller: { mode: "persona", persona: "You press keys.", behaviours: { dtmf: [{ turn: 1, digits: "12a" }] } },
      expectations,
    };
    expect(await messages(badDigits)).toContain("Digits are 0-9, * and #, up to 20");
    const badSchema = {
      ...personaCase("Books"),
      expectations: [{ type: "tool_called", name: "book_table", arguments_schema: { type: "objekt" } }],
    };
    const refused = await post(badSchema);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toContain('The arguments schema of "book_table" is not a valid JSON Schema');
    expect(JSON.stringify(refused.json())).toContain("expectations.0.arguments_schema");
    const goodSchema = {
      ...personaCase("Books"),
      expectations: [
        {
          type: "tool_called",
          name: "book_table",
          arguments_schema: { type: "object", properties: { party_size: { const: 4 } }, required: ["party_size"] },
        },
      ],
    };
    expect((await post(goodSchema)).statusCode).toBe(201);
    // The same check on a change.
    const [created] = (
      await call(t, "GET", api(`/test-suites/${suite.id}/cases`), { token: owner.token })
    ).json<TestCaseList>().items;
    const changed = await call(t, "PATCH", api(`/test-suites/${suite.id}/cases/${created?.id}`), {
      token: owner.token,
      body: { expectations: badSchema.expectations },
    });
    expect(changed.statusCode).toBe(422);
  }, 60_000);

  it(`holds at most ${TEST_SUITE_LIMITS.casesPerSuite} cases`, async () => {
    const suite = await newSuite(owner);
    const fill = TEST_SUITE_LIMITS.casesPerSuite - 1;
    const body = CreateTestCaseBody.parse(personaCase("Filler"));
    await t.ctx.db.insert(testCases).values(
      Array.from({ length: fill }, (_, i) => ({
        workspaceId: owner.workspaceId,
        suiteId: suite.id,
        name: `Filler ${i}`,
        caller: body.caller,
        expectations: body.expectations,
      })),
    );
    await newCase(owner, suite.id);
    const refused = await call(t, "POST", api(`/test-suites/${suite.id}/cases`), {
      token: owner.token,
      body: personaCase("One too many"),
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail).toBe(TEST_SUITE_TEXTS.tooManyCases);
  }, 60_000);
});

/** Starts a run of the suite; `token` may be an API key. */
async function startRun(token: string, suiteId: string, body?: unknown) {
  return call(t, "POST", api(`/test-suites/${suiteId}/runs`), { token, ...(body !== undefined ? { body } : {}) });
}

describe("runs", () => {
  it("starts a run: a pending result per case and attempt, copied from the case, and its job", async () => {
    const suite = await newSuite(owner, { repeat: 2 });
    const first = await newCase(owner, suite.id, { ...personaCase("First"), variables: { customer: "Ada" } });
    const second = await newCase(owner, suite.id, personaCase("Second"));

    const res = await startRun(owner.token, suite.id);
    expect(res.statusCode, res.body).toBe(201);
    const run = res.json<TestRun>();
    expect(run).toMatchObject({
      suite_id: suite.id,
      suite_name: "Bookings suite",
      agent_id: suite.agent_id,
      status: "queued",
      trigger: "dashboard",
      repeat: 2,
      totals: { cases: 2, passed: 0, failed: 0, flaky: 0, error: 0 },
      latency_p95_ms: null,
      cost: 0,
      comparison: null,
    });
    expect(run.results.map((r) => [r.case_name, r.attempt, r.status])).toEqual([
      ["First", 1, "pending"],
      ["First", 2, "pending"],
      ["Second", 1, "pending"],
      ["Second", 2, "pending"],
    ]);
    expect(run.cases).toEqual([
      { case_id: first.id, case_name: "First", status: "pending", passed_attempts: 0, attempts: 2 },
      { case_id: second.id, case_name: "Second", status: "pending", passed_attempts: 0, attempts: 2 },
    ]);
    const rows = await t.ctx.db.select().from(testResults).where(eq(testResults.runId, run.id));
    expect(rows.find((r) => r.caseId === first.id)).toMatchObject({
      variables: { customer: "Ada" },
      caller: first.caller,
      expectations: first.expectations,
    });
    const queued = await t.ctx.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.queue, "test-runs"), eq(jobs.status, "queued")));
    expect(queued.map((j) => j.payload)).toContainEqual({ workspaceId: owner.workspaceId, runId: run.id });

    // Only some cases, once each, started from a CI.
    const some = await startRun(owner.token, suite.id, { case_ids: [second.id], repeat: 1, trigger: "cli" });
    expect(some.statusCode).toBe(201);
    expect(some.json<TestRun>()).toMatchObject({ trigger: "cli", repeat: 1, totals: { cases: 1 } });
    expect(some.json<TestRun>().results).toHaveLength(1);

    const listed = await call(t, "GET", api(`/test-suites/${suite.id}/runs`), { token: owner.token });
    expect(listed.json<TestRunPage>().data.map((r) => r.id)).toEqual([some.json<TestRun>().id, run.id]);
    const read = await call(t, "GET", api(`/test-suites/${suite.id}`), { token: owner.token });
    expect(read.json<TestSuite>().last_run).toEqual({
      id: some.json<TestRun>().id,
      status: "queued",
      finished_at: null,
    });
  }, 60_000);

  it("refuses a run with no cases, or with cases of another suite", async () => {
    const suite = await newSuite(owner);
    const empty = await startRun(owner.token, suite.id, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().detail).toBe(TEST_SUITE_TEXTS.noCases);
    const other = await newSuite(owner);
    const theirs = await newCase(owner, other.id);
    await newCase(owner, suite.id);
    const unknown = await startRun(owner.token, suite.id, { case_ids: [theirs.id] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toBe(TEST_SUITE_TEXTS.unknownCases);
  }, 60_000);

  it("cancels a run: its pending results are cancelled, the webhook is queued, a second cancel is refused", async () => {
    const hook = await call(t, "POST", api("/webhooks"), {
      token: owner.token,
      body: { url: "http://127.0.0.1:9/test-runs", events: ["test.run.completed"] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const suite = await newSuite(owner);
    await newCase(owner, suite.id);
    const run = (await startRun(owner.token, suite.id)).json<TestRun>();

    const url = api(`/test-suites/${suite.id}/runs/${run.id}/cancel`);
    const cancelled = await call(t, "POST", url, { token: owner.token });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<TestRun>()).toMatchObject({ status: "cancelled", cases: [{ status: "cancelled" }] });
    expect(cancelled.json<TestRun>().finished_at).not.toBeNull();
    expect(cancelled.json<TestRun>().results.map((r) => r.status)).toEqual(["cancelled"]);

    const again = await call(t, "POST", url, { token: owner.token });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe(TEST_SUITE_TEXTS.runFinished);

    const delivery = await until(
      async () =>
        (
          await call(t, "GET", api(`/webhooks/${hook.json<{ id: string }>().id}/deliveries`), { token: owner.token })
        ).json<{ items: WebhookDelivery[] }>().items,
      (items) => items.length > 0,
      "the test.run.completed delivery",
    );
    expect(delivery).toHaveLength(1);
    expect(delivery[0]?.event_type).toBe("test.run.completed");
    expect(delivery[0]?.payload).toMatchObject({
      type: "test.run.completed",
      data: { id: run.id, suite_id: suite.id, status: "cancelled", totals: { cases: 1 }, trigger: "dashboard" },
    });
  }, 60_000);

  it("compares a run with the suite's previous finished run: newly failing and passing, latency and cost", async () => {
    const suite = await newSuite(owner);
    const steady = await newCase(owner, suite.id, personaCase("Steady"));
    const breaks = await newCase(owner, suite.id, personaCase("Breaks"));
    const heals = await newCase(owner, suite.id, personaCase("Heals"));
    const figures = (latency: number, cost: number) => ({
      caller_turns: 3,
      duration_seconds: 20,
      latency_p50_ms: latency / 2,
      latency_p95_ms: latency,
      longest_silence_ms: 900,
      cost,
    });
    /** Writes a finished run's results as the runner would: case name → status and figures. */
    const finish = async (runId: string, outcomes: Record<string, ["passed" | "failed", number, number]>) => {
      for (const [name, [status, latency, cost]] of Object.entries(outcomes)) {
        await t.ctx.db
          .update(testResults)
          .set({ status, figures: figures(latency, cost), finishedAt: new Date() })
          .where(and(eq(testResults.runId, runId), eq(testResults.caseName, name)));
      }
      await t.ctx.db.update(testRuns).set({ status: "failed", finishedAt: new Date() }).where(eq(testRuns.id, runId));
    };

    const before = (await startRun(owner.token, suite.id)).json<TestRun>();
    await finish(before.id, {
      Steady: ["passed", 800, 0.01],
      Breaks: ["passed", 900, 0.01],
      Heals: ["failed", 1000, 0.01],
    });
    // A cancelled run in between is not what the next run is compared with.
    const between = (await startRun(owner.token, suite.id)).json<TestRun>();
    await call(t, "POST", api(`/test-suites/${suite.id}/runs/${between.id}/cancel`), { token: owner.token });
    const after = (await startRun(owner.token, suite.id)).json<TestRun>();
    await finish(after.id, {
      Steady: ["passed", 1200, 0.02],
      Breaks: ["failed", 1300, 0.02],
      Heals: ["passed", 1400, 0.02],
    });

    const read = await call(t, "GET", api(`/test-suites/${suite.id}/runs/${after.id}`), { token: owner.token });
    expect(read.statusCode).toBe(200);
    const run = read.json<TestRun>();
    expect(run.totals).toEqual({ cases: 3, passed: 2, failed: 1, flaky: 0, error: 0 });
    expect(run.latency_p95_ms).toBe(1400);
    expect(run.cost).toBeCloseTo(0.06, 6);
    expect(run.comparison).toEqual({
      previous_run_id: before.id,
      newly_failing: [{ case_id: breaks.id, case_name: "Breaks" }],
      newly_passing: [{ case_id: heals.id, case_name: "Heals" }],
      latency_p95_delta_ms: 400,
      cost_per_call_delta: 0.01,
    });
    expect(run.cases.find((c) => c.case_id === steady.id)?.status).toBe("passed");
    // The runner announces the finished run: the webhook carries its summary.
    const hook = await call(t, "POST", api("/webhooks"), {
      token: owner.token,
      body: { url: "http://127.0.0.1:9/finished-runs", events: ["test.run.completed"] },
    });
    t.ctx.events.emit("test.run.completed", { workspaceId: owner.workspaceId, runId: after.id });
    const deliveries = await until(
      async () =>
        (
          await call(t, "GET", api(`/webhooks/${hook.json<{ id: string }>().id}/deliveries`), { token: owner.token })
        ).json<{ items: WebhookDelivery[] }>().items,
      (items) => items.some((d) => JSON.stringify(d.payload).includes(after.id)),
      "the finished run's delivery",
    );
    expect(deliveries[0]?.payload.data).toMatchObject({
      id: after.id,
      status: "failed",
      totals: run.totals,
      latency_p95_ms: 1400,
      cost: run.cost,
      finished_at: run.finished_at,
    });
    // The first run has nothing before it.
    const first = await call(t, "GET", api(`/test-suites/${suite.id}/runs/${before.id}`), { token: owner.token });
    expect(first.json<TestRun>().comparison).toBeNull();
  }, 60_000);

  it("calls a case flaky when some attempts pass and some fail", async () => {
    const suite = await newSuite(owner, { repeat: 3 });
    await newCase(owner, suite.id, personaCase("Wobbly"));
    const run = (await startRun(owner.token, suite.id)).json<TestRun>();
    const [a, b] = run.results;
    await t.ctx.db
      .update(testResults)
      .set({ status: "passed" })
      .where(eq(testResults.id, a?.id ?? ""));
    await t.ctx.db
      .update(testResults)
      .set({ status: "failed" })
      .where(eq(testResults.id, b?.id ?? ""));
    const midway = await call(t, "GET", api(`/test-suites/${suite.id}/runs/${run.id}`), { token: owner.token });
    expect(midway.json<TestRun>().cases[0]?.status).toBe("running");
    await t.ctx.db.update(testResults).set({ status: "passed" }).where(eq(testResults.runId, run.id));
    await t.ctx.db
      .update(testResults)
      .set({ status: "failed" })
      .where(eq(testResults.id, b?.id ?? ""));
    const done = await call(t, "GET", api(`/test-suites/${suite.id}/runs/${run.id}`), { token: owner.token });
    expect(done.json<TestRun>().cases).toEqual([
      expect.objectContaining({ status: "flaky", passed_attempts: 2, attempts: 3 }),
    ]);
    expect(done.json<TestRun>().totals).toMatchObject({ cases: 1, flaky: 1 });
  }, 60_000);
});

describe("access", () => {
  it("answers another workspace 404 on every route", async () => {
    const suite = await newSuite(owner);
    const created = await newCase(owner, suite.id);
    const run = (await startRun(owner.token, suite.id)).json<TestRun>();
    const base = `/test-suites/${suite.id}`;
    const routes: [Parameters<typeof call>[1], string, unknown?][] = [
      ["GET", base],
      ["PATCH", base, { name: "Mine now" }],
      ["DELETE", base],
      ["GET", `${base}/cases`],
      ["POST", `${base}/cases`, personaCase("Intruder")],
      ["POST", `${base}/cases/generate`, { source: "workflow" }],
      ["PATCH", `${base}/cases/${created.id}`, { name: "Intruder" }],
      ["DELETE", `${base}/cases/${created.id}`],
      ["POST", `${base}/runs`, {}],
      ["GET", `${base}/runs`],
      ["GET", `${base}/runs/${run.id}`],
      ["POST", `${base}/runs/${run.id}/cancel`],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(t, method, api(path), { token: stranger.token, body });
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(404);
    }
    const listed = await call(t, "GET", api("/test-suites"), { token: stranger.token });
    expect(listed.json<TestSuitePage>().data.map((s) => s.id)).not.toContain(suite.id);
    // Still the owner's, unchanged.
    const mine = await call(t, "GET", api(base), { token: owner.token });
    expect(mine.json<TestSuite>()).toMatchObject({ name: "Bookings suite", case_count: 1 });
    // A run is reached through its own suite only.
    const other = await newSuite(owner);
    const crossed = await call(t, "GET", api(`/test-suites/${other.id}/runs/${run.id}`), { token: owner.token });
    expect(crossed.statusCode).toBe(404);
    expect(crossed.json().detail).toBe(TEST_SUITE_TEXTS.runNotFound);
  }, 120_000);

  it("lets API keys in by scope: read reads, write edits, calls starts and cancels runs", async () => {
    const key = async (scopes: string[]) => {
      const res = await call(t, "POST", api("/api-keys"), { token: owner.token, body: { name: "CI", scopes } });
      if (res.statusCode !== 201) throw new Error(`create key failed: ${res.statusCode} ${res.body}`);
      return res.json<{ secret: string }>().secret;
    };
    const [reader, writer, caller] = [await key(["read"]), await key(["write"]), await key(["calls"])];
    const suite = await newSuite(owner);

    expect((await call(t, "GET", api(`/test-suites/${suite.id}`), { token: reader })).statusCode).toBe(200);
    const readerWrites = await call(t, "POST", api(`/test-suites/${suite.id}/cases`), {
      token: reader,
      body: personaCase("By key"),
    });
    expect(readerWrites.statusCode).toBe(403);
    expect(readerWrites.json().detail).toBe('This API key lacks the "write" scope.');
    const written = await call(t, "POST", api(`/test-suites/${suite.id}/cases`), {
      token: writer,
      body: personaCase("By key"),
    });
    expect(written.statusCode).toBe(201);

    const writerRuns = await startRun(writer, suite.id, {});
    expect(writerRuns.statusCode).toBe(403);
    expect(writerRuns.json().detail).toBe('This API key lacks the "calls" scope.');
    const started = await startRun(caller, suite.id, {});
    expect(started.statusCode, started.body).toBe(201);
    expect(started.json<TestRun>().trigger).toBe("api");
    const cancelled = await call(t, "POST", api(`/test-suites/${suite.id}/runs/${started.json<TestRun>().id}/cancel`), {
      token: caller,
    });
    expect(cancelled.statusCode).toBe(200);
  }, 60_000);
});

const at = { x: 0, y: 0 };
/** start → ask the name → route: booking (collects party_size, day), cancelling (collects booking_ref), or the rest. */
const bookingFlow: WorkflowGraph = {
  nodes: [
    { id: "start", type: "start", position: at, data: { name: "Start", greeting: "Bella Cucina!", prompt: "" } },
    {
      id: "ask",
      type: "conversation",
      position: at,
      data: { name: "Ask", prompt: "Ask what they want.", collect: [] },
    },
    { id: "route", type: "condition", position: at, data: { name: "Route" } },
    {
      id: "book",
      type: "conversation",
      position: at,
      data: {
        name: "Booking",
        prompt: "Take the booking.",
        collect: [
          { variable: "party_size", description: "How many", required: true },
          { variable: "day", description: "Which day", required: true },
          { variable: "notes", description: "Anything else", required: false },
        ],
      },
    },
    {
      id: "cancel",
      type: "conversation",
      position: at,
      data: {
        name: "Cancellation",
        prompt: "Cancel it.",
        collect: [{ variable: "booking_ref", description: "The reference", required: true }],
      },
    },
    { id: "end", type: "end", position: at, data: { name: "Goodbye", message: "Bye." } },
  ],
  edges: [
    { id: "e1", source: "start", target: "ask", condition: { kind: "always" } },
    { id: "e2", source: "ask", target: "route", condition: { kind: "model", description: "They said what they want" } },
    {
      id: "e3",
      source: "route",
      target: "book",
      label: "Book",
      condition: { kind: "model", description: "The caller wants to book a table" },
    },
    {
      id: "e4",
      source: "route",
      target: "cancel",
      condition: { kind: "model", description: "The caller wants to cancel a booking" },
    },
    { id: "e5", source: "route", target: "end", condition: { kind: "default" } },
    { id: "e6", source: "book", target: "end", condition: { kind: "always" } },
    { id: "e7", source: "cancel", target: "end", condition: { kind: "always" } },
  ],
};

describe("generated cases", () => {
  it("makes a case per branch of the assistant's published workflow", async () => {
    const workflow = await call(t, "POST", api("/workflows"), { token: owner.token, body: { name: "Bookings" } });
    expect(workflow.statusCode, workflow.body).toBe(201);
    const saved = await call(t, "PATCH", api(`/workflows/${workflow.json<{ id: string }>().id}`), {
      token: owner.token,
      body: {
        graph: bookingFlow,
        variables: ["party_size", "day", "notes", "booking_ref"].map((name) => ({ name, type: "string" })),
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const workflowId = workflow.json<{ id: string }>().id;
    const suite = await newSuite(owner);
    const generate = () =>
      call(t, "POST", api(`/test-suites/${suite.id}/cases/generate`), {
        token: owner.token,
        body: { source: "workflow" },
      });

    const unpublished = await generate();
    expect(unpublished.statusCode).toBe(422);
    expect(unpublished.json().detail).toBe(TEST_SUITE_TEXTS.noWorkflow);

    await call(t, "PATCH", api(`/agents/${suite.agent_id}`), { token: owner.token, body: { workflow_id: workflowId } });
    // Still nothing published.
    expect((await generate()).statusCode).toBe(422);
    const published = await call(t, "POST", api(`/workflows/${workflowId}/publish`), { token: owner.token });
    expect(published.statusCode, published.body).toBe(200);

    const res = await generate();
    expect(res.statusCode, res.body).toBe(201);
    const cases = res.json<TestCaseList>().items;
    expect(cases.map((c) => c.name)).toEqual(["Route → Book", "Route → Cancellation", "Route → Goodbye"]);
    const [book, cancel, rest] = cases;
    expect(book?.caller).toMatchObject({ mode: "persona" });
    expect(book?.caller.persona).toContain("The caller wants to book a table");
    expect(book?.caller.persona).toContain("party_size, day");
    expect(book?.expectations).toEqual([
      { type: "rubric", rubric: 'The conversation reached the step "Booking": The caller wants to book a table' },
      {
        type: "variables_collected",
        variables: [
          { name: "party_size", value: null },
          { name: "day", value: null },
        ],
      },
    ]);
    expect(cancel?.expectations[1]).toEqual({
      type: "variables_collected",
      variables: [{ name: "booking_ref", value: null }],
    });
    expect(rest?.caller.persona).toContain("None of these fits you");
    expect(rest?.expectations).toHaveLength(1);
    const listed = await call(t, "GET", api(`/test-suites/${suite.id}/cases`), { token: owner.token });
    expect(listed.json<TestCaseList>().items).toHaveLength(3);
  }, 60_000);

  it("asks the assistant's own model for cases from its prompt, and answers 502 when its answer is unusable", async () => {
    const agentId = await createAssistant(t, owner.token, {
      name: "Concierge",
      system_prompt: "You book tables at Bella Cucina.",
      ...keylessAssistant(llm.baseUrl),
    });
    const res = await call(t, "POST", api("/test-suites"), {
      token: owner.token,
      body: { name: "Concierge suite", agent_id: agentId },
    });
    const suite = res.json<TestSuite>();
    const generate = (count: number) =>
      call(t, "POST", api(`/test-suites/${suite.id}/cases/generate`), {
        token: owner.token,
        body: { source: "prompt", count },
      });

    proposal = [
      "Here you are:",
      "```json",
      JSON.stringify({
        cases: [
          { name: "Books for four", persona: "You want a table for four.", rubric: "A table for four is booked." },
          { name: "No name", persona: "", rubric: "" },
          { name: "Allergy", persona: "You have a nut allergy.", rubric: "The assistant notes the allergy." },
          { name: "Extra", persona: "You are extra.", rubric: "Too many." },
        ],
      }),
      "```",
    ].join("\n");
    const made = await generate(2);
    expect(made.statusCode, made.body).toBe(201);
    const cases = made.json<TestCaseList>().items;
    expect(cases.map((c) => c.name)).toEqual(["Books for four", "Allergy"]);
    expect(cases[0]).toMatchObject({
      caller: { mode: "persona", persona: "You want a table for four." },
      expectations: [{ type: "rubric", rubric: "A table for four is booked." }],
    });
    const asked = llm.requests.at(-1);
    expect(asked?.messages.find((m) => m.role === "user")?.content).toContain("You book tables at Bella Cucina.");

    proposal = "I would rather not.";
    const refused = await generate(3);
    expect(refused.statusCode).toBe(502);
    expect(refused.json().detail).toBe(TEST_SUITE_TEXTS.generateFailed);
    const still = await call(t, "GET", api(`/test-suites/${suite.id}/cases`), { token: owner.token });
    expect(still.json<TestCaseList>().items).toHaveLength(2);
  }, 60_000);
});
