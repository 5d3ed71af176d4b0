import type { SubjectQuery, SubjectRecords } from "@parley/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";

/**
 * Finds one person's records in a workspace: calls from or to their number (or whose transcript
 * names their email), campaign rows for their number (or with the email among the row's variables)
 * and do-not-call entries. The tables are the call-logs' and batch-calls' modules', read by their SQL
 * names with the tenant's workspace in every statement (those modules have no search by person).
 */
export async function findSubject(db: Executor, tenant: TenantScope, query: SubjectQuery): Promise<SubjectRecords> {
  const ws = tenant.workspaceId;
  const callMatch = query.phone
    ? sql`(from_number = ${query.phone} or to_number = ${query.phone})`
    : sql`position(${query.email} in lower(transcript_text)) > 0`;
  const contactMatch = query.phone
    ? sql`number = ${query.phone}`
    : sql`position(${query.email} in lower(variables::text)) > 0`;
  const calls = await rows<SubjectRecords["calls"][number] & { started_at: Date | string }>(
    db,
    sql`select id, started_at, direction, from_number, to_number, agent_name, has_recording from call_logs
      where workspace_id = ${ws} and ${callMatch} order by started_at desc limit 1000`,
  );
  const contacts = await rows<SubjectRecords["campaign_contacts"][number]>(
    db,
    sql`select id, batch_call_id, number, status from batch_call_contacts
      where workspace_id = ${ws} and ${contactMatch} order by batch_call_id, position limit 1000`,
  );
  const doNotCall = query.phone
    ? await rows<SubjectRecords["do_not_call"][number] & { created_at: Date | string }>(
        db,
        sql`select id, number, reason, created_at from do_not_call where workspace_id = ${ws} and number = ${query.phone}`,
      )
    : [];
  const iso = (at: Date | string) => new Date(at).toISOString();
  return {
    calls: calls.map((c) => ({ ...c, started_at: iso(c.started_at) })),
    campaign_contacts: contacts,
    do_not_call: doNotCall.map((d) => ({ ...d, created_at: iso(d.created_at) })),
  };
}

async function rows<T>(db: Executor, statement: SQL): Promise<T[]> {
  // Both drivers answer with `rows`; drizzle's type for a raw statement does not say so.
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
}
