import {
  type StartTestRunBody,
  TEST_SUITE_TEXTS,
  type TestRun,
  type TestRunPage,
  type TestRunsQuery,
  type TestRunTrigger,
} from "@parley/contract";
import { desc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Executor, Transaction } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { pagedRows, pageOf, pageWindow } from "../../lib/paging.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { requireAgent } from "../assistants/service.ts";
import { findVersionRow } from "../assistants/versions.ts";
import { testResults, testRuns } from "./schema.ts";
import { type CaseRow, listCases, requireSuite } from "./service.ts";
import { loadRun, resultsOfRuns, toRunSummary } from "./views.ts";

type RunRow = typeof testRuns.$inferSelect;

/** Puts the run's job on the queue inside the run's own transaction (routes.ts hands in the job runner). */
export type EnqueueRun = (tx: Transaction, payload: { workspaceId: string; runId: string }) => Promise<unknown>;

/** The cases a run calls: all of the suite's, or those asked for (each must be the suite's). */
function casesToRun(cases: CaseRow[], caseIds: string[] | undefined): CaseRow[] {
  if (caseIds === undefined) return cases;
  const wanted = new Set(caseIds);
  const known = new Set(cases.map((c) => c.id));
  if ([...wanted].some((id) => !known.has(id))) throw new AppError("validation", TEST_SUITE_TEXTS.unknownCases);
  return cases.filter((c) => wanted.has(c.id));
}

/**
 * The assistant version a run calls: the one asked for, else the one published now, so every call
 * of the run runs the same configuration however the assistant is published meanwhile. A version
 * the assistant does not have is refused (422 on `version`).
 */
async function versionToRun(db: Executor, tenant: TenantScope, agentId: string, asked: number | undefined) {
  const agent = await requireAgent(db, tenant, agentId);
  if (asked === undefined || asked === agent.publishedVersion) return agent.publishedVersion;
  if (await findVersionRow(db, tenant, agentId, asked)) return asked;
  const message = TEST_SUITE_TEXTS.unknownVersion(asked, agent.publishedVersion);
  throw new AppError("validation", message, {}, [{ field: "version", message }]);
}

/**
 * Starts a run: the run (queued), a pending result per case and attempt with a copy of the case as
 * it reads now, and the job that calls them, in one transaction, so a run never exists without
 * its job. Results are created a millisecond apart in case-then-attempt order, the order a run reads in.
 * The run calls `body.version` of the assistant, by default the one published now (versionToRun).
 */
export async function startRun(
  db: Executor,
  tenant: TenantScope,
  suiteId: string,
  body: z.output<typeof StartTestRunBody>,
  trigger: TestRunTrigger,
  enqueue: EnqueueRun,
): Promise<TestRun> {
  const runId = await db.transaction(async (tx) => {
    const suite = await requireSuite(tx, tenant, suiteId);
    const cases = casesToRun(await listCases(tx, tenant, suite.id), body.case_ids);
    if (cases.length === 0) throw new AppError("validation", TEST_SUITE_TEXTS.noCases);
    const repeat = body.repeat ?? suite.repeat;
    const agentVersion = await versionToRun(tx, tenant, suite.agentId, body.version);
    const [run] = await tx
      .insert(testRuns)
      .values(
        scoped(testRuns, tenant).values({
          suiteId: suite.id,
          suiteName: suite.name,
          agentId: suite.agentId,
          status: "queued" as const,
          trigger,
          repeat,
          agentVersion,
        }),
      )
      .returning();
    if (!run) throw new Error("insert into test_runs returned no row");
    const base = Date.now();
    const attempts = cases.flatMap((c) => Array.from({ length: repeat }, (_, i) => ({ c, attempt: i + 1 })));
    await tx.insert(testResults).values(
      attempts.map(({ c, attempt }, i) =>
        scoped(testResults, tenant).values({
          runId: run.id,
          caseId: c.id,
          caseName: c.name,
          attempt,
          caller: c.caller,
          expectations: c.expectations,
          variables: c.variables,
          createdAt: new Date(base + i),
        }),
      ),
    );
    await enqueue(tx, { workspaceId: tenant.workspaceId, runId: run.id });
    return run.id;
  });
  return found((await loadRun(db, tenant, runId)) ?? undefined, TEST_SUITE_TEXTS.runNotFound);
}

/** A run of this suite (another suite's run, or another workspace's, is a 404). */
export async function requireRun(db: Executor, tenant: TenantScope, suiteId: string, runId: string): Promise<RunRow> {
  const [row] = await db
    .select()
    .from(testRuns)
    .where(scoped(testRuns, tenant).where(eq(testRuns.id, runId), eq(testRuns.suiteId, suiteId)));
  return found(row, TEST_SUITE_TEXTS.runNotFound);
}

export async function getRun(db: Executor, tenant: TenantScope, suiteId: string, runId: string): Promise<TestRun> {
  await requireRun(db, tenant, suiteId, runId);
  return found((await loadRun(db, tenant, runId)) ?? undefined, TEST_SUITE_TEXTS.runNotFound);
}

/** Cancels the run if it is in this state; whether it was. */
async function cancelIf(tx: Executor, tenant: TenantScope, runId: string, status: "queued" | "running", now: Date) {
  const rows = await tx
    .update(testRuns)
    .set({ status: "cancelled", finishedAt: now, updatedAt: now })
    .where(scoped(testRuns, tenant).where(eq(testRuns.id, runId), eq(testRuns.status, status)))
    .returning({ id: testRuns.id });
  return rows.length > 0;
}

/**
 * Cancels a queued or running run: the run is cancelled at once and its results not yet started
 * with it; a finished run is a 409. A running run's job sees the cancel, ends the calls still live
 * and announces `test.run.completed`; a queued run's job will find it finished and do nothing, so
 * the cancel announces it (`announce`). Each state is tried on its own so exactly one side does.
 */
export async function cancelRun(
  db: Executor,
  tenant: TenantScope,
  ids: { suiteId: string; runId: string },
  now: Date,
  announce: () => void,
): Promise<TestRun> {
  const { suiteId, runId } = ids;
  await requireRun(db, tenant, suiteId, runId);
  const was = await db.transaction(async (tx) => {
    const queued = await cancelIf(tx, tenant, runId, "queued", now);
    if (!queued && !(await cancelIf(tx, tenant, runId, "running", now))) return null;
    await tx
      .update(testResults)
      .set({ status: "cancelled", finishedAt: now })
      .where(scoped(testResults, tenant).where(eq(testResults.runId, runId), eq(testResults.status, "pending")));
    return queued ? "queued" : "running";
  });
  if (was === null) throw new AppError("conflict", TEST_SUITE_TEXTS.runFinished);
  if (was === "queued") announce();
  return getRun(db, tenant, suiteId, runId);
}

/** A suite's runs, newest first, as summaries. */
export async function listRuns(
  db: Executor,
  tenant: TenantScope,
  suiteId: string,
  q: z.output<typeof TestRunsQuery>,
): Promise<TestRunPage> {
  const where = scoped(testRuns, tenant).where(eq(testRuns.suiteId, suiteId));
  const order = [desc(testRuns.createdAt), desc(testRuns.id)];
  const { rows, total } = await pagedRows(db, testRuns, where, order, pageWindow(q));
  const results = await resultsOfRuns(
    db,
    tenant,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows.map((run) => toRunSummary(run, results.get(run.id) ?? [])),
    total,
    q,
  );
}
