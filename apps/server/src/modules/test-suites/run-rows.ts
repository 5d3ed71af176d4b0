import {
  type CallerTurn,
  type CallLogEvent,
  type ExpectationResult,
  FINISHED_TEST_RUN_STATUSES,
  type TestCallFigures,
  type TestResultStatus,
  type TestRunStatus,
} from "@parley/contract";
import { asc, eq, inArray, isNull, notInArray, or } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { CallRequest } from "../../lib/call-runtime.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { testResults as results, testRuns as runs } from "./schema.ts";

/**
 * The runner's reads and writes of a run and its results. Every write of a result that is running
 * only applies while it still is, so a cancel (which the API writes) is never overwritten by a call
 * finishing after it.
 */

export type TestResultRow = typeof results.$inferSelect;

/** A result handed back to be called again: nothing of its last call stays. */
const NOT_STARTED = {
  callId: null,
  agentVersion: null,
  startedAt: null,
  verdicts: [],
  figures: null,
  error: null,
};
export type TestRunRow = typeof runs.$inferSelect;

export const isFinishedRun = (status: TestRunStatus) =>
  (FINISHED_TEST_RUN_STATUSES as readonly TestRunStatus[]).includes(status);

export async function findRun(db: Executor, tenant: TenantScope, runId: string): Promise<TestRunRow | undefined> {
  const [row] = await db
    .select()
    .from(runs)
    .where(scoped(runs, tenant).where(eq(runs.id, runId)));
  return row;
}

/** Marks a queued run running (a retried one keeps its first start); false when it has finished meanwhile. */
export async function markRunRunning(db: Executor, tenant: TenantScope, run: TestRunRow, now: Date): Promise<boolean> {
  const rows = await db
    .update(runs)
    .set({ status: "running", startedAt: run.startedAt ?? now, updatedAt: now })
    .where(scoped(runs, tenant).where(eq(runs.id, run.id), inArray(runs.status, ["queued", "running"])))
    .returning({ id: runs.id });
  return rows.length > 0;
}

/** Writes the run's final status unless it was cancelled (or finished) meanwhile; false then. */
export async function finishRun(
  db: Executor,
  tenant: TenantScope,
  runId: string,
  status: TestRunStatus,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(runs)
    .set({ status, finishedAt: now, updatedAt: now })
    .where(scoped(runs, tenant).where(eq(runs.id, runId), inArray(runs.status, ["queued", "running"])))
    .returning({ id: runs.id });
  return rows.length > 0;
}

/** A cancelled run's end, once its calls have been hung up (the API may have written it already). */
export async function settleCancelledRun(db: Executor, tenant: TenantScope, runId: string, now: Date): Promise<void> {
  await db
    .update(runs)
    .set({ finishedAt: now, updatedAt: now })
    .where(scoped(runs, tenant).where(eq(runs.id, runId), eq(runs.status, "cancelled"), isNull(runs.finishedAt)));
}

export async function listResults(db: Executor, tenant: TenantScope, runId: string): Promise<TestResultRow[]> {
  return db
    .select()
    .from(results)
    .where(scoped(results, tenant).where(eq(results.runId, runId)))
    .orderBy(asc(results.createdAt), asc(results.attempt), asc(results.id));
}

/**
 * The result's call has started, running `agentVersion` of the assistant: it is running from now.
 * False when it is no longer pending (cancelled).
 */
export async function markResultRunning(
  db: Executor,
  tenant: TenantScope,
  resultId: string,
  call: { callId: string; agentVersion: number | null },
  now: Date,
): Promise<boolean> {
  const { callId, agentVersion } = call;
  const rows = await db
    .update(results)
    .set({ status: "running", callId, agentVersion, startedAt: now, finishedAt: null, error: null })
    .where(scoped(results, tenant).where(eq(results.id, resultId), eq(results.status, "pending")))
    .returning({ id: results.id });
  return rows.length > 0;
}

export interface ResultEnd {
  status: Exclude<TestResultStatus, "pending" | "running">;
  error?: string | null;
  verdicts?: ExpectationResult[];
  figures?: TestCallFigures | null;
  callerTurns?: CallerTurn[];
  callEvents?: CallLogEvent[];
}

/** Writes a result's end; a result still pending (its call never started) ends too. */
export async function finishResult(
  db: Executor,
  tenant: TenantScope,
  resultId: string,
  end: ResultEnd,
  now: Date,
): Promise<void> {
  await db
    .update(results)
    .set({
      status: end.status,
      error: end.error ?? null,
      verdicts: end.verdicts ?? [],
      figures: end.figures ?? null,
      callerTurns: end.callerTurns ?? [],
      callEvents: end.callEvents ?? [],
      finishedAt: now,
    })
    .where(scoped(results, tenant).where(eq(results.id, resultId), inArray(results.status, ["pending", "running"])));
}

/** A test run's calls run the run's version (issue 30); a call that is no test run's is not this module's to pin. */
export async function testRunVersionPin(
  db: Executor,
  tenant: TenantScope,
  request: CallRequest,
): Promise<number | null> {
  if (request.channel !== "test" || !request.testRunId) return null;
  return (await findRun(db, tenant, request.testRunId))?.agentVersion ?? null;
}

/** A running result goes back to pending, to be called again (its call ended with the server, not the test). */
export async function requeueResult(db: Executor, tenant: TenantScope, resultId: string): Promise<void> {
  await db
    .update(results)
    .set({ status: "pending", ...NOT_STARTED })
    .where(scoped(results, tenant).where(eq(results.id, resultId), eq(results.status, "running")));
}

/**
 * Results left running by an attempt that died: those whose call is not live on any process (or
 * never got one) go back to pending. Their call logs are closed by call upkeep as a crash.
 */
export async function requeueOrphans(
  db: Executor,
  tenant: TenantScope,
  runId: string,
  liveCallIds: string[],
): Promise<number> {
  const notLive =
    liveCallIds.length > 0 ? or(isNull(results.callId), notInArray(results.callId, liveCallIds)) : undefined;
  const rows = await db
    .update(results)
    .set({ status: "pending", ...NOT_STARTED })
    .where(scoped(results, tenant).where(eq(results.runId, runId), eq(results.status, "running"), notLive))
    .returning({ id: results.id });
  return rows.length;
}

/** Ends every result of the run that has not finished with `status` and the sentence why. */
export async function endUnfinishedResults(
  db: Executor,
  tenant: TenantScope,
  runId: string,
  status: "cancelled" | "error",
  error: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(results)
    .set({ status, error, finishedAt: now })
    .where(scoped(results, tenant).where(eq(results.runId, runId), inArray(results.status, ["pending", "running"])));
}

/** A run's status from its results: passed when all passed, failed when any failed, else error. */
export function runOutcome(statuses: TestResultStatus[]): "passed" | "failed" | "error" {
  if (statuses.some((s) => s === "failed")) return "failed";
  if (statuses.every((s) => s === "passed")) return "passed";
  return "error";
}
