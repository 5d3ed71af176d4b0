import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import { type Listener, listen } from "./pg-listener.ts";
import type { Room, RoomRegistry } from "./rooms.ts";
import type { LiveRoomRow } from "./schema.ts";

/**
 * Control of a call held by another server process: the asking process NOTIFYs the channel with
 * {action: "remove", room, identity, …}; every process LISTENs, the holder ends the call and NOTIFYs
 * the answer back. On PGlite there is one process, which holds every room, so nothing is sent.
 */

export const ROOM_CONTROL_CHANNEL = "parley_room_control";
/** How long the asking process waits for the holder's answer. */
export const CONTROL_TIMEOUT_MS = 10_000;
/** How often the asking process also checks whether the room is gone (its answer may be lost). */
const GONE_POLL_MS = 500;

export type RemovalOutcome = "removed" | "room_not_found" | "participant_not_found" | "no_answer";

const RemoveRequest = z.object({
  action: z.literal("remove"),
  id: z.string(),
  from: z.string(),
  to: z.string(),
  workspace_id: z.string(),
  room: z.string(),
  identity: z.string(),
});
const RemoveAnswer = z.object({
  action: z.literal("answer"),
  id: z.string(),
  to: z.string(),
  outcome: z.enum(["removed", "room_not_found", "participant_not_found"]),
});
const ControlMessage = z.discriminatedUnion("action", [RemoveRequest, RemoveAnswer]);
type ControlMessage = z.infer<typeof ControlMessage>;

/** Removes a participant from a room this process holds: removing either side ends the call. */
export async function removeHeldParticipant(
  room: Room,
  identity: string,
): Promise<"removed" | "participant_not_found"> {
  if (!room.participants.has(identity) || !room.call) return "participant_not_found";
  await room.call.end("removed");
  return "removed";
}

export interface RoomControl {
  /** Asks the process holding `row` to remove a participant and waits for its answer. */
  requestRemoval(row: LiveRoomRow, identity: string): Promise<RemovalOutcome>;
  close(): Promise<void>;
}

export interface RoomControlOptions {
  db: Database;
  /** PostgreSQL's URL; undefined on PGlite. */
  databaseUrl: string | undefined;
  rooms: RoomRegistry;
  /** Whether the room is still held somewhere (polled while an answer is awaited). */
  stillHeld(row: LiveRoomRow): Promise<boolean>;
  onError(error: unknown, what: string): void;
  timeoutMs?: number;
}

export async function startRoomControl(options: RoomControlOptions): Promise<RoomControl> {
  const { db, rooms, databaseUrl } = options;
  const me = rooms.processId;
  const waiting = new Map<string, (outcome: RemovalOutcome) => void>();
  const notify = (message: ControlMessage) =>
    db.execute(sql`select pg_notify(${ROOM_CONTROL_CHANNEL}, ${JSON.stringify(message)})`);

  const answer = async (request: z.infer<typeof RemoveRequest>) => {
    const room = rooms.find(request.workspace_id, request.room);
    const outcome = room ? await removeHeldParticipant(room, request.identity) : "room_not_found";
    await notify({ action: "answer", id: request.id, to: request.from, outcome });
  };

  const onMessage = (payload: string) => {
    let parsed: ReturnType<typeof ControlMessage.safeParse>;
    try {
      parsed = ControlMessage.safeParse(JSON.parse(payload));
    } catch {
      return;
    }
    if (!parsed.success || parsed.data.to !== me) return;
    const message = parsed.data;
    if (message.action === "answer") waiting.get(message.id)?.(message.outcome);
    else
      void answer(message).catch((error: unknown) => options.onError(error, "could not answer a room control request"));
  };

  const listener: Listener | null = databaseUrl
    ? await listen({
        connectionString: databaseUrl,
        channel: ROOM_CONTROL_CHANNEL,
        onMessage,
        onError: (error) => options.onError(error, "room control connection failed; reconnecting"),
      })
    : null;

  return {
    async requestRemoval(row, identity) {
      if (!listener) return "no_answer";
      const id = randomUUID();
      const request = { action: "remove" as const, id, from: me, to: row.ownerId, room: row.name, identity };
      return new Promise<RemovalOutcome>((resolve) => {
        let poll: NodeJS.Timeout | null = null;
        const settle = (outcome: RemovalOutcome) => {
          if (!waiting.delete(id)) return;
          clearTimeout(timeout);
          if (poll) clearTimeout(poll);
          resolve(outcome);
        };
        waiting.set(id, settle);
        const timeout = setTimeout(() => settle("no_answer"), options.timeoutMs ?? CONTROL_TIMEOUT_MS);
        // The answer travels on this process's listening connection, which may be reconnecting: the
        // room's row going away says the call has ended all the same.
        const check = () => {
          poll = setTimeout(async () => {
            const held = await options.stillHeld(row).catch(() => true);
            if (!held) settle("removed");
            else if (waiting.has(id)) check();
          }, GONE_POLL_MS);
        };
        check();
        notify({ ...request, workspace_id: row.workspaceId }).catch((error: unknown) => {
          options.onError(error, "could not send a room control request");
          settle("no_answer");
        });
      });
    },
    async close() {
      for (const settle of waiting.values()) settle("no_answer");
      await listener?.close();
    },
  };
}
