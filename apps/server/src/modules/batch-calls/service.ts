import {
  BATCH_CALL_TEXTS,
  type BatchCallAction,
  type BatchCallPage,
  type BatchCallsQuery,
  batchActionAllowed,
  type CallingWindow,
  type CreateBatchCallBody,
  type UpdateBatchCallBody,
} from "@parley/contract";
import { asc, desc, eq, ilike, isNotNull, isNull, type SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { pagedRows, pageOf, pageWindow } from "../../lib/paging.ts";
import { findRow } from "../../lib/scoped-rows.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { findAssistant } from "../assistants/service.ts";
import { requirePhoneNumber } from "../phone-numbers/service.ts";
import { SQUAD_NOT_FOUND, squadEntry } from "../squads/service.ts";
import { checkContacts, isTimeZone, rawFromInputs } from "./contact-list.ts";
import { insertContacts, replaceContacts } from "./contacts.ts";
import { type BatchCallRow, batchCalls } from "./schema.ts";
import { emptyProgress, progressOf, toSummary } from "./views.ts";

export type { BatchCallRow };

export async function findBatchCall(db: Executor, tenant: TenantScope, id: string): Promise<BatchCallRow | undefined> {
  return findRow(db, batchCalls, tenant, id);
}

export async function requireBatchCall(db: Executor, tenant: TenantScope, id: string): Promise<BatchCallRow> {
  return found(await findBatchCall(db, tenant, id), BATCH_CALL_TEXTS.notFound);
}

/** 409 with the action and status named, when the status does not allow the action (docs/batch-calls.md). */
export function requireAllowed(action: BatchCallAction, row: Pick<BatchCallRow, "status">): void {
  if (!batchActionAllowed(action, row.status))
    throw new AppError("conflict", BATCH_CALL_TEXTS.notAllowed(action, row.status));
}

/** A campaign paused by its spend cap may have its settings (not its numbers) changed before it resumes. */
function requireEditable(row: BatchCallRow, changesNumbers: boolean): void {
  const paused = row.status === "pending" && row.pauseReason !== null;
  if (paused && !changesNumbers) return;
  requireAllowed("edit", row);
}

const SORT_COLUMNS = {
  updatedAt: batchCalls.updatedAt,
  createdAt: batchCalls.createdAt,
  name: batchCalls.name,
  scheduled_time: batchCalls.scheduledTime,
  status: batchCalls.status,
} as const;

export async function listBatchCalls(
  db: Executor,
  tenant: TenantScope,
  q: z.output<typeof BatchCallsQuery>,
): Promise<BatchCallPage> {
  const filters: (SQL | undefined)[] = [eq(batchCalls.isArchived, q.is_archived)];
  if (q.search) filters.push(ilike(batchCalls.name, `%${q.search.replace(/[\\%_]/g, "\\$&")}%`));
  if (q.status) filters.push(eq(batchCalls.status, q.status));
  if (q.type === "scheduled") filters.push(isNotNull(batchCalls.scheduledTime));
  if (q.type === "immediate") filters.push(isNull(batchCalls.scheduledTime));
  const where = scoped(batchCalls, tenant).where(...filters);
  const column = SORT_COLUMNS[q.sort_by];
  const order = q.sort_order === "asc" ? asc(column) : desc(column);
  const { rows, total } = await pagedRows(db, batchCalls, where, [order, desc(batchCalls.id)], pageWindow(q));
  const progress = await progressOf(
    db,
    tenant,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows.map((row) => toSummary(row, progress.get(row.id) ?? emptyProgress())),
    total,
    q,
  );
}

type Settings = Partial<
  Pick<CreateBatchCallBody, "agent_id" | "squad_id" | "from_phone_number_id" | "timezone" | "calling_window">
>;

/** The ids must be the workspace's, the zone and window must make sense (422 otherwise). */
async function checkSettings(db: Executor, tenant: TenantScope, s: Settings): Promise<void> {
  if (s.from_phone_number_id)
    await requirePhoneNumber(db, tenant, s.from_phone_number_id).catch(() => {
      throw new AppError("validation", BATCH_CALL_TEXTS.fromNumberNotFound);
    });
  if (s.agent_id && !(await findAssistant(db, tenant, s.agent_id)))
    throw new AppError("validation", BATCH_CALL_TEXTS.agentNotFound);
  if (s.squad_id && !(await squadEntry(db, tenant, s.squad_id))) throw new AppError("validation", SQUAD_NOT_FOUND);
  if (s.timezone && !isTimeZone(s.timezone))
    throw new AppError("validation", BATCH_CALL_TEXTS.invalidTimezone(s.timezone));
  if (s.calling_window) checkWindow(s.calling_window);
}

function checkWindow(window: CallingWindow): void {
  if (window.days.length === 0 || window.end <= window.start)
    throw new AppError("validation", BATCH_CALL_TEXTS.windowEmpty);
}

/** Every number must be a phone number: a list with invalid ones is refused whole, each named with its position. */
function checkedNumbers(inputs: CreateBatchCallBody["phone_numbers"], country: string | null) {
  const checked = checkContacts(rawFromInputs(inputs), country);
  if (checked.invalid.length > 0) {
    throw new AppError(
      "validation",
      checked.invalid[0]?.reason ?? BATCH_CALL_TEXTS.invalidNumber(""),
      {},
      checked.invalid.map((p) => ({ field: `phone_numbers.${p.line - 1}`, message: p.reason })),
    );
  }
  return checked;
}

export async function createBatchCall(
  db: Executor,
  tenant: TenantScope,
  body: CreateBatchCallBody,
): Promise<BatchCallRow> {
  await checkSettings(db, tenant, body);
  const checked = checkedNumbers(body.phone_numbers, body.default_country);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(batchCalls)
      .values(
        scoped(batchCalls, tenant).values({
          name: body.name,
          agentId: body.agent_id,
          squadId: body.squad_id ?? null,
          fromPhoneNumberId: body.from_phone_number_id,
          scheduledTime: body.scheduled_time ? new Date(body.scheduled_time) : null,
          timezone: body.timezone,
          callingWindow: body.calling_window,
          retryPolicy: body.retry_policy,
          concurrency: body.concurrency,
          spendCap: body.spend_cap,
          defaultCountry: body.default_country,
        }),
      )
      .returning();
    if (!row) throw new Error("insert into batch_calls returned no row");
    await insertContacts(tx, tenant, row, checked);
    return row;
  });
}

