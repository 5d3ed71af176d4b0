import type { Binding, BindingStore } from "@parley/sip";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { sipActiveCalls, sipRegistrations } from "./schema.ts";

/** The longest a call row may count as running when its process never removed it (it crashed). */
const STALE_CALL_MS = 6 * 60 * 60_000;

const toBinding = (row: typeof sipRegistrations.$inferSelect): Binding => ({
  username: row.username,
  domain: row.domain,
  contact: row.contact,
  source: { transport: row.transport === "tcp" ? "tcp" : "udp", address: row.sourceAddress, port: row.sourcePort },
  expiresAt: row.expiresAt,
});

/** The registrar's bindings in the database (every process's). */
export function databaseBindings(db: Executor, processId: string, now: () => Date): BindingStore {
  return {
    async save(binding) {
      const values = {
        username: binding.username,
        domain: binding.domain,
        contact: binding.contact,
        transport: binding.source.transport,
        sourceAddress: binding.source.address,
        sourcePort: binding.source.port,
        expiresAt: binding.expiresAt,
        processId,
        updatedAt: now(),
      };
      await db
        .insert(sipRegistrations)
        .values(values)
        .onConflictDoUpdate({
          target: [sipRegistrations.username, sipRegistrations.domain, sipRegistrations.contact],
          set: values,
        });
    },
    async remove(username, domain, contact) {
      await db
        .delete(sipRegistrations)
        .where(
          and(
            eq(sipRegistrations.username, username),
            eq(sipRegistrations.domain, domain),
            contact === null ? undefined : eq(sipRegistrations.contact, contact),
          ),
        );
    },
    async list(username, domain) {
      return (await currentRegistrations(db, username, domain, now())).map(toBinding);
    },
  };
}

/** Unexpired registrations of a SIP identity, newest first. */
export async function currentRegistrations(db: Executor, username: string, domain: string, at: Date) {
  return db
    .select()
    .from(sipRegistrations)
    .where(
      and(
        eq(sipRegistrations.username, username),
        eq(sipRegistrations.domain, domain),
        gt(sipRegistrations.expiresAt, at),
      ),
    )
    .orderBy(sipRegistrations.updatedAt);
}

/** The phone to ring for an extension: its newest current binding, or null. */
export async function bindingOf(db: Executor, username: string, domain: string, at: Date): Promise<Binding | null> {
  const rows = await currentRegistrations(db, username, domain, at);
  const row = rows.at(-1);
  return row ? toBinding(row) : null;
}

/** Forgets expired registrations (a phone that stopped refreshing). */
export async function sweepRegistrations(db: Executor, at: Date): Promise<void> {
  await db.delete(sipRegistrations).where(lte(sipRegistrations.expiresAt, at));
}

export async function markExtensionCall(
  db: Executor,
  call: { callId: string; username: string; domain: string; processId: string; startedAt: Date },
): Promise<void> {
  await db.insert(sipActiveCalls).values(call).onConflictDoNothing();
}

export async function clearExtensionCall(db: Executor, callId: string): Promise<void> {
  await db.delete(sipActiveCalls).where(eq(sipActiveCalls.callId, callId));
}

/** Whether a call is up on the extension now, on any process. */
export async function extensionInCall(db: Executor, username: string, domain: string, at: Date): Promise<boolean> {
  const [row] = await db
    .select({ callId: sipActiveCalls.callId })
    .from(sipActiveCalls)
    .where(
      and(
        eq(sipActiveCalls.username, username),
        eq(sipActiveCalls.domain, domain),
        gt(sipActiveCalls.startedAt, new Date(at.getTime() - STALE_CALL_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Rows this process left behind (it is starting again under the same id only in tests; harmless). */
export async function clearProcessCalls(db: Executor, processId: string): Promise<void> {
  await db.delete(sipActiveCalls).where(eq(sipActiveCalls.processId, processId));
}
