import type { FastifyBaseLogger } from "fastify";
import type { Database, Executor } from "../../db/client.ts";
import type { JobRunner } from "../../jobs/runner.ts";
import type { ServerEvents } from "../../lib/server-events.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { concurrencyLimitOf } from "../workspaces/service.ts";
import {
  type AttemptResult,
  cancelPending,
  claimContacts,
  finalCounts,
  inFlight,
  loadCampaign,
  moveCampaign,
  openWork,
  orphanedDials,
  recordCalls,
  releaseContact,
  settleContacts,
} from "./claims.ts";
import type { DialPort } from "./dial-port.ts";
import type { BatchCallRow, BatchContactRow } from "./schema.ts";

export const DIAL_QUEUE = "batch-calls.dial";

/**
 * Dialer jobs per campaign. A process works a campaign with one job at a time (a second job of the
 * same campaign steps aside), so with two jobs two server processes on one PostgreSQL share it.
 */
const WORKERS_PER_CAMPAIGN = 2;
/** Dialer jobs one process runs at once (apart from document jobs). */
const JOBS_PER_PROCESS = 8;

export interface DialerOptions {
  db: Database;
  jobs: JobRunner;
  port: DialPort;
  log: FastifyBaseLogger;
  now(): Date;
  /** Announces a finished campaign (batch.completed) to webhooks. */
  events?: ServerEvents;
  /** How often live calls are checked for their end when no notice comes sooner. */
  pollMs?: number;
  /** How long a claimed contact may stay without its call before another process takes it for lost. */
  leaseMs?: number;
  /** How long one job works before handing over to a fresh job (so the queue stays fair). */
  sliceMs?: number;
}

/** Run this campaign's job again at this time. */
type Again = { again: Date };

type Step = { kind: "again" } | { kind: "wait"; until: Date | null } | { kind: "done" };

/** A workspace at its concurrency limit: the contact waits this long before it is tried again. */
const WORKSPACE_FULL_RETRY_MS = 1_000;
const RECOVERY_EVERY_MS = 2_000;
const STEP_ASIDE_MS = 1_000;
const CAMPAIGN_FAILED_TEXT = "dialer step failed";

/**
 * The campaign dialer on the durable job runner (docs/batch-calls.md). A job works one campaign for
 * a slice: it reads the outcomes of live calls, takes back dials a dead process left half-done,
 * claims due contacts up to the free slots and places their calls, then waits for a call to end.
 * Between slices (or until the next contact is due) the job is re-enqueued, so a campaign survives
 * restarts and is shared by every process on one PostgreSQL.
 */
export class CampaignDialer {
  private port: DialPort;
  private readonly waiters = new Set<() => void>();
  private readonly lastRecovery = new Map<string, number>();
  /** Campaigns a job of this process is working now. */
  private readonly active = new Set<string>();
  /** A call ended since the jobs last looked: the next wait returns at once. */
  private notified = false;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly sliceMs: number;

  constructor(private readonly options: DialerOptions) {
    this.port = options.port;
    this.pollMs = options.pollMs ?? 200;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.sliceMs = options.sliceMs ?? 10_000;
    this.listen(options.port);
    options.jobs.register(DIAL_QUEUE, (payload) => this.runJob(payload), { concurrency: JOBS_PER_PROCESS });
  }

  /** Replaces the way calls are placed (tests and benchmarks use a fake). */
  usePort(port: DialPort): void {
    this.port = port;
    this.listen(port);
  }

  private listen(port: DialPort) {
    port.onSettle?.(() => this.notify());
  }

