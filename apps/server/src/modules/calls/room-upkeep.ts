import type { CallDeps } from "./call-deps.ts";
import { aliveSince, HEARTBEAT_MS } from "./call-upkeep.ts";
import { removeDeadRooms, renewLiveRooms } from "./live-rooms-across-workspaces.ts";

/**
 * Keeps this process's rooms alive in live_rooms (same rhythm as the call logs' heartbeat) and
 * deletes rooms a dead process left behind. At start-up on PGlite every row is one: only one process
 * can open its data directory. Returns the stop function.
 */
export async function startRoomUpkeep(rt: CallDeps): Promise<() => void> {
  const { ctx, log } = rt;
  const me = rt.rooms.processId;
  const singleProcess = ctx.config.databaseUrl === undefined;
  const removed = await removeDeadRooms(ctx.db, me, singleProcess ? null : aliveSince(ctx.now()));
  if (removed > 0) log.warn({ rooms: removed }, "removed rooms left by a stopped server");
  const timer = setInterval(() => {
    const now = ctx.now();
    void renewLiveRooms(ctx.db, me, now)
      .then(() => removeDeadRooms(ctx.db, me, aliveSince(now)))
      .catch((error: unknown) => log.error({ err: error }, "room upkeep failed"));
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}
