import type { CallChannel } from "@parley/contract";
import { and, inArray, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { listRecordingFiles, removeRecordingFile } from "./recording-files.ts";
import { callLogs } from "./schema.ts";
import { OPEN_STATUSES } from "./service.ts";

/**
 * The upkeep of every workspace's call logs, run by a process for the calls it holds or for the
 * whole database: heartbeats of the calls this process runs (it holds them whatever their
 * workspace), calls left open by a process that died, and recordings whose log is gone. None of it
 * acts for a tenant, so none of it can be scoped to one.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The process running these calls is alive: renews their heartbeat (one statement for all). */
export async function renewHeartbeats(db: Executor, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.update(callLogs).set({ heartbeatAt: now }).where(inArray(callLogs.id, ids));
}

/** A call closed as `server_crash`, as its call.ended announces it. */
export interface AbandonedCall {
  workspaceId: string;
  callId: string;
  agentId: string | null;
  channel: CallChannel;
  durationSeconds: number;
}

/**
 * Closes calls left open by a process that died (no heartbeat since `staleBefore`, or every open
 * call when `staleBefore` is null: the only process that can open this database is starting). What
 * was saved (the transcript so far) is kept; the call is failed with reason `server_crash`. One
 * statement: when several processes sweep at once, each call is closed (and returned) by one.
 */
export async function closeAbandonedCalls(db: Executor, staleBefore: Date | null): Promise<AbandonedCall[]> {
  const lastSign = sql`coalesce(${callLogs.heartbeatAt}, ${callLogs.startedAt})`;
  const open = inArray(callLogs.status, [...OPEN_STATUSES]);
  const rows = await db
    .update(callLogs)
    .set({
      status: "failed",
      endReason: "server_crash",
      endedAt: sql`greatest(${lastSign}, ${callLogs.startedAt})`,
      durationSeconds: sql`case when ${callLogs.status} = 'in_progress' then greatest(0, extract(epoch from ${lastSign} - ${callLogs.startedAt})) else 0 end`,
    })
    .where(
      staleBefore ? and(open, or(lt(callLogs.heartbeatAt, staleBefore), sql`${callLogs.heartbeatAt} is null`)) : open,
    )
    .returning({
      workspaceId: callLogs.workspaceId,
      callId: callLogs.id,
      agentId: callLogs.agentId,
      channel: callLogs.channel,
      durationSeconds: callLogs.durationSeconds,
    });
  return rows;
}

/**
 * Removes recording files whose call log is gone (its workspace was deleted, which cascades to the
 * logs but cannot reach the disk). Run at start-up.
 */
export async function removeOrphanedRecordings(db: Executor, dataDir: string): Promise<number> {
  const files = (await listRecordingFiles(dataDir)).filter((f) => UUID.test(f.callId));
  let removed = 0;
  for (let i = 0; i < files.length; i += 500) {
    const batch = files.slice(i, i + 500);
    const kept = await db
      .select({ id: callLogs.id })
      .from(callLogs)
      .where(
        inArray(
          callLogs.id,
          batch.map((f) => f.callId),
        ),
      );
    const alive = new Set(kept.map((row) => row.id));
    for (const file of batch) {
      if (alive.has(file.callId)) continue;
      await removeRecordingFile(dataDir, file.path);
      removed += 1;
    }
  }
  return removed;
}
