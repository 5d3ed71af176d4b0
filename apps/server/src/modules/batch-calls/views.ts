import {
  BATCH_CONTACTS_PAGE_SIZE,
  type BatchCall,
  type BatchCallSummary,
  type BatchContact,
  type BatchContactPage,
  type BatchContactStatus,
  type BatchContactsQuery,
  type BatchProgress,
} from "@parley/contract";
import { asc, count, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "../../db/client.ts";
import { pagedRows, pageOf, pageWindow } from "../../lib/paging.ts";
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
    squad_id: row.squadId,
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

/** The campaign's contacts (of one state, if given). */
const contactsWhere = (tenant: TenantScope, batchCallId: string, status?: BatchContactStatus) =>
  scoped(batchCallContacts, tenant).where(
    eq(batchCallContacts.batchCallId, batchCallId),
    status ? eq(batchCallContacts.status, status) : undefined,
  );

/** The order they were given in, which is the order they are dialled in. */
const contactOrder = [asc(batchCallContacts.position), asc(batchCallContacts.id)];

/** GET /batch-calls/{id}/contacts: one page of the campaign's contacts. */
export async function contactsPage(
  db: Executor,
  tenant: TenantScope,
  batchCallId: string,
  q: z.output<typeof BatchContactsQuery>,
): Promise<BatchContactPage> {
  const where = contactsWhere(tenant, batchCallId, q.status);
  const { rows, total } = await pagedRows(db, batchCallContacts, where, contactOrder, pageWindow(q));
  return pageOf(rows.map(toContact), total, q);
}

/**
 * A campaign as GET /batch-calls/{id} reads it: its progress counted by the database and only its
 * first page of contacts, so a page polling a 50,000-contact campaign gets a few kilobytes, not
 * megabytes (the rest are paged by contactsPage).
 */
export async function batchCallOf(db: Executor, tenant: TenantScope, row: BatchCallRow): Promise<BatchCall> {
  const first = await db
    .select()
    .from(batchCallContacts)
    .where(contactsWhere(tenant, row.id))
    .orderBy(...contactOrder)
    .limit(BATCH_CONTACTS_PAGE_SIZE);
  return { ...(await summaryOf(db, tenant, row)), phone_numbers: first.map(toContact) };
}
