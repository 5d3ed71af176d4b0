import type { NumbersChangeResponse } from "@parley/contract";
import { and, eq, inArray, max, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { type CheckedContacts, checkContacts, type RawContact } from "./contact-list.ts";
import { blockedNumbers } from "./do-not-call.ts";
import { type BatchCallRow, batchCallContacts } from "./schema.ts";

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

/**
 * Stores checked contacts after the campaign's last one; a number on the do-not-call list is kept
 * (so the campaign reports it) as do-not-call and is never dialled.
 */
export async function insertContacts(
  db: Executor,
  tenant: TenantScope,
  batch: Pick<BatchCallRow, "id">,
  checked: CheckedContacts,
): Promise<ContactsChange> {
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

/** Checks rows against the campaign's numbers and adds the new ones. */
export async function addContacts(
  db: Executor,
  tenant: TenantScope,
  batch: Pick<BatchCallRow, "id" | "defaultCountry">,
  rows: readonly RawContact[],
  country: string | null = batch.defaultCountry,
): Promise<ContactsChange> {
  const checked = checkContacts(rows, country, await numbersOf(db, tenant, batch.id));
  return insertContacts(db, tenant, batch, checked);
}

export async function replaceContacts(
  db: Executor,
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
