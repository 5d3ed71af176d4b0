import type { CallLog, SubjectCampaignContact, SubjectQuery, SubjectRecords } from "@parley/contract";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { getCallLogs } from "../call-logs/queries.ts";
import { openRecordingFile } from "../call-logs/recording-files.ts";
import { contactMatch, idList, rows } from "./subject-match.ts";
import { findSubject, SUBJECT_LIMIT } from "./subject-search.ts";
import type { ZipWriter } from "./subject-zip.ts";

/**
 * A person's export (docs/privacy.md): the records the search finds (its 1 000 newest calls), each
 * call with its whole log, the campaign rows with their variables, the do-not-call entries, and
 * every recording as `recordings/<call id>.wav`. Calls are read a few at a time and the audio is
 * copied as it is read, so memory stays small whatever the export's size.
 */

/** Call logs read at once while subject.json is written. */
const CALLS_AT_ONCE = 25;
/** fflate writes no ZIP64: past 4 GB a ZIP's offsets break, so recordings stop short of it. */
const RECORDINGS_BUDGET = 3.5 * 1024 ** 3;

export interface ExportPlan {
  query: SubjectQuery;
  at: Date;
  /** Newest first, as the search lists them. */
  callIds: string[];
  recordings: { callId: string; path: string | null }[];
  contacts: SubjectCampaignContact[];
  doNotCall: SubjectRecords["do_not_call"];
}

export interface ExportCounts {
  calls: number;
  recordings: number;
  campaign_contacts: number;
  do_not_call: number;
}

type ContactRow = Omit<SubjectCampaignContact, "updated_at"> & { updated_at: Date | string };

/** What the export will hold, read before its first byte is sent. */
export async function planSubjectExport(
  ctx: AppContext,
  tenant: TenantScope,
  query: SubjectQuery,
): Promise<ExportPlan> {
  const ws = tenant.workspaceId;
  const found = await findSubject(ctx.db, tenant, query);
  const withAudio = found.calls.filter((c) => c.has_recording).map((c) => c.id);
  const paths =
    withAudio.length === 0
      ? []
      : await rows<{ id: string; recording_path: string | null }>(
          ctx.db,
          sql`select id, recording_path from call_logs where workspace_id = ${ws} and id in (${idList(withAudio)})`,
        );
  const pathOf = new Map(paths.map((p) => [p.id, p.recording_path]));
  const contacts = await rows<ContactRow>(
    ctx.db,
    sql`select c.id, c.batch_call_id, b.name as campaign_name, c.number, c.variables, c.status, c.attempts,
      c.last_outcome, c.call_id, c.updated_at
      from (select * from batch_call_contacts where workspace_id = ${ws} and ${contactMatch(query)}
        order by batch_call_id, position limit ${SUBJECT_LIMIT}) c
      join batch_calls b on b.id = c.batch_call_id and b.workspace_id = ${ws}
      order by c.batch_call_id, c.position`,
  );
  return {
    query,
    at: ctx.now(),
    callIds: found.calls.map((c) => c.id),
    recordings: withAudio.map((callId) => ({ callId, path: pathOf.get(callId) ?? null })),
    contacts: contacts.map((c) => ({ ...c, updated_at: new Date(c.updated_at).toISOString() })),
    doNotCall: found.do_not_call,
  };
}

const recordingName = (callId: string) => `recordings/${callId}.wav`;

/** The recording's audio: its file, or for calls recorded before files, the row in call_recordings. */
async function openRecording(ctx: AppContext, tenant: TenantScope, recording: ExportPlan["recordings"][number]) {
  if (recording.path) {
    const file = await openRecordingFile(ctx.config.dataDir, recording.path);
    return file ? { body: file.stream, size: file.size } : null;
  }
  const [row] = await rows<{ wav: Uint8Array }>(
    ctx.db,
    sql`select wav from call_recordings where workspace_id = ${tenant.workspaceId} and call_id = ${recording.callId}`,
  );
  return row ? { body: row.wav, size: row.wav.byteLength } : null;
}

/** Copies the recordings into the ZIP; answers the calls whose audio is in it and how many were left out. */
async function writeRecordings(
  ctx: AppContext,
  tenant: TenantScope,
  plan: ExportPlan,
  zip: ZipWriter,
  log: FastifyBaseLogger,
) {
  const written = new Set<string>();
  let bytes = 0;
  let leftOut = 0;
  for (const recording of plan.recordings) {
    if (zip.stopped) break;
    const audio = await openRecording(ctx, tenant, recording);
    if (!audio) {
      log.warn(
        { workspaceId: tenant.workspaceId, callId: recording.callId, path: recording.path },
        "a call log says it has a recording, but its audio is gone; the export leaves it out",
      );
      continue;
    }
    if (bytes + audio.size > RECORDINGS_BUDGET) {
      if ("destroy" in audio.body) audio.body.destroy();
      leftOut++;
      continue;
    }
    bytes += audio.size;
    await zip.binary(recordingName(recording.callId), audio.body, plan.at);
    written.add(recording.callId);
  }
  return { written, leftOut };
}

/** subject.json's text: the head, then the calls a few at a time, each as the call-log API returns it. */
async function* subjectJson(
  ctx: AppContext,
  tenant: TenantScope,
  plan: ExportPlan,
  recorded: { written: Set<string>; leftOut: number },
): AsyncGenerator<string> {
  const head = JSON.stringify(
    {
      query: plan.query,
      exported_at: plan.at.toISOString(),
      campaign_contacts: plan.contacts,
      do_not_call: plan.doNotCall,
      recordings_left_out: recorded.leftOut,
    },
    null,
    2,
  );
  yield `${head.slice(0, -2)},\n  "calls": [`;
  let separator = "";
  for (let i = 0; i < plan.callIds.length; i += CALLS_AT_ONCE) {
    const ids = plan.callIds.slice(i, i + CALLS_AT_ONCE);
    const byId = new Map((await getCallLogs(ctx.db, tenant, ids)).map((c) => [c.id, c]));
    // A call deleted since the plan was read is left out.
    for (const call of ids.flatMap((id) => byId.get(id) ?? [])) {
      yield `${separator}\n    ${callJson(call, recorded.written)}`;
      separator = ",";
    }
  }
  yield "\n  ]\n}\n";
}

const callJson = (call: CallLog, written: Set<string>) =>
  JSON.stringify({ ...call, recording_file: written.has(call.id) ? recordingName(call.id) : null }, null, 2).replace(
    /\n/g,
    "\n    ",
  );

/** Writes the whole export into the ZIP (recordings, then subject.json) and answers what it holds. */
export async function writeSubjectExport(
  ctx: AppContext,
  tenant: TenantScope,
  plan: ExportPlan,
  zip: ZipWriter,
  log: FastifyBaseLogger,
): Promise<ExportCounts> {
  const recorded = await writeRecordings(ctx, tenant, plan, zip, log);
  await zip.text("subject.json", subjectJson(ctx, tenant, plan, recorded), plan.at);
  zip.finish();
  return {
    calls: plan.callIds.length,
    recordings: recorded.written.size,
    campaign_contacts: plan.contacts.length,
    do_not_call: plan.doNotCall.length,
  };
}
