import type { BatchCallStatus, CallAttemptOutcome, RetryPolicy } from "@parley/contract";
import { and, asc, count, eq, inArray, isNotNull, isNull, lte, min, or, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { isOpen, nextOpening, recipientZones } from "./calling-window.ts";
import { blockedNumbers } from "./do-not-call.ts";
import { type BatchCallRow, type BatchContactRow, batchCallContacts, batchCalls } from "./schema.ts";

/**
 * The campaign's rows as the dialer moves them. Every change of a contact is one conditional
 * statement (on its status and attempt number), so two dialers — in one process or two — that race
 * on the same contact change it once.
 */

const contactsOf = (tenant: TenantScope, batchCallId: string) =>
  scoped(batchCallContacts, tenant).where(eq(batchCallContacts.batchCallId, batchCallId));

export async function loadCampaign(db: Executor, tenant: TenantScope, id: string): Promise<BatchCallRow | undefined> {
  const [row] = await db
    .select()
    .from(batchCalls)
    .where(scoped(batchCalls, tenant).where(eq(batchCalls.id, id)));
  return row;
}

/** Moves a campaign from one status to another only if it is still in `from`; the row after, or null. */
export async function moveCampaign(
  db: Executor,
  tenant: TenantScope,
  id: string,
  from: readonly BatchCallStatus[],
  changes: Partial<BatchCallRow>,
): Promise<BatchCallRow | null> {
  const [row] = await db
    .update(batchCalls)
    .set({ ...changes, updatedAt: new Date() })
    .where(scoped(batchCalls, tenant).where(eq(batchCalls.id, id), inArray(batchCalls.status, [...from])))
    .returning();
  return row ?? null;
}

/** Contacts with a call placed or being placed. */
export async function inFlight(db: Executor, tenant: TenantScope, batchCallId: string): Promise<BatchContactRow[]> {
  return db
    .select()
    .from(batchCallContacts)
    .where(and(contactsOf(tenant, batchCallId), eq(batchCallContacts.status, "dialing")));
}

export interface ClaimOptions {
  runnerId: string;
  now: Date;
  leaseMs: number;
  /** Calls the campaign may have at once (its concurrency within the workspace's limit). */
  slots: number;
}

/**
 * Claims up to the free slots of due pending contacts, in order. The campaign row is locked for the
 * count and the claim, so concurrent dialers never together exceed its concurrency; contacts are
 * read FOR UPDATE SKIP LOCKED. Contacts on the do-not-call list are closed as such, and contacts
 * outside their calling window are put off to its next opening.
 */
export async function claimContacts(
  db: Database,
  tenant: TenantScope,
  batchCallId: string,
  options: ClaimOptions,
): Promise<{ claimed: BatchContactRow[]; campaign: BatchCallRow | null }> {
  return db.transaction(async (tx) => {
    const [campaign] = await tx
      .select()
      .from(batchCalls)
      .where(scoped(batchCalls, tenant).where(eq(batchCalls.id, batchCallId)))
      .for("update");
    if (campaign?.status !== "running") return { claimed: [], campaign: campaign ?? null };
    const [busy] = await tx
      .select({ n: count() })
      .from(batchCallContacts)
      .where(and(contactsOf(tenant, batchCallId), eq(batchCallContacts.status, "dialing")));
    const free = options.slots - Number(busy?.n ?? 0);
    if (free <= 0) return { claimed: [], campaign };
    const candidates = await tx
      .select()
      .from(batchCallContacts)
      .where(
        and(
          contactsOf(tenant, batchCallId),
          eq(batchCallContacts.status, "pending"),
          or(isNull(batchCallContacts.nextAttemptAt), lte(batchCallContacts.nextAttemptAt, options.now)),
        ),
      )
      .orderBy(asc(batchCallContacts.position))
      .limit(free * 2 + 10)
      .for("update", { skipLocked: true });
    const blocked = await blockedNumbers(
      tx,
      tenant,
      candidates.map((c) => c.number),
    );
    const take: string[] = [];
    const blockedIds: string[] = [];
    for (const contact of candidates) {
      if (blocked.has(contact.number)) {
        blockedIds.push(contact.id);
        continue;
      }
      if (take.length >= free) continue;
      const window = campaign.callingWindow;
      if (window) {
        const zones =
          window.timezone === "campaign"
            ? [campaign.timezone]
            : recipientZones(contact.number, contact.timezone, campaign.timezone);
        if (!isOpen(window, zones, options.now)) {
          const opens = nextOpening(window, zones, options.now) ?? new Date(options.now.getTime() + 3_600_000);
          await tx
            .update(batchCallContacts)
            .set({ nextAttemptAt: opens, updatedAt: options.now })
            .where(scoped(batchCallContacts, tenant).where(eq(batchCallContacts.id, contact.id)));
          continue;
        }
      }
      take.push(contact.id);
    }
    if (blockedIds.length > 0)
      await tx
        .update(batchCallContacts)
        .set({ status: "do-not-call", updatedAt: options.now })
        .where(scoped(batchCallContacts, tenant).where(inArray(batchCallContacts.id, blockedIds)));
    if (take.length === 0) return { claimed: [], campaign };
    const claimed = await tx
      .update(batchCallContacts)
      .set({
        status: "dialing",
        attempts: sql`${batchCallContacts.attempts} + 1`,
        callId: null,
        lockedBy: options.runnerId,
        leaseUntil: new Date(options.now.getTime() + options.leaseMs),
        dialStartedAt: options.now,
        updatedAt: options.now,
      })
      .where(scoped(batchCallContacts, tenant).where(inArray(batchCallContacts.id, take)))
      .returning();
    return { claimed: claimed.sort((a, b) => a.position - b.position), campaign };
  });
}

/** The calls placed for claimed contacts, in one statement (the attempt must still be the one claimed). */
export async function recordCalls(
  db: Executor,
  placed: readonly { contact: BatchContactRow; callId: string }[],
): Promise<void> {
  if (placed.length === 0) return;
  const values = sql.join(
    placed.map((p) => sql`(${p.contact.id}::uuid, ${p.contact.attempts}::int, ${p.callId}::uuid)`),
    sql`, `,
  );
  await db.execute(sql`
    update batch_call_contacts c set call_id = v.call_id, lease_until = null, updated_at = now()
    from (values ${values}) as v(id, attempts, call_id)
    where c.id = v.id and c.attempts = v.attempts and c.status = 'dialing'`);
}

/** A dial that did not happen (the workspace was full, or its process died before placing it): the attempt is given back. */
export async function releaseContact(db: Executor, contact: BatchContactRow, retryAt: Date): Promise<void> {
  await db
    .update(batchCallContacts)
    .set({
      status: "pending",
      attempts: sql`greatest(0, ${batchCallContacts.attempts} - 1)`,
      lockedBy: null,
      leaseUntil: null,
      nextAttemptAt: retryAt,
      updatedAt: new Date(),
    })
    .where(
      scoped(batchCallContacts, contact).where(
        eq(batchCallContacts.id, contact.id),
        eq(batchCallContacts.status, "dialing"),
        eq(batchCallContacts.attempts, contact.attempts),
      ),
    );
}

export interface AttemptResult {
  contact: BatchContactRow;
  outcome: CallAttemptOutcome;
  cost: number;
}

/**
 * Records what attempts came to: answered and outcomes the policy does not retry (or the last
 * attempt) are final; a retried outcome puts the contact back to pending after the policy's delay.
 * One statement for all: a contact changes only while still dialing in the attempt read, and the
 * costs of the contacts it changed are added to the campaign's spend in the same statement, so a
 * call is counted once whichever dialer saw it end.
 */
export async function settleContacts(
  db: Executor,
  tenant: TenantScope,
  batchCallId: string,
  results: readonly AttemptResult[],
  policy: RetryPolicy,
  retryAllowed: boolean,
  now: Date,
): Promise<void> {
  if (results.length === 0) return;
  const values = sql.join(
    results.map(({ contact, outcome, cost }) => {
      const retry =
        retryAllowed &&
        outcome !== "answered" &&
        policy.retry_on.includes(outcome) &&
        contact.attempts < policy.max_attempts;
      const nextAt = retry ? new Date(now.getTime() + policy.delay_seconds * 1000).toISOString() : null;
      return sql`(${contact.id}::uuid, ${contact.attempts}::int, ${retry ? "pending" : outcome}::text, ${outcome}::text, ${nextAt}::timestamptz, ${cost}::float8)`;
    }),
    sql`, `,
  );
  await db.execute(sql`
    with changed as (
      update batch_call_contacts c
      set status = v.status, last_outcome = v.outcome, next_attempt_at = v.next_at,
          locked_by = null, lease_until = null, updated_at = ${now.toISOString()}::timestamptz
      from (values ${values}) as v(id, attempts, status, outcome, next_at, cost)
      where c.id = v.id and c.attempts = v.attempts and c.status = 'dialing'
      returning v.cost
    )
    update batch_calls set spent = spent + (select coalesce(sum(cost), 0) from changed)
    where id = ${batchCallId}::uuid and workspace_id = ${tenant.workspaceId}::uuid`);
}

/** Stop: every contact not yet claimed is cancelled at once (those with a call carry on to its end). */
export async function cancelPending(
  db: Executor,
  tenant: TenantScope,
  batchCallId: string,
  now: Date,
): Promise<number> {
  const rows = await db
    .update(batchCallContacts)
    .set({ status: "cancelled", nextAttemptAt: null, updatedAt: now })
    .where(and(contactsOf(tenant, batchCallId), eq(batchCallContacts.status, "pending")))
    .returning({ id: batchCallContacts.id });
  return rows.length;
}

export interface OpenWork {
  pending: number;
  dialing: number;
  /** The earliest time a pending contact is due (null: now, or none pending). */
  nextDue: Date | null;
  dueNow: boolean;
}

export async function openWork(db: Executor, tenant: TenantScope, batchCallId: string, now: Date): Promise<OpenWork> {
  const rows = await db
    .select({
      status: batchCallContacts.status,
      n: count(),
      due: count(
        sql`case when ${batchCallContacts.nextAttemptAt} is null or ${batchCallContacts.nextAttemptAt} <= ${now} then 1 end`,
      ),
      next: min(batchCallContacts.nextAttemptAt),
    })
    .from(batchCallContacts)
    .where(and(contactsOf(tenant, batchCallId), inArray(batchCallContacts.status, ["pending", "dialing"])))
    .groupBy(batchCallContacts.status);
  const pending = rows.find((r) => r.status === "pending");
  const dialing = rows.find((r) => r.status === "dialing");
  return {
    pending: Number(pending?.n ?? 0),
    dialing: Number(dialing?.n ?? 0),
    nextDue: pending?.next ?? null,
    dueNow: Number(pending?.due ?? 0) > 0,
  };
}

/** Final counts for the campaign's end status. */
export async function finalCounts(db: Executor, tenant: TenantScope, batchCallId: string) {
  const rows = await db
    .select({ status: batchCallContacts.status, n: count() })
    .from(batchCallContacts)
    .where(contactsOf(tenant, batchCallId))
    .groupBy(batchCallContacts.status);
  const of = (statuses: string[]) =>
    rows.filter((r) => statuses.includes(r.status)).reduce((s, r) => s + Number(r.n), 0);
  return { answered: of(["answered"]), unanswered: of(["busy", "no-answer", "failed", "voicemail"]) };
}

/** Contacts whose dial was claimed but never recorded, by a process whose lease ran out (or that is gone). */
export async function orphanedDials(
  db: Executor,
  tenant: TenantScope,
  batchCallId: string,
  runnerId: string,
  now: Date,
  othersAreDead: boolean,
): Promise<BatchContactRow[]> {
  return db
    .select()
    .from(batchCallContacts)
    .where(
      and(
        contactsOf(tenant, batchCallId),
        eq(batchCallContacts.status, "dialing"),
        isNull(batchCallContacts.callId),
        isNotNull(batchCallContacts.lockedBy),
        othersAreDead ? sql`${batchCallContacts.lockedBy} <> ${runnerId}` : lte(batchCallContacts.leaseUntil, now),
      ),
    );
}
