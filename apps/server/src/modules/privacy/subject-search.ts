import type { SubjectQuery, SubjectRecords } from "@parley/contract";
import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { callMatch, contactMatch, rows } from "./subject-match.ts";

/** At most this many calls and as many campaign rows: the search's and the export's bound. */
export const SUBJECT_LIMIT = 1_000;

/**
 * Finds one person's records in a workspace: calls from or to their number (or whose transcript
 * names their email), campaign rows for their number (or with the email among the row's variables)
 * and do-not-call entries. The tables are the call-logs' and batch-calls' modules', read by their SQL
 * names with the tenant's workspace in every statement (those modules have no search by person).
 */
export async function findSubject(db: Executor, tenant: TenantScope, query: SubjectQuery): Promise<SubjectRecords> {
  const ws = tenant.workspaceId;
  const calls = await rows<SubjectRecords["calls"][number] & { started_at: Date | string }>(
    db,
    sql`select id, started_at, direction, from_number, to_number, agent_name, has_recording from call_logs
      where workspace_id = ${ws} and ${callMatch(query)} order by started_at desc limit ${SUBJECT_LIMIT}`,
  );
  const contacts = await rows<SubjectRecords["campaign_contacts"][number]>(
    db,
    sql`select id, batch_call_id, number, status from batch_call_contacts
      where workspace_id = ${ws} and ${contactMatch(query)} order by batch_call_id, position limit ${SUBJECT_LIMIT}`,
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
