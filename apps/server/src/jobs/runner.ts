import { randomUUID } from "node:crypto";
import { faultMessage } from "@parley/engine";
import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../db/client.ts";
import { noTracing } from "../lib/tracing/tracing.ts";
import type { JobOutcome, Tracing } from "../lib/tracing/tracing-types.ts";
import { type JobRow, jobs } from "./schema.ts";

/**
 * A handler that returns finishes its job; one that returns `{ again }` asks for the same job to run
 * again at that time (a long task done in slices: the campaign dialer), without counting an attempt.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: handlers that only finish return Promise<void>.
export type JobHandler = (payload: Record<string, unknown>, job: JobRow) => Promise<void | { again: Date }>;

export interface JobRunnerOptions {
  /** A failure that will be retried is a warning; without `warn` (a quiet test log) it goes to `error`. */
  log: {
    info(obj: object, msg: string): void;
    warn?(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  /** A span per job attempt when traces are exported (lib/tracing); none by default. */
  spans?: Tracing["jobs"];
  /** How often an idle runner looks for work (enqueue in this process wakes it at once). */
  pollMs?: number;
  /** A running job whose lock is older than this is taken to be orphaned and claimed again. */
  staleAfterMs?: number;
  /** Jobs run at the same time by this process, over the queues registered without a limit of their own. */
  concurrency?: number;
  /**
   * This process is the only one on the database (PGlite: one process per data directory), so at
   * start a job left running belongs to a process that died and is taken again at once rather than
   * after `staleAfterMs`.
   */
  exclusive?: boolean;
}

export interface QueueOptions {
  /**
   * Jobs of this queue run at once in this process, apart from the shared limit: long-running
   * queues (the campaign dialer) then never hold back the others (documents).
   */
  concurrency?: number;
  /**
   * Called, instead of the handler, for a job claimed once more after its last attempt: each
   * attempt ended with its process stopping (a crash, a kill for memory) before the handler could
   * finish or fail, so it would otherwise start again at every restart. The job is `failed`.
   */
  onGiveUp?: (payload: Record<string, unknown>, job: JobRow) => Promise<void>;
}

export interface EnqueueOptions {
  runAt?: Date;
  maxAttempts?: number;
}

/** Adds a job; inside a transaction it becomes visible only if the transaction commits. */
export async function enqueueJob(
  db: Executor,
  queue: string,
  payload: Record<string, unknown>,
  options: EnqueueOptions = {},
): Promise<JobRow> {
  const [row] = await db
    .insert(jobs)
    .values({
      queue,
      payload,
      ...(options.runAt ? { runAt: options.runAt } : {}),
      ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
    })
    .returning();
  if (!row) throw new Error("insert into jobs returned no row");
  return row;
}

/** A failed attempt waits 5 s, 25 s, 125 s … before the next. */
const backoffMs = (attempt: number) => 5_000 * 5 ** (attempt - 1);

/**
 * Runs the jobs of the queues it has handlers for, on PGlite and PostgreSQL alike. A handler that
 * throws is retried with backoff until max_attempts; one that returns has finished its job.
 */
export class JobRunner {
  readonly id = randomUUID();
  private readonly handlers = new Map<
    string,
    { handler: JobHandler; limit: number | null; onGiveUp: QueueOptions["onGiveUp"] }
  >();
  private readonly running = new Set<Promise<void>>();
  /** Jobs in hand per queue with its own limit, and in the shared pool. */
  private readonly runningByQueue = new Map<string, number>();
  private sharedRunning = 0;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private readonly pollMs: number;
  private readonly staleAfterMs: number;
  private readonly concurrency: number;

  constructor(
    private readonly db: Database,
    private readonly options: JobRunnerOptions,
  ) {
    this.pollMs = options.pollMs ?? 1_000;
    this.staleAfterMs = options.staleAfterMs ?? 60_000;
    this.concurrency = options.concurrency ?? 2;
  }

  register(queue: string, handler: JobHandler, options: QueueOptions = {}): void {
    this.handlers.set(queue, { handler, limit: options.concurrency ?? null, onGiveUp: options.onGiveUp });
  }

  /** This process is the only one on its database (see JobRunnerOptions.exclusive). */
  get exclusive(): boolean {
    return this.options.exclusive === true;
  }

  /** Adds a job and wakes this runner for it. */
  async enqueue(db: Executor, queue: string, payload: Record<string, unknown>, options?: EnqueueOptions) {
    const row = await enqueueJob(db, queue, payload, options);
    this.wake();
    return row;
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.options.exclusive) await this.releaseOrphans();
    this.heartbeat = setInterval(() => void this.renewLocks(), Math.max(50, this.staleAfterMs / 3));
    this.heartbeat.unref();
    this.wake();
  }

  /** Puts back the jobs a previous process left running (only when this process is alone on the database). */
  private async releaseOrphans(): Promise<void> {
    await this.db
      .update(jobs)
      .set({ status: "queued", lockedAt: null, lockedBy: null, runAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(jobs.status, "running"))
      .catch((err: unknown) => this.options.log.error({ err }, "could not release orphaned jobs"));
  }

  /** The queues this process may take one more job of now. */
  private claimableQueues(): string[] {
    const queues: string[] = [];
    for (const [queue, { limit }] of this.handlers) {
      const busy =
        limit === null ? this.sharedRunning >= this.concurrency : (this.runningByQueue.get(queue) ?? 0) >= limit;
      if (!busy) queues.push(queue);
    }
    return queues;
  }

  /**
   * Stops claiming and waits for the jobs in hand to finish (a sliced job, the campaign dialer, is
   * handed back queued at the end of its slice for another process to take). Their locks are renewed
   * until then, so no other process takes a job that is still running here for an orphan.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await Promise.allSettled([...this.running]);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  /** Looks for work now (after an enqueue, or once a job finishes). */
  wake(): void {
    if (this.stopped) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.polling = this.poll().finally(() => {
      this.polling = null;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.wake();
      } else {
        this.timer = setTimeout(() => this.wake(), this.pollMs);
        this.timer.unref();
      }
    });
  }

  private async poll(): Promise<void> {
    for (;;) {
      const queues = this.claimableQueues();
      if (this.stopped || queues.length === 0) return;
      let job: JobRow | null;
      try {
        job = await this.claim(queues);
      } catch (error) {
        this.options.log.error({ err: error }, "job runner could not claim a job");
        return;
      }
      if (!job) return;
      const own = (this.handlers.get(job.queue)?.limit ?? null) !== null;
      const queue = job.queue;
      if (own) this.runningByQueue.set(queue, (this.runningByQueue.get(queue) ?? 0) + 1);
      else this.sharedRunning += 1;
      const run = this.execute(job).finally(() => {
        this.running.delete(run);
        if (own) this.runningByQueue.set(queue, (this.runningByQueue.get(queue) ?? 1) - 1);
        else this.sharedRunning -= 1;
        this.wake();
      });
      this.running.add(run);
    }
  }

  /** Takes the next due job of a known queue, or a running one whose process stopped renewing its lock. */
  private async claim(queues: string[]): Promise<JobRow | null> {
    if (queues.length === 0) return null;
    const staleBefore = new Date(Date.now() - this.staleAfterMs);
    const next = this.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.queue, queues),
          or(
            and(eq(jobs.status, "queued"), lte(jobs.runAt, sql`now()`)),
            and(eq(jobs.status, "running"), lt(jobs.lockedAt, staleBefore)),
          ),
        ),
      )
      .orderBy(asc(jobs.runAt))
      .limit(1)
      .for("update", { skipLocked: true });
    const [row] = await this.db
      .update(jobs)
      .set({
        status: "running",
        attempts: sql`${jobs.attempts} + 1`,
        lockedAt: sql`now()`,
        lockedBy: this.id,
        updatedAt: sql`now()`,
      })
      .where(inArray(jobs.id, next))
      .returning();
    return row ?? null;
  }

  private async execute(job: JobRow): Promise<void> {
    const span = (this.options.spans ?? noTracing.jobs).startJob({
      queue: job.queue,
      id: job.id,
      attempt: job.attempts,
      maxAttempts: job.maxAttempts,
      payload: job.payload,
    });
    const outcome = await this.attempt(job);
    span.end(outcome);
  }

  /** Runs one attempt of the job and records how it went. */
  private async attempt(job: JobRow): Promise<JobOutcome> {
    // A claim counts an attempt, and a handler that throws on the last one fails its job: a job
    // claimed past its last attempt is one whose attempts all stopped their process.
    if (job.attempts > job.maxAttempts) return this.giveUp(job);
    const handler = this.handlers.get(job.queue)?.handler;
    try {
      if (!handler) throw new Error(`no handler for queue ${job.queue}`);
      const next = await handler(job.payload, job);
      await this.db
        .update(jobs)
        .set(
          next
            ? {
                status: "queued",
                runAt: next.again,
                attempts: sql`greatest(0, ${jobs.attempts} - 1)`,
                lockedAt: null,
                lockedBy: null,
                updatedAt: new Date(),
              }
            : { status: "done", lockedAt: null, lockedBy: null, lastError: null, updatedAt: new Date() },
        )
        .where(eq(jobs.id, job.id));
      if (next) this.wakeAt(next.again);
      return { outcome: next ? "again" : "done" };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= job.maxAttempts;
      this.logFailure(job, error, final);
      await this.db
        .update(jobs)
        .set({
          status: final ? "failed" : "queued",
          runAt: new Date(Date.now() + (final ? 0 : backoffMs(job.attempts))),
          lockedAt: null,
          lockedBy: null,
          lastError: message.slice(0, 2000),
          updatedAt: new Date(),
        })
        .where(eq(jobs.id, job.id))
        .catch((err: unknown) => this.options.log.error({ err }, "could not record a job failure"));
      return { outcome: final ? "failed" : "retry", error: faultMessage(error) };
    }
  }

  /** What an operator needs to find the job: its queue, id, attempt and workspace, and why (redacted). */
  private jobFields(job: JobRow) {
    const workspaceId = typeof job.payload.workspaceId === "string" ? job.payload.workspaceId : undefined;
    return { job: job.queue, jobId: job.id, attempt: job.attempts, maxAttempts: job.maxAttempts, workspaceId };
  }

  /** A failed attempt that will be retried is a warning; the last one is an error. */
  private logFailure(job: JobRow, error: unknown, final: boolean): void {
    const fields = { ...this.jobFields(job), err: error, error: faultMessage(error) };
    const { log } = this.options;
    if (final) log.error(fields, "job failed and was given up");
    else (log.warn ?? log.error).call(log, fields, "job failed, will retry");
  }

  private async giveUp(job: JobRow): Promise<JobOutcome> {
    const lastError = `its process stopped during each of its ${job.maxAttempts} attempts`;
    this.options.log.error({ ...this.jobFields(job), error: lastError }, "job failed and was given up");
    try {
      await this.db
        .update(jobs)
        .set({ status: "failed", lockedAt: null, lockedBy: null, lastError, updatedAt: new Date() })
        .where(eq(jobs.id, job.id));
      await this.handlers.get(job.queue)?.onGiveUp?.(job.payload, job);
    } catch (err) {
      this.options.log.error({ err, jobId: job.id }, "could not record a job given up");
    }
    return { outcome: "failed", error: lastError };
  }

  /** Idle runners look for due jobs every `pollMs`; a job due sooner than that wakes this one on time. */
  wakeAt(at: Date): void {
    const delay = at.getTime() - Date.now();
    if (delay > this.pollMs || this.stopped) return;
    if (delay <= 0) {
      this.wake();
      return;
    }
    setTimeout(() => this.wake(), delay + 2).unref();
  }

  /** Keeps this process's locks fresh so no other runner takes its jobs for orphans. */
  private async renewLocks(): Promise<void> {
    if (this.running.size === 0) return;
    await this.db
      .update(jobs)
      .set({ lockedAt: new Date() })
      .where(and(eq(jobs.lockedBy, this.id), eq(jobs.status, "running")))
      .catch((err: unknown) => this.options.log.error({ err }, "could not renew job locks"));
  }
}
