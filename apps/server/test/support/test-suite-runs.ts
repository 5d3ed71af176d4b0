import {
  type CreateTestCaseBody,
  type CreateTestSuiteBody,
  type Expectation,
  FINISHED_TEST_RUN_STATUSES,
  type SimulatedCaller,
  type StartTestRunBody,
  type TestResult,
  type TestResultStatus,
  type TestRun,
} from "@parley/contract";
import { asc, eq } from "drizzle-orm";
import { testResults, testRuns } from "../../src/modules/test-suites/schema.ts";
import { call, type TestApp } from "../harness.ts";
import { until } from "./until.ts";

/** A test call runs in real time (offline voice and recogniser): a run of a few short calls takes a minute or two. */
export const RUN_TIMEOUT_MS = 240_000;

async function created<T>(t: TestApp, token: string, url: string, body: unknown): Promise<T> {
  const res = await call(t, "POST", url, { token, body });
  if (res.statusCode !== 201) throw new Error(`POST ${url} failed: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

/** Creates a suite for the assistant with these cases (through the API); its id. */
export async function createSuite(
  t: TestApp,
  token: string,
  suite: CreateTestSuiteBody,
  cases: CreateTestCaseBody[],
): Promise<string> {
  const { id } = await created<{ id: string }>(t, token, "/api/v1/test-suites", suite);
  for (const body of cases) await created(t, token, `/api/v1/test-suites/${id}/cases`, body);
  return id;
}

/** POST /test-suites/{id}/runs: the queued run. */
export const startRun = (t: TestApp, token: string, suiteId: string, body: StartTestRunBody = {}) =>
  created<TestRun>(t, token, `/api/v1/test-suites/${suiteId}/runs`, body);

export async function readRun(t: TestApp, token: string, suiteId: string, runId: string): Promise<TestRun> {
  const res = await call(t, "GET", `/api/v1/test-suites/${suiteId}/runs/${runId}`, { token });
  if (res.statusCode !== 200) throw new Error(`GET run failed: ${res.statusCode} ${res.body}`);
  return res.json<TestRun>();
}

const finished = (run: TestRun) => (FINISHED_TEST_RUN_STATUSES as readonly string[]).includes(run.status);

/** The run once it has finished, every result written. */
export const finishedRun = (t: TestApp, token: string, suiteId: string, runId: string) =>
  until(
    () => readRun(t, token, suiteId, runId),
    (run) => finished(run) && run.results.every((r) => !["pending", "running"].includes(r.status)),
    "the test run to finish",
    RUN_TIMEOUT_MS,
  );

/** The run once one of its results matches `holds`. */
export const runWhere = (
  t: TestApp,
  token: string,
  suiteId: string,
  runId: string,
  holds: (result: TestResult) => boolean,
  what: string,
) =>
  until(
    () => readRun(t, token, suiteId, runId),
    (run) => run.results.some(holds),
    what,
    RUN_TIMEOUT_MS,
  );

/** A run's result for the case named `name` (its first attempt unless said). */
export function resultOf(run: TestRun, name: string, attempt = 1): TestResult {
  const result = run.results.find((r) => r.case_name === name && r.attempt === attempt);
  if (!result) throw new Error(`no result for ${name} #${attempt}: ${JSON.stringify(run.results).slice(0, 500)}`);
  return result;
}

/** A result row as a run would hold it: the case's copy, and how far it got. */
export interface ResultSeed {
  caseName: string;
  caller: SimulatedCaller;
  expectations: Expectation[];
  status: TestResultStatus;
  callId?: string | null;
}

/**
 * A running run written straight to its tables, with no job behind it: for what a job's later
 * attempts find (results a dead process left running) without killing a process.
 */
export async function insertRunningRun(t: TestApp, workspaceId: string, agentId: string, seeds: ResultSeed[]) {
  const now = new Date();
  const [run] = await t.ctx.db
    .insert(testRuns)
    .values({ workspaceId, agentId, suiteName: "Seeded", status: "running", trigger: "api", repeat: 1, startedAt: now })
    .returning();
  if (!run) throw new Error("no run inserted");
  await t.ctx.db.insert(testResults).values(
    seeds.map((seed, i) => ({
      workspaceId,
      runId: run.id,
      caseName: seed.caseName,
      attempt: 1,
      caller: seed.caller,
      expectations: seed.expectations,
      status: seed.status,
      callId: seed.callId ?? null,
      startedAt: seed.status === "pending" ? null : now,
      createdAt: new Date(now.getTime() + i),
    })),
  );
  return run.id;
}

/** The run's results, straight from the table, in order. */
export const resultRows = (t: TestApp, runId: string) =>
  t.ctx.db.select().from(testResults).where(eq(testResults.runId, runId)).orderBy(asc(testResults.createdAt));

export const runRow = async (t: TestApp, runId: string) =>
  (await t.ctx.db.select().from(testRuns).where(eq(testRuns.id, runId)))[0];
