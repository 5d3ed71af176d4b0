import type { SubjectErasure, SubjectQuery } from "@parley/contract";
import { type SQL, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { erasedNumber } from "../batch-calls/erased-numbers.ts";
import { callMatch, contactMatch, idList, inChunks, rows } from "./subject-match.ts";

/**
 * Erases one person from a workspace, in one transaction. The tables are other modules' (call logs,
 * campaigns, the do-not-call list, webhook deliveries), reached by their SQL names with the
 * workspace in every statement, as the search reads them (subject-search.ts). What stays, and why:
 * - a call's row with its time, duration, status, cost and breakdown (billing and analytics do not
 *   change), without the person's number, transcript, tool calls, analysis, timeline, workflow
 *   variables or recording;
 * - a campaign row, with its number kept as a hash and no variables (the campaign's counts stay);
 *   a row not yet dialled is cancelled, so a running campaign never calls it;
 * - a do-not-call entry, with its number kept as a hash: the number stays blocked (blockedNumbers
 *   matches the hash), which is why the person asked to be on the list.
 * Recording files are removed by the caller once this has committed (recording-removal.ts).
 */

const LIVE_CALL = "A call with this person is in progress; erase their data once it has ended.";
const DIALLING = "A campaign is dialling this number now; erase their data once the call has ended.";
const NOT_SENT = "Erased at a data subject's request before it was sent.";

export interface Erasure {
  counts: SubjectErasure;
  /** Recording files to remove once the transaction has committed (relative to DATA_DIR). */
  files: string[];
}

/** The person's side of a call loses its number: the matching one, or for an email the caller's side. */
function numbersCleared(query: SubjectQuery): SQL {
  if (query.phone) {
    return sql`from_number = case when from_number = ${query.phone} then null else from_number end,
      to_number = case when to_number = ${query.phone} then null else to_number end`;
  }
  return sql`from_number = case when direction = 'outbound' then from_number else null end,
    to_number = case when direction = 'outbound' then null else to_number end`;
}

async function refuseLive(tx: Executor, ws: string, query: SubjectQuery): Promise<void> {
  const live = await rows<{ id: string }>(
    tx,
    sql`select id from call_logs where workspace_id = ${ws} and ${callMatch(query)}
      and status in ('queued', 'in_progress') limit 1`,
  );
  if (live.length > 0) throw new AppError("conflict", LIVE_CALL);
  const dialling = await rows<{ id: string }>(
    tx,
    sql`select id from batch_call_contacts where workspace_id = ${ws} and ${contactMatch(query)}
      and status = 'dialing' limit 1`,
  );
  if (dialling.length > 0) throw new AppError("conflict", DIALLING);
}

async function eraseCalls(tx: Executor, ws: string, query: SubjectQuery) {
  const calls = await rows<{ id: string; recording_path: string | null }>(
    tx,
    sql`select id, recording_path from call_logs where workspace_id = ${ws} and ${callMatch(query)} for update`,
  );
  const ids = calls.map((c) => c.id);
  const stored = await inChunks(ids, async (chunk) => {
    await tx.execute(sql`update call_logs set ${numbersCleared(query)},
      transcript = '[]'::jsonb, transcript_text = '', tool_calls = '[]'::jsonb, events = '[]'::jsonb,
      analysis = null, has_recording = false, recording_path = null,
      workflow = case when workflow is null then null else jsonb_set(workflow, '{variables}', '{}'::jsonb) end
      where workspace_id = ${ws} and id in (${idList(chunk)})`);
    return rows<{ call_id: string }>(
      tx,
      sql`delete from call_recordings where workspace_id = ${ws} and call_id in (${idList(chunk)}) returning call_id`,
    );
  });
  const files = calls.flatMap((c) => (c.recording_path ? [c.recording_path] : []));
  return { ids, recordings: files.length + stored.length, files };
}

async function eraseContacts(tx: Executor, ws: string, query: SubjectQuery): Promise<number> {
  const found = await rows<{ id: string; number: string }>(
    tx,
    sql`select id, number from batch_call_contacts where workspace_id = ${ws} and ${contactMatch(query)} for update`,
  );
  for (const contact of found) {
    await tx.execute(sql`update batch_call_contacts set number = ${erasedNumber(ws, contact.number)},
      variables = '{}'::jsonb, timezone = null, next_attempt_at = null, updated_at = now(),
      status = case when status = 'pending' then 'cancelled' else status end
      where workspace_id = ${ws} and id = ${contact.id}`);
  }
  return found.length;
}

async function eraseDoNotCall(tx: Executor, ws: string, query: SubjectQuery): Promise<number> {
  if (!query.phone) return 0;
  const kept = await rows<{ id: string }>(
    tx,
    sql`update do_not_call set number = ${erasedNumber(ws, query.phone)}, reason = ''
      where workspace_id = ${ws} and number = ${query.phone} returning id`,
  );
  return kept.length;
}

/** Deliveries about the calls (call_id, or the call itself in call.ended) lose their body; unsent ones are not sent. */
async function eraseDeliveries(tx: Executor, ws: string, callIds: string[]): Promise<number> {
  const emptied = await inChunks(callIds, (chunk) => {
    const ids = idList(chunk);
    return rows<{ id: string }>(
      tx,
      sql`update webhook_deliveries set payload = '{}'::jsonb,
        error = case when status = 'pending' then ${NOT_SENT} else error end,
        next_attempt_at = case when status = 'pending' then null else next_attempt_at end,
        status = case when status = 'pending' then 'failed' else status end
        where workspace_id = ${ws} and payload <> '{}'::jsonb
        and (payload->'data'->>'call_id' in (${ids}) or payload->'data'->'call'->>'id' in (${ids})) returning id`,
    );
  });
  return emptied.length;
}

/** Erases what the workspace holds about one person; a call or dial in progress with them is a 409. */
export async function eraseSubject(db: Database, tenant: TenantScope, query: SubjectQuery): Promise<Erasure> {
  const ws = tenant.workspaceId;
  return db.transaction(async (tx) => {
    await refuseLive(tx, ws, query);
    const calls = await eraseCalls(tx, ws, query);
    const counts: SubjectErasure = {
      calls: calls.ids.length,
      recordings: calls.recordings,
      campaign_contacts: await eraseContacts(tx, ws, query),
      do_not_call: await eraseDoNotCall(tx, ws, query),
      webhook_deliveries: await eraseDeliveries(tx, ws, calls.ids),
    };
    return { counts, files: calls.files };
  });
}
