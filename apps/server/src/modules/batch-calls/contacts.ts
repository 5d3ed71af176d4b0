import { BATCH_CALL_MAX_CONTACTS, BATCH_CALL_TEXTS, type NumbersChangeResponse } from "@parley/contract";
import { and, count, eq, inArray, max, sql } from "drizzle-orm";
import type { Executor, Transaction } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { found, scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type CheckedContacts, checkContacts, type RawContact, withoutExisting } from "./contact-list.ts";
import { blockedNumbers } from "./do-not-call.ts";
import { type BatchCallRow, batchCallContacts, batchCalls } from "./schema.ts";

const INSERT_CHUNK = 1_000;

export type ContactsChange = Omit<NumbersChangeResponse, "batch_call">;

/** The numbers a campaign already has. */
export async function numbersOf(db: Executor, tenant: TenantScope, batchCallId: string): Promise<Set<string>> {
  const rows = await db
    .select({ number: batchCallContacts.number })
    .from(batchCallContacts)
    .where(scoped(batchCallContacts, tenant).where(eq(batchCallContacts.batchCallId, batchCallId)));
  return new Set(rows.map((r) => r.number));
}

/** How many contacts a campaign holds. */
export async function contactCount(db: Executor, tenant: TenantScope, batchCallId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(batchCallContacts)
    .where(scoped(batchCallContacts, tenant).where(eq(batchCallContacts.batchCallId, batchCallId)));
  return Number(row?.n ?? 0);
}

/** 422 naming the cap and the room left, when `adding` more contacts would take the campaign past it. */
export function requireRoom(has: number, adding: number): void {
  if (adding === 0 || has + adding <= BATCH_CALL_MAX_CONTACTS) return;
  const message = BATCH_CALL_TEXTS.campaignFull(has, adding);
  throw new AppError("validation", message, {}, [{ field: "phone_numbers", message }]);
}

/**
 * Locks the campaign's row until the transaction ends. Every write of a campaign's contacts takes
 * it first, so two of them take turns: the second counts (and checks for repeats) after the first
 * has committed, and both cannot pass the cap together.
 */
async function lockCampaign(tx: Transaction, tenant: TenantScope, id: string): Promise<void> {
  const [row] = await tx
    .select({ id: batchCalls.id })
    .from(batchCalls)
    .where(scoped(batchCalls, tenant).where(eq(batchCalls.id, id)))
    .for("update");
  found(row, BATCH_CALL_TEXTS.notFound);
}

/**
 * Checked contacts less the numbers the campaign holds, read under its lock (so the check still
 * holds when the caller inserts them in the same transaction).
 */
export async function newContacts(
  tx: Transaction,
  tenant: TenantScope,
  batchCallId: string,
  checked: CheckedContacts,
): Promise<CheckedContacts> {
  await lockCampaign(tx, tenant, batchCallId);
  return withoutExisting(checked, await numbersOf(tx, tenant, batchCallId));
}

/**
 * Stores checked contacts after the campaign's last one, within the cap of
 * BATCH_CALL_MAX_CONTACTS per campaign (counted under the campaign's lock, whichever way the contacts
 * come: create, edit, add-numbers, CSV). A number on the do-not-call list is kept (so the campaign
 * reports it) as do-not-call and is never dialled.
 */
export async function insertContacts(
  db: Transaction,
  tenant: TenantScope,
  batch: Pick<BatchCallRow, "id">,
  checked: CheckedContacts,
): Promise<ContactsChange> {
  await lockCampaign(db, tenant, batch.id);
  requireRoom(await contactCount(db, tenant, batch.id), checked.contacts.length);
  const blocked = await blockedNumbers(
    db,
    tenant,
    checked.contacts.map((c) => c.number),
  );
  const [last] = await db
    .select({ position: max(batchCallContacts.position) })
    .from(batchCallContacts)
    .where(scoped(batchCallContacts, tenant).where(eq(batchCallContacts.batchCallId, batch.id)));
  const start = (last?.position ?? 0) + 1;
  for (let i = 0; i < checked.contacts.length; i += INSERT_CHUNK) {
    const values = checked.contacts.slice(i, i + INSERT_CHUNK).map((c, j) =>
      scoped(batchCallContacts, tenant).values({
        batchCallId: batch.id,
        position: start + i + j,
        number: c.number,
        variables: c.variables,
        timezone: c.timezone,
        status: blocked.has(c.number) ? ("do-not-call" as const) : ("pending" as const),
      }),
    );
    await db.insert(batchCallContacts).values(values);
  }
  return {
    added: checked.contacts.length,
    removed: 0,
    duplicates: checked.duplicates,
    invalid: checked.invalid,
    do_not_call: checked.contacts.filter((c) => blocked.has(c.number)).map((c) => c.number),
  };
}

/** Adds the checked contacts the campaign does not have yet (repeats of its numbers are reported). */
export async function addContacts(
  tx: Transaction,
  tenant: TenantScope,
  batch: Pick<BatchCallRow, "id">,
  checked: CheckedContacts,
): Promise<ContactsChange> {
  return insertContacts(tx, tenant, batch, await newContacts(tx, tenant, batch.id, checked));
}

export async function replaceContacts(
  db: Transaction,
  tenant: TenantScope,
  batch: Pick<BatchCallRow, "id">,
  checked: CheckedContacts,
): Promise<ContactsChange> {
  await db
    .delete(batchCallContacts)
    .where(scoped(batchCallContacts, tenant).where(eq(batchCallContacts.batchCallId, batch.id)));
  return insertContacts(db, tenant, batch, checked);
}

/** Removes numbers (as typed; normalised like the campaign's) that have not been dialled yet. */
export async function removeContacts(
  db: Executor,
  tenant: TenantScope,
  batch: Pick<BatchCallRow, "id" | "defaultCountry">,
  rows: readonly RawContact[],
): Promise<ContactsChange> {
  const checked = checkContacts(rows, batch.defaultCountry);
  const numbers = checked.contacts.map((c) => c.number);
  const removed =
    numbers.length === 0
      ? []
      : await db
          .delete(batchCallContacts)
          .where(
            scoped(batchCallContacts, tenant).where(
              and(eq(batchCallContacts.batchCallId, batch.id), inArray(batchCallContacts.number, numbers)),
              sql`${batchCallContacts.callId} is null`,
            ),
          )
          .returning({ id: batchCallContacts.id });
  return {
    added: 0,
    removed: removed.length,
    duplicates: checked.duplicates,
    invalid: checked.invalid,
    do_not_call: [],
  };
}