/**
 * PUT: the fields given change (phone_numbers replaces the list). A scheduled campaign whose time
 * is cleared goes back to created; one whose time moves keeps its status and is dialled at the new
 * time (the caller schedules the dialer again).
 */
export async function updateBatchCall(
  db: Executor,
  tenant: TenantScope,
  id: string,
  body: UpdateBatchCallBody,
): Promise<{ row: BatchCallRow; rescheduled: boolean }> {
  const current = await requireBatchCall(db, tenant, id);
  requireEditable(current, body.phone_numbers !== undefined || body.default_country !== undefined);
  await checkSettings(db, tenant, body);
  const country = body.default_country !== undefined ? body.default_country : current.defaultCountry;
  const checked = body.phone_numbers ? checkedNumbers(body.phone_numbers, country) : null;
  const scheduledTime =
    body.scheduled_time === undefined
      ? current.scheduledTime
      : body.scheduled_time
        ? new Date(body.scheduled_time)
        : null;
  const unscheduled = current.status === "scheduled" && scheduledTime === null;
  const rescheduled =
    current.status === "scheduled" &&
    scheduledTime !== null &&
    scheduledTime.getTime() !== current.scheduledTime?.getTime();
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx
      .update(batchCalls)
      .set({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.agent_id !== undefined ? { agentId: body.agent_id } : {}),
        ...(body.squad_id !== undefined ? { squadId: body.squad_id } : {}),
        ...(body.from_phone_number_id !== undefined ? { fromPhoneNumberId: body.from_phone_number_id } : {}),
        ...(body.timezone !== undefined ? { timezone: body.timezone } : {}),
        ...(body.calling_window !== undefined ? { callingWindow: body.calling_window } : {}),
        ...(body.retry_policy !== undefined ? { retryPolicy: body.retry_policy } : {}),
        ...(body.concurrency !== undefined ? { concurrency: body.concurrency } : {}),
        ...(body.spend_cap !== undefined ? { spendCap: body.spend_cap } : {}),
        ...(body.default_country !== undefined ? { defaultCountry: body.default_country } : {}),
        scheduledTime,
        ...(unscheduled ? { status: "created" as const } : {}),
        updatedAt: new Date(),
      })
      .where(scoped(batchCalls, tenant).where(eq(batchCalls.id, id), eq(batchCalls.status, current.status)))
      .returning();
    // The campaign moved on meanwhile (initiated, started, stopped): refuse rather than edit it.
    if (!updated) {
      const moved = await findBatchCall(tx, tenant, id);
      throw new AppError("conflict", BATCH_CALL_TEXTS.notAllowed("edit", moved?.status ?? "running"));
    }
    if (checked) await replaceContacts(tx, tenant, updated, checked);
    return updated;
  });
  return { row, rescheduled };
}

export async function deleteBatchCall(db: Executor, tenant: TenantScope, id: string): Promise<void> {
  const row = await requireBatchCall(db, tenant, id);
  requireAllowed("delete", row);
  await db
    .delete(batchCalls)
    .where(scoped(batchCalls, tenant).where(eq(batchCalls.id, id), eq(batchCalls.status, row.status)));
}

export async function archiveBatchCall(
  db: Executor,
  tenant: TenantScope,
  id: string,
  isArchived: boolean,
): Promise<BatchCallRow> {
  const row = await requireBatchCall(db, tenant, id);
  requireAllowed("archive", row);
  const [updated] = await db
    .update(batchCalls)
    .set({ isArchived, updatedAt: new Date() })
    .where(scoped(batchCalls, tenant).where(eq(batchCalls.id, id)))
    .returning();
  return found(updated, BATCH_CALL_TEXTS.notFound);
}

/** Marks the campaign changed (its contacts were added or removed). */
export async function touchBatchCall(db: Executor, tenant: TenantScope, id: string): Promise<BatchCallRow> {
  const [row] = await db
    .update(batchCalls)
    .set({ updatedAt: new Date() })
    .where(scoped(batchCalls, tenant).where(eq(batchCalls.id, id)))
    .returning();
  return found(row, BATCH_CALL_TEXTS.notFound);
}
