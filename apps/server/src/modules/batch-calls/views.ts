import type { BatchCall, BatchCallSummary, BatchContact, BatchContactStatus, BatchProgress } from "@parley/contract";
import { asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type BatchCallRow, type BatchContactRow, batchCallContacts } from "./schema.ts";

const FAILED: readonly BatchContactStatus[] = ["busy", "no-answer", "failed", "voicemail"];

export function emptyProgress(): BatchProgress {
  return { total: 0, dialled: 0, answered: 0, failed: 0, in_progress: 0, pending: 0, do_not_call: 0, cancelled: 0 };
}

function addToProgress(p: BatchProgress, status: BatchContactStatus, n: number, dialled: number) {
  p.total += n;
  p.dialled += dialled;
  if (status === "answered") p.answered += n;
  else if (FAILED.includes(status)) p.failed += n;
  else if (status === "dialing") p.in_progress += n;
  else if (status === "pending") p.pending += n;
  else if (status === "do-not-call") p.do_not_call += n;
  else if (status === "cancelled") p.cancelled += n;
}

/** Contacts counted by state for each campaign (one grouped query for a page of them). */
export async function progressOf(
  db: Executor,
  tenant: TenantScope,
  ids: string[],
): Promise<Map<string, BatchProgress>> {
  const byBatch = new Map<string, BatchProgress>();
  if (ids.length === 0) return byBatch;
  const rows = await db
    .select({
      batchCallId: batchCallContacts.batchCallId,
      status: batchCallContacts.status,
      n: count(),
      dialled: count(sql`case when ${batchCallContacts.attempts} > 0 then 1 end`),
    })
    .from(batchCallContacts)
    .where(scoped(batchCallContacts, tenant).where(inArray(batchCallContacts.batchCallId, ids)))
    .groupBy(batchCallContacts.batchCallId, batchCallContacts.status);
  for (const row of rows) {
    const p = byBatch.get(row.batchCallId) ?? emptyProgress();
    addToProgress(p, row.status, Number(row.n), Number(row.dialled));
    byBatch.set(row.batchCallId, p);
  }
  return byBatch;
}

export function toSummary(row: BatchCallRow, progress: BatchProgress): BatchCallSummary {
  return {
    id: row.id,
    name: row.name,
    agent_id: row.agentId,
    from_phone_number_id: row.fromPhoneNumberId,
    scheduled_time: row.scheduledTime?.toISOString() ?? null,
    timezone: row.timezone,
    calling_window: row.callingWindow,
    retry_policy: row.retryPolicy,
    concurrency: row.concurrency,
    spend_cap: row.spendCap,
    spent: row.spent,
    default_country: row.defaultCountry,
    status: row.status,
    pause_reason: row.pauseReason,
    is_archived: row.isArchived,
    progress,
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toContact(row: BatchContactRow): BatchContact {
  return {
    number: row.number,
    variables: row.variables,
    timezone: row.timezone,
    status: row.status,
    attempts: row.attempts,
    last_outcome: row.lastOutcome,
    call_id: row.callId,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function summaryOf(db: Executor, tenant: TenantScope, row: BatchCallRow): Promise<BatchCallSummary> {
  return toSummary(row, (await progressOf(db, tenant, [row.id])).get(row.id) ?? emptyProgress());
}

/** A campaign with every contact, in the order they were given. */
export async function batchCallOf(db: Executor, tenant: TenantScope, row: BatchCallRow): Promise<BatchCall> {
  const contacts = await db
    .select()
    .from(batchCallContacts)
    .where(scoped(batchCallContacts, tenant).where(eq(batchCallContacts.batchCallId, row.id)))
    .orderBy(asc(batchCallContacts.position));
  const progress = emptyProgress();
  for (const c of contacts) addToProgress(progress, c.status, 1, c.attempts > 0 ? 1 : 0);
  return { ...toSummary(row, progress), phone_numbers: contacts.map(toContact) };
}
