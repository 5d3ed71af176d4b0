import { inMemoryData } from "../call-logs/service.ts";
import {
  closeAbandonedCalls,
  removeOrphanedRecordings,
  renewHeartbeats,
} from "../call-logs/upkeep-across-workspaces.ts";
import type { CallDeps } from "./call-deps.ts";

/** How often this process renews the heartbeat of the calls it runs. */
export const HEARTBEAT_MS = 10_000;
/** An open call without a heartbeat for this long belongs to a process that is gone. */
export const STALE_MS = 35_000;

/** The moment before which an open call's heartbeat no longer counts. */
export const aliveSince = (now: Date) => new Date(now.getTime() - STALE_MS);

/**
 * Keeps this process's calls alive in the database and closes calls a crashed process left open
 * (failed, `server_crash`, their saved transcript kept, announced as ended like any other call). At start-up on PGlite every open call is
 * one: only one process can open its data directory. Recording files whose log is gone are removed
 * at start-up. Returns the stop function.
 */
export async function startCallUpkeep(rt: CallDeps): Promise<() => void> {
  const { ctx, rooms, log } = rt;
  const singleProcess = ctx.config.databaseUrl === undefined;
  const sweep = async (staleBefore: Date | null) => {
    const closed = await closeAbandonedCalls(ctx.db, staleBefore);
    if (closed.length > 0) log.warn({ calls: closed.length }, "closed calls left open by a stopped server");
    // They ended too: their minutes are given back to the month, webhooks and analysis follow.
    for (const call of closed) {
      // An assistant deleted during the call leaves nothing to announce it for; its grant of
      // minutes lapses on its own (minute-grants.ts).
      if (call.agentId === null) continue;
      ctx.events.emit("call.ended", { ...call, agentId: call.agentId, status: "failed" });
    }
  };
  await sweep(singleProcess ? null : aliveSince(ctx.now()));
  // Files of deleted workspaces' calls, in the background: start-up does not wait on the disk. In-memory
  // databases share one temp folder, where another's files would look orphaned.
  if (!inMemoryData(ctx.config.dataDir)) {
    void removeOrphanedRecordings(ctx.db, ctx.config.dataDir).catch((error: unknown) =>
      log.warn({ err: error }, "could not remove orphaned recordings"),
    );
  }
  const timer = setInterval(() => {
    const now = ctx.now();
    void renewHeartbeats(
      ctx.db,
      rooms.all().map((room) => room.callId),
      now,
    )
      .then(() => sweep(aliveSince(now)))
      .catch((error: unknown) => log.error({ err: error }, "call upkeep failed"));
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}
