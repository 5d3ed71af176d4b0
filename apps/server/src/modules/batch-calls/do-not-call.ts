import type { DoNotCallChangeResponse, DoNotCallEntry, DoNotCallPage } from "@parley/contract";
import { ilike, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { newestFirst, pagedRows, pageOf, pageWindow } from "../../lib/paging.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { checkContacts, type RawContact } from "./contact-list.ts";
import { erasedNumber, isErasedNumber } from "./erased-numbers.ts";
import { type DoNotCallRow, doNotCall } from "./schema.ts";

const ALREADY_LISTED = "Already on the do-not-call list";
const INSERT_CHUNK = 1_000;

function toEntry(row: DoNotCallRow): DoNotCallEntry {
  return { id: row.id, number: row.number, reason: row.reason, created_at: row.createdAt.toISOString() };
}

export async function listDoNotCall(
  db: Executor,
  tenant: TenantScope,
  q: { page: number; items_per_page: number; search?: string | undefined },
): Promise<DoNotCallPage> {
  const where = scoped(doNotCall, tenant).where(q.search ? ilike(doNotCall.number, `%${q.search}%`) : undefined);
  const { rows, total } = await pagedRows(db, doNotCall, where, newestFirst(doNotCall), pageWindow(q));
  return pageOf(rows.map(toEntry), total, q);
}

/** Each number and the hash an erased person's entry keeps of it, mapped to the number. */
function listedForms(tenant: TenantScope, numbers: readonly string[]): Map<string, string> {
  const forms = new Map<string, string>();
  for (const number of numbers) {
    forms.set(number, number);
    forms.set(erasedNumber(tenant.workspaceId, number), number);
  }
  return forms;
}

/**
 * Which of these E.164 numbers are on the workspace's list, as typed or as the hash an erased
 * person's entry keeps (erased-numbers.ts): erasing someone never lets their number be called again.
 */
export async function blockedNumbers(
  db: Executor,
  tenant: TenantScope,
  numbers: readonly string[],
): Promise<Set<string>> {
  const blocked = new Set<string>();
  const forms = listedForms(tenant, numbers);
  const keys = [...forms.keys()];
  for (let i = 0; i < keys.length; i += INSERT_CHUNK) {
    const rows = await db
      .select({ number: doNotCall.number })
      .from(doNotCall)
      .where(scoped(doNotCall, tenant).where(inArray(doNotCall.number, keys.slice(i, i + INSERT_CHUNK))));
    for (const row of rows) blocked.add(forms.get(row.number) ?? row.number);
  }
  return blocked;
}

/** Adds numbers (typed or from a CSV), each reported when invalid or already listed. */
export async function addDoNotCall(
  db: Executor,
  tenant: TenantScope,
  rows: readonly RawContact[],
  reason: string,
  country: string | null,
): Promise<DoNotCallChangeResponse> {
  const checked = checkContacts(rows, country);
  const listed = await blockedNumbers(
    db,
    tenant,
    checked.contacts.map((c) => c.number),
  );
  const fresh = checked.contacts.filter((c) => !listed.has(c.number));
  const duplicates = [
    ...checked.duplicates,
    ...checked.contacts
      .filter((c) => listed.has(c.number))
      .map((c) => ({ line: c.line, value: c.number, reason: ALREADY_LISTED })),
  ].sort((a, b) => a.line - b.line);
  await db.transaction(async (tx) => {
    for (let i = 0; i < fresh.length; i += INSERT_CHUNK) {
      await tx
        .insert(doNotCall)
        .values(
          fresh.slice(i, i + INSERT_CHUNK).map((c) => scoped(doNotCall, tenant).values({ number: c.number, reason })),
        )
        .onConflictDoNothing();
    }
  });
  return { added: fresh.length, removed: 0, duplicates, invalid: checked.invalid };
}

export async function removeDoNotCall(
  db: Executor,
  tenant: TenantScope,
  rows: readonly RawContact[],
  country: string | null,
): Promise<DoNotCallChangeResponse> {
  // An erased person's entry goes by the hashed form the list shows, or when their number is typed.
  const hashed = rows.map((r) => r.value.trim()).filter(isErasedNumber);
  const checked = checkContacts(
    rows.filter((r) => !isErasedNumber(r.value.trim())),
    country,
  );
  const numbers = [
    ...listedForms(
      tenant,
      checked.contacts.map((c) => c.number),
    ).keys(),
    ...hashed,
  ];
  const removed =
    numbers.length === 0
      ? []
      : await db
          .delete(doNotCall)
          .where(scoped(doNotCall, tenant).where(inArray(doNotCall.number, numbers)))
          .returning({ id: doNotCall.id });
  return { added: 0, removed: removed.length, duplicates: checked.duplicates, invalid: checked.invalid };
}
