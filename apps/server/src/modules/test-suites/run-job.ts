import type { Assistant } from "@parley/contract";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { JobRow } from "../../jobs/schema.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { findAssistantAtVersion } from "../assistants/call-assistant.ts";
import { concurrencyLimitOf } from "../workspaces/service.ts";
import { judgeModel } from "./caller-providers.ts";
import { lazyJudge } from "./judge.ts";
import {
  endUnfinishedResults,
  findRun,
  finishRun,
  isFinishedRun,
  listResults,
  markRunRunning,
  requeueOrphans,
  runOutcome,
  settleCancelledRun,
  type TestResultRow,
  type TestRunRow,
} from "./run-rows.ts";
import { testSuites } from "./schema.ts";
import { runTestCall, type TestCallDeps } from "./test-call.ts";

export const TEST_RUN_QUEUE = "test-runs";
/**
 * Runs one process holds at once, apart from the shared pool: a run lasts minutes (its calls are
 * real time), and in the shared pool two of them would hold back metering, analysis and documents.
 * Each run's calls are bounded by the workspace's concurrency on their own.
 */
export const TEST_RUN_JOBS_PER_PROCESS = 4;

export const TestRunJobPayload = z.object({ workspaceId: z.uuid(), runId: z.uuid() });
export type TestRunJobPayload = z.infer<typeof TestRunJobPayload>;

/** How often a running run looks whether it was cancelled. */
const CANCEL_POLL_MS = 1_000;
/** How often a run waits on results another process still runs (its previous attempt, not yet gone). */
const ELSEWHERE_POLL_MS = 2_000;

const GIVEN_UP =
  "The server running this test run stopped before the run could finish, every time it was tried; run the suite again.";
const NO_ASSISTANT = "The suite's assistant was deleted before this test call could run.";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a test run (queue `test-runs`): marks it running, calls its pending results in parallel — at
 * most the workspace's concurrency limit at once — writing each as it finishes, watches for a
 * cancel, then writes the run's final status and announces `test.run.completed`. A retried attempt
 * (its process died) keeps the finished results and calls again those whose call is no longer
 * live. A draining server calls no new results and hands the job back for another process.
 */
export async function runTestRunJob(
  ctx: AppContext,
  log: FastifyBaseLogger,
  payload: Record<string, unknown>,
  job: JobRow,
): Promise<{ again: Date } | undefined> {
  const { workspaceId, runId } = TestRunJobPayload.parse(payload);
  const tenant: TenantScope = { workspaceId };
  const run = await findRun(ctx.db, tenant, runId);
  if (!run) return;
  // Cancelled while an earlier attempt ran it (its server gone): the cancel left its announcement to the job.
  if (run.status === "cancelled" && run.startedAt !== null) return settleCancelled(ctx, tenant, runId);
  if (isFinishedRun(run.status)) return;
  if (!(await markRunRunning(ctx.db, tenant, run, ctx.now()))) return;
  if (job.attempts > 1)
    log.info({ workspaceId, runId, attempt: job.attempts }, "a test run resumes after its server stopped");
  // The run's version prepares its calls (the caller's defaults, the call limit, the judge) as it runs them.
  const assistant = await findAssistantAtVersion(ctx.db, tenant, run.agentId, run.agentVersion);
  if (!assistant) {
    log.warn({ workspaceId, runId, agentId: run.agentId }, "a test run's assistant was deleted: its calls are not run");
    await endUnfinishedResults(ctx.db, tenant, runId, "error", NO_ASSISTANT, ctx.now());
    await complete(ctx, tenant, runId);
    return;
  }
  const cancelled = new AbortController();
  const watching = watchForCancel(ctx, tenant, runId, cancelled);
  try {
    await callResults(ctx, log, run, assistant, cancelled.signal);
  } finally {
    watching.stop();
  }
  if (cancelled.signal.aborted) return settleCancelled(ctx, tenant, runId);
  const pending = (await listResults(ctx.db, tenant, runId)).some((r) => r.status === "pending");
  // This server is stopping (draining, or its calls were ended): the job and its pending results go back at once, for another process.
  if (pending) return { again: ctx.now() };
  await complete(ctx, tenant, runId);
}

/**
 * Calls every pending result, `limit` at a time, until none is pending and none still runs on
 * another process; results left running by a dead attempt are called again.
 */
