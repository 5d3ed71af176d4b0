import {
  FINISHED_TEST_RUN_STATUSES,
  type TestCase,
  type TestCaseOutcome,
  type TestResult,
  type TestRun,
  type TestRunComparison,
  type TestRunSummary,
  type TestSuite,
} from "@parley/contract";
import { asc, desc, eq, inArray, lt, ne } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type testCases, testResults, testRuns, type testSuites } from "./schema.ts";

type SuiteRow = typeof testSuites.$inferSelect;
type CaseRow = typeof testCases.$inferSelect;
type RunRow = typeof testRuns.$inferSelect;
type ResultRow = typeof testResults.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The suite's latest run as a suite lists it. */
export type LastRun = TestSuite["last_run"];

export function toSuite(row: SuiteRow, agentName: string, caseCount: number, lastRun: LastRun): TestSuite {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    agent_id: row.agentId,
    agent_name: agentName,
    repeat: row.repeat,
    judge_model: row.judgeModel ?? null,
    case_count: caseCount,
    last_run: lastRun,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toCase(row: CaseRow): TestCase {
  return {
    id: row.id,
    suite_id: row.suiteId,
    name: row.name,
    caller: row.caller,
    expectations: row.expectations,
    variables: row.variables,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toResult(row: ResultRow): TestResult {
  return {
    id: row.id,
    case_id: row.caseId,
    case_name: row.caseName,
    attempt: row.attempt,
    status: row.status,
    call_id: row.callId,
    agent_version: row.agentVersion,
    error: row.error,
    expectations: row.verdicts,
    figures: row.figures ?? null,
    caller_turns: row.callerTurns,
    call_events: row.callEvents,
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
  };
}

/** A case's results share a key: its id, or its name once the case was deleted (case_id set null). */
const caseKey = (r: Pick<ResultRow, "caseId" | "caseName">) => r.caseId ?? `deleted:${r.caseName}`;

/**
 * A case over its attempts. Unfinished attempts make it pending (none started) or running; attempts
 * cancelled before they ran are left out of the verdict, and a case none of whose attempts ran is
 * cancelled. Of the rest: all passed → passed; some passed, some failed → flaky; any failed → failed;
 * otherwise (errors with no failure) → error, since an error is no verdict on the assistant.
 */
function outcomeStatus(results: ResultRow[]): TestCaseOutcome["status"] {
  const count = (status: ResultRow["status"]) => results.filter((r) => r.status === status).length;
  const [passed, failed] = [count("passed"), count("failed")];
  const judged = passed + failed + count("error");
  if (count("running") > 0) return "running";
  if (count("pending") > 0) return judged > 0 ? "running" : "pending";
  if (judged === 0) return "cancelled";
  if (passed === judged) return "passed";
  if (failed > 0) return passed > 0 ? "flaky" : "failed";
  return "error";
}

/** The cases of a run, in the order of its results (case, then attempt). */
export function caseOutcomes(results: ResultRow[]): TestCaseOutcome[] {
  const byCase = new Map<string, ResultRow[]>();
  for (const r of results) {
    const attempts = byCase.get(caseKey(r));
    if (attempts) attempts.push(r);
    else byCase.set(caseKey(r), [r]);
  }
  return [...byCase.values()].map((attempts) => {
    const first = attempts[0] as ResultRow;
    return {
      case_id: first.caseId,
      case_name: first.caseName,
      status: outcomeStatus(attempts),
      passed_attempts: attempts.filter((r) => r.status === "passed").length,
      attempts: attempts.length,
    };
  });
}

/** Nearest-rank percentile of the values; null when there are none. */
function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? null;
}

/** What a run's calls add up to: the figures of the results that made a call. */
function runFigures(results: ResultRow[]) {
  const figures = results.flatMap((r) => (r.figures ? [r.figures] : []));
  const cost = figures.reduce((sum, f) => sum + f.cost, 0);
  return {
    // The p95 over the calls' own p95s: the results keep per-call percentiles, not every turn's
    // latency, and a run's slow tail is a call whose slow turns already show in its own p95.
    latencyP95: percentile(
      figures.flatMap((f) => (f.latency_p95_ms === null ? [] : [f.latency_p95_ms])),
      95,
    ),
    // Rounded to a millionth of a dollar: sums of many small floats would show noise digits.
    cost: Math.round(cost * 1e6) / 1e6,
    calls: figures.length,
  };
}

export function toRunSummary(run: RunRow, results: ResultRow[]): TestRunSummary {
  const cases = caseOutcomes(results);
  const of = (status: TestCaseOutcome["status"]) => cases.filter((c) => c.status === status).length;
  const figures = runFigures(results);
  return {
    id: run.id,
    suite_id: run.suiteId ?? "",
    suite_name: run.suiteName,
    agent_id: run.agentId,
    status: run.status,
    trigger: run.trigger,
    repeat: run.repeat,
    agent_version: run.agentVersion,
    totals: { cases: cases.length, passed: of("passed"), failed: of("failed"), flaky: of("flaky"), error: of("error") },
    latency_p95_ms: figures.latencyP95,
    cost: figures.cost,
    created_at: run.createdAt.toISOString(),
    started_at: iso(run.startedAt),
    finished_at: iso(run.finishedAt),
  };
}

/** Results in their run's order: each was created a millisecond after the one before (runs.ts). */
const resultOrder = [asc(testResults.createdAt), asc(testResults.attempt), asc(testResults.id)];

/** The results of these runs, by run, in order. */
export async function resultsOfRuns(
  db: Executor,
  tenant: TenantScope,
  runIds: string[],
): Promise<Map<string, ResultRow[]>> {
  const byRun = new Map<string, ResultRow[]>(runIds.map((id) => [id, []]));
  if (runIds.length === 0) return byRun;
  const rows = await db
    .select()
    .from(testResults)
    .where(scoped(testResults, tenant).where(inArray(testResults.runId, runIds)))
    .orderBy(...resultOrder);
  for (const row of rows) byRun.get(row.runId)?.push(row);
  return byRun;
}

const PASSING: readonly TestCaseOutcome["status"][] = ["passed"];
const FAILING: readonly TestCaseOutcome["status"][] = ["failed", "flaky", "error"];

/** Cases whose outcome moved from one group to the other between the runs (matched by case id). */
function moved(before: TestCaseOutcome[], after: TestCaseOutcome[], from: typeof PASSING, to: typeof PASSING) {
  const previous = new Map(before.flatMap((c) => (c.case_id ? [[c.case_id, c.status] as const] : [])));
  return after.flatMap((c) => {
    const was = c.case_id ? previous.get(c.case_id) : undefined;
    return c.case_id && was && from.includes(was) && to.includes(c.status)
      ? [{ case_id: c.case_id, case_name: c.case_name }]
      : [];
  });
}

export function compareRuns(previous: { run: RunRow; results: ResultRow[] }, current: ResultRow[]): TestRunComparison {
  const before = caseOutcomes(previous.results);
  const after = caseOutcomes(current);
  const was = runFigures(previous.results);
  const now = runFigures(current);
  const perCall = (f: typeof now) => (f.calls > 0 ? f.cost / f.calls : null);
  const [costBefore, costNow] = [perCall(was), perCall(now)];
  return {
    previous_run_id: previous.run.id,
    newly_failing: moved(before, after, PASSING, FAILING),
    newly_passing: moved(before, after, FAILING, PASSING),
    latency_p95_delta_ms: was.latencyP95 !== null && now.latencyP95 !== null ? now.latencyP95 - was.latencyP95 : null,
    cost_per_call_delta:
      costBefore !== null && costNow !== null ? Math.round((costNow - costBefore) * 1e6) / 1e6 : null,
  };
}

/**
 * The suite's run before this one that ran to its end; a cancelled run is passed over, since its
 * cases never ran and would read as changes that are not there.
 */
async function previousRun(db: Executor, tenant: TenantScope, run: RunRow): Promise<RunRow | undefined> {
  if (!run.suiteId) return undefined;
  const finished = FINISHED_TEST_RUN_STATUSES.filter((s) => s !== "cancelled");
  const [row] = await db
    .select()
    .from(testRuns)
    .where(
      scoped(testRuns, tenant).where(
        eq(testRuns.suiteId, run.suiteId),
        ne(testRuns.id, run.id),
        lt(testRuns.createdAt, run.createdAt),
        inArray(testRuns.status, finished),
      ),
    )
    .orderBy(desc(testRuns.createdAt), desc(testRuns.id))
    .limit(1);
  return row;
}

async function findRun(db: Executor, tenant: TenantScope, runId: string): Promise<RunRow | undefined> {
  const [row] = await db
    .select()
    .from(testRuns)
    .where(scoped(testRuns, tenant).where(eq(testRuns.id, runId)));
  return row;
}

/** A run with its cases, results and the comparison with the suite's previous run; null when not the tenant's. */
export async function loadRun(db: Executor, tenant: TenantScope, runId: string): Promise<TestRun | null> {
  const run = await findRun(db, tenant, runId);
  if (!run) return null;
  const before = await previousRun(db, tenant, run);
  const byRun = await resultsOfRuns(db, tenant, before ? [run.id, before.id] : [run.id]);
  const own = byRun.get(run.id) ?? [];
  return {
    ...toRunSummary(run, own),
    cases: caseOutcomes(own),
    results: own.map(toResult),
    comparison: before ? compareRuns({ run: before, results: byRun.get(before.id) ?? [] }, own) : null,
  };
}

/** A run's summary (the `test.run.completed` webhook's data); null when not the tenant's. */
export async function loadRunSummary(db: Executor, tenant: TenantScope, runId: string): Promise<TestRunSummary | null> {
  const run = await findRun(db, tenant, runId);
  if (!run) return null;
  const byRun = await resultsOfRuns(db, tenant, [run.id]);
  return toRunSummary(run, byRun.get(run.id) ?? []);
}