  /** Wakes every job waiting for a call to end (or the next one to wait, when none is waiting now). */
  notify(): void {
    this.notified = true;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /** Starts (or resumes) the campaign's dialer jobs at `runAt` (now when null); inside a transaction they start if it commits. */
  async schedule(db: Executor, tenant: TenantScope, batchCallId: string, runAt: Date | null = null): Promise<void> {
    for (let i = 0; i < WORKERS_PER_CAMPAIGN; i += 1) {
      await this.options.jobs.enqueue(
        db,
        DIAL_QUEUE,
        { workspaceId: tenant.workspaceId, batchCallId },
        { maxAttempts: 1_000, ...(runAt ? { runAt } : {}) },
      );
    }
    this.wakeAt(runAt);
  }

  /** The runner looks for due jobs about once a second; a scheduled start wakes it on the dot. */
  private wakeAt(runAt: Date | null) {
    const delay = runAt ? runAt.getTime() - Date.now() : 0;
    if (delay <= 0 || delay > 3_600_000) return;
    setTimeout(() => this.options.jobs.wake(), delay + 5).unref();
  }

  private async runJob(payload: Record<string, unknown>): Promise<Again | undefined> {
    const { workspaceId, batchCallId } = payload;
    if (typeof workspaceId !== "string" || typeof batchCallId !== "string") return;
    const tenant = { workspaceId };
    if (this.active.has(batchCallId)) {
      // This process already works the campaign: leave the job to another process (or to this one later).
      return { again: new Date(Date.now() + STEP_ASIDE_MS) };
    }
    this.active.add(batchCallId);
    try {
      return await this.work(tenant, batchCallId);
    } finally {
      this.active.delete(batchCallId);
    }
  }

  private async work(tenant: TenantScope, batchCallId: string): Promise<Again | undefined> {
    const deadline = Date.now() + this.sliceMs;
    for (;;) {
      let step: Step;
      try {
        step = await this.step(tenant, batchCallId);
      } catch (error) {
        this.options.log.error({ err: error, batchCallId }, CAMPAIGN_FAILED_TEXT);
        step = { kind: "wait", until: new Date(this.options.now().getTime() + 2_000) };
      }
      if (step.kind === "done") return;
      const now = this.options.now();
      const until = step.kind === "wait" ? step.until : now;
      const waitMs = until ? until.getTime() - now.getTime() : Number.POSITIVE_INFINITY;
      if (Date.now() >= deadline || waitMs > 2_000) {
        // Hand over: the job runs again at the due time (or at once), on this process or another.
        return { again: until && waitMs > 0 ? until : new Date() };
      }
      if (step.kind === "wait") await this.sleep(Math.max(0, Math.min(waitMs, this.pollMs)));
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.notified) {
      this.notified = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const wake = () => {
        this.notified = false;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.waiters.add(wake);
    });
  }

  /** One round of a campaign's work; says when the next is due. */
  private async step(tenant: TenantScope, batchCallId: string): Promise<Step> {
    const { db } = this.options;
    let campaign = await loadCampaign(db, tenant, batchCallId);
    if (!campaign) return { kind: "done" };
    const now = this.options.now();
    if (campaign.status === "scheduled") {
      // Moved later by an edit: the job enqueued for the new time takes over.
      if (campaign.scheduledTime && campaign.scheduledTime.getTime() - now.getTime() > 1_000) return { kind: "done" };
      campaign =
        (await moveCampaign(db, tenant, batchCallId, ["scheduled"], { status: "running", startedAt: now })) ?? campaign;
    } else if (campaign.status === "pending" && campaign.pauseReason === null) {
      campaign =
        (await moveCampaign(db, tenant, batchCallId, ["pending"], {
          status: "running",
          startedAt: campaign.startedAt ?? now,
        })) ?? campaign;
    }
    await this.settleCalls(tenant, campaign);
    await this.recoverOrphans(tenant, campaign, now);
    if (campaign.status === "cancelled") return this.winding(tenant, campaign, now);
    if (campaign.status !== "running" && campaign.status !== "pending") return { kind: "done" };
    if (campaign.status === "running" && campaign.spendCap !== null) {
      const fresh = await loadCampaign(db, tenant, batchCallId);
      if (fresh && fresh.spent >= campaign.spendCap) {
        await moveCampaign(db, tenant, batchCallId, ["running"], { status: "pending", pauseReason: "spend_cap" });
        this.options.log.info({ batchCallId, spent: fresh.spent }, "batch call paused at its spend cap");
        return this.winding(tenant, { ...campaign, status: "pending" }, now);
      }
    }
    if (campaign.status === "pending") return this.winding(tenant, campaign, now);
    return this.dialRound(tenant, campaign, now);
  }

  /** Claims and dials what is due, then finishes the campaign when nothing is left. */
  private async dialRound(tenant: TenantScope, campaign: BatchCallRow, now: Date): Promise<Step> {
    const { db } = this.options;
    const limit = await concurrencyLimitOf(db, tenant);
    const slots = Math.min(campaign.concurrency, limit);
    const { claimed } = await claimContacts(db, tenant, campaign.id, {
      runnerId: this.options.jobs.id,
      now,
      leaseMs: this.leaseMs,
      slots,
    });
    if (claimed.length > 0) {
      await this.dialAll(tenant, campaign, claimed);
      return { kind: "again" };
    }
    const work = await openWork(db, tenant, campaign.id, now);
    if (work.pending === 0 && work.dialing === 0) {
      await this.finish(tenant, campaign, now);
      return { kind: "done" };
    }
    if (work.dialing > 0 || work.dueNow) return { kind: "wait", until: new Date(now.getTime() + this.pollMs) };
    return { kind: "wait", until: work.nextDue };
  }

  /** Places the claimed calls side by side, then records them (placed, given back, or failed) in a few statements. */
  private async dialAll(tenant: TenantScope, campaign: BatchCallRow, claimed: BatchContactRow[]): Promise<void> {
    const { db } = this.options;
    const results = await Promise.all(
      claimed.map(async (contact) => ({
        contact,
        result: await this.port.dial({
          tenant,
          batchCallId: campaign.id,
          fromPhoneNumberId: campaign.fromPhoneNumberId,
          agentId: campaign.agentId,
          squadId: campaign.squadId,
          number: contact.number,
          variables: contact.variables,
        }),
      })),
    );
    const placed: { contact: BatchContactRow; callId: string }[] = [];
    const failed: AttemptResult[] = [];
    for (const { contact, result } of results) {
      if (result.kind === "placed") placed.push({ contact, callId: result.callId });
      else if (result.kind === "busy_workspace")
        await releaseContact(db, contact, new Date(this.options.now().getTime() + WORKSPACE_FULL_RETRY_MS));
      else {
        this.options.log.warn({ batchCallId: campaign.id, reason: result.reason }, "batch call dial failed");
        failed.push({ contact, outcome: "failed", cost: 0 });
      }
    }
    await recordCalls(db, placed);
    await settleContacts(db, tenant, campaign.id, failed, campaign.retryPolicy, true, this.options.now());
  }

  /** Reads the end of every live call of the campaign and records it. */
  private async settleCalls(tenant: TenantScope, campaign: BatchCallRow): Promise<void> {
    const { db } = this.options;
    const live = (await inFlight(db, tenant, campaign.id)).filter((c) => c.callId !== null);
    if (live.length === 0) return;
    const over = await this.port.settled(
      tenant,
      live.flatMap((c) => (c.callId ? [c.callId] : [])),
    );
    const retryAllowed = campaign.status === "running" || campaign.status === "pending";
    const ended = live.flatMap((contact) => {
      const result = contact.callId ? over.get(contact.callId) : undefined;
      return result ? [{ contact, ...result }] : [];
    });
    await settleContacts(db, tenant, campaign.id, ended, campaign.retryPolicy, retryAllowed, this.options.now());
  }

  /**
   * A contact claimed by a process that died before recording its call: if the call was logged, it
   * is followed like any other; if not, the dial never began and the contact goes back in line with
   * its attempt given back. Either way it is never placed twice.
   */
  private async recoverOrphans(tenant: TenantScope, campaign: BatchCallRow, now: Date): Promise<void> {
    const { db, jobs } = this.options;
    // Orphans are rare (a process died mid-dial): looked for every few seconds, not every round.
    const last = this.lastRecovery.get(campaign.id) ?? 0;
    if (Date.now() - last < RECOVERY_EVERY_MS) return;
    this.lastRecovery.set(campaign.id, Date.now());
    const orphans = await orphanedDials(db, tenant, campaign.id, jobs.id, now, jobs.exclusive);
    for (const contact of orphans) {
      const since = contact.dialStartedAt ?? contact.updatedAt;
      const callId = await this.port.findPlacedCall(tenant, {
        batchCallId: campaign.id,
        fromPhoneNumberId: campaign.fromPhoneNumberId,
        number: contact.number,
        since,
      });
      if (callId) await recordCalls(db, [{ contact, callId }]);
      else await releaseContact(db, contact, now);
    }
  }

  /** Stopped or paused: live calls are followed to their end; nothing new is dialled. */
  private async winding(tenant: TenantScope, campaign: BatchCallRow, now: Date): Promise<Step> {
    const { db } = this.options;
    if (campaign.status === "cancelled") await cancelPending(db, tenant, campaign.id, now);
    const work = await openWork(db, tenant, campaign.id, now);
    if (work.dialing > 0) return { kind: "wait", until: new Date(now.getTime() + this.pollMs) };
    return { kind: "done" };
  }

  /** Every contact is final: completed when all answered, failed when none did, partial otherwise. */
  private async finish(tenant: TenantScope, campaign: BatchCallRow, now: Date): Promise<void> {
    const { answered, unanswered } = await finalCounts(this.options.db, tenant, campaign.id);
    const status =
      answered > 0 && unanswered > 0 ? "partial" : answered === 0 && unanswered > 0 ? "failed" : "completed";
    const moved = await moveCampaign(this.options.db, tenant, campaign.id, ["running"], { status, finishedAt: now });
    if (moved)
      this.options.events?.emit("batch.completed", { workspaceId: tenant.workspaceId, batchCallId: campaign.id });
  }
}