async function callResults(
  ctx: AppContext,
  log: FastifyBaseLogger,
  run: TestRunRow,
  assistant: Assistant,
  cancelled: AbortSignal,
): Promise<void> {
  const tenant: TenantScope = { workspaceId: run.workspaceId };
  const deps: TestCallDeps = {
    ctx,
    log,
    tenant,
    runId: run.id,
    assistant,
    judge: lazyJudge(async () => judgeModel(ctx, run.workspaceId, await suiteJudge(ctx, tenant, run), assistant)),
    cancelled,
  };
  const limit = Math.max(1, await concurrencyLimitOf(ctx.db, tenant));
  for (;;) {
    const live = (await ctx.calls.rooms.listAll(run.workspaceId)).map((room) => room.call_id);
    await requeueOrphans(ctx.db, tenant, run.id, live);
    const results = await listResults(ctx.db, tenant, run.id);
    const pending = results.filter((r) => r.status === "pending");
    const elsewhere = results.some((r) => r.status === "running");
    if (cancelled.aborted || !ctx.node.accepting) return;
    if (pending.length > 0) {
      // A call the server ended (it is stopping) hands the rest back too, rather than start new calls.
      const calls = await inParallel(
        pending,
        limit,
        async (result) => (await runTestCall(deps, result)) === "finished",
      );
      if (!calls) return;
    } else if (elsewhere) await sleep(ELSEWHERE_POLL_MS);
    else return;
  }
}

/** Runs `work` over `items`, at most `limit` at once, until one answers false; whether none did. */
async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<boolean>): Promise<boolean> {
  const queue = [...items];
  let goOn = true;
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined && goOn; item = queue.shift()) {
      if (!(await work(item))) goOn = false;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return goOn;
}

async function suiteJudge(ctx: AppContext, tenant: TenantScope, run: TestRunRow) {
  if (!run.suiteId) return null;
  const [suite] = await ctx.db
    .select({ judgeModel: testSuites.judgeModel })
    .from(testSuites)
    .where(scoped(testSuites, tenant).where(eq(testSuites.id, run.suiteId)));
  return suite?.judgeModel ?? null;
}

/** Looks every second whether the run was cancelled, and aborts `cancelled` when it was. */
function watchForCancel(ctx: AppContext, tenant: TenantScope, runId: string, cancelled: AbortController) {
  let stopped = false;
  void (async () => {
    while (!stopped && !cancelled.signal.aborted) {
      await sleep(CANCEL_POLL_MS);
      const run = await findRun(ctx.db, tenant, runId).catch(() => undefined);
      if (!stopped && (run?.status === "cancelled" || !run)) cancelled.abort();
    }
  })();
  return {
    stop: () => {
      stopped = true;
    },
  };
}

/** A cancelled run, its live calls hung up: what is left unfinished is cancelled, and the run announced. */
async function settleCancelled(ctx: AppContext, tenant: TenantScope, runId: string): Promise<undefined> {
  await endUnfinishedResults(ctx.db, tenant, runId, "cancelled", null, ctx.now());
  await settleCancelledRun(ctx.db, tenant, runId, ctx.now());
  ctx.events.emit("test.run.completed", { workspaceId: tenant.workspaceId, runId });
  return undefined;
}

/** Writes the run's final status from its results and announces it. */
async function complete(ctx: AppContext, tenant: TenantScope, runId: string): Promise<void> {
  const results: TestResultRow[] = await listResults(ctx.db, tenant, runId);
  const status = runOutcome(results.map((r) => r.status));
  await finishRun(ctx.db, tenant, runId, status, ctx.now());
  ctx.events.emit("test.run.completed", { workspaceId: tenant.workspaceId, runId });
}

/**
 * The job was claimed again after its last attempt, every attempt having ended with its process:
 * the run ends as `error`, its unfinished results with the sentence why.
 */
export async function giveUpTestRun(ctx: AppContext, payload: Record<string, unknown>): Promise<void> {
  const { workspaceId, runId } = TestRunJobPayload.parse(payload);
  const tenant: TenantScope = { workspaceId };
  const run = await findRun(ctx.db, tenant, runId);
  if (!run || isFinishedRun(run.status)) return;
  await endUnfinishedResults(ctx.db, tenant, runId, "error", GIVEN_UP, ctx.now());
  await finishRun(ctx.db, tenant, runId, "error", ctx.now());
  ctx.events.emit("test.run.completed", { workspaceId, runId });
}
