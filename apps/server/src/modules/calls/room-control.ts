import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import type { RemovalOutcome } from "../../lib/call-runtime.ts";
import { type Listener, listen } from "./pg-listener.ts";
import type { HandOverOutcome, RoomMessenger, RoomRegistry } from "./rooms.ts";
import type { LiveRoomRow } from "./schema.ts";

/**
 * Control of a room held by another server process: the asking process NOTIFYs the channel with
 * {action: "remove", room, identity, …} or {action: "hand_over", room, …}; every process LISTENs,
 * the holder acts and NOTIFYs its answer back. On PGlite there is one process, which holds every
 * room, so nothing is sent.
 */

export const ROOM_CONTROL_CHANNEL = "parley_room_control";
/** How long the asking process waits for the holder's answer. */
export const CONTROL_TIMEOUT_MS = 10_000;
/** How often a removal also checks whether the room is gone (its answer may be lost). */
const GONE_POLL_MS = 500;

const Addressed = { id: z.string(), from: z.string(), to: z.string(), workspace_id: z.string(), room: z.string() };
const ControlMessage = z.discriminatedUnion("action", [
  z.object({ action: z.literal("remove"), ...Addressed, identity: z.string() }),
  z.object({ action: z.literal("hand_over"), ...Addressed }),
  z.object({ action: z.literal("answer"), id: z.string(), to: z.string(), outcome: z.string() }),
]);
type ControlMessage = z.infer<typeof ControlMessage>;
type Request = Exclude<ControlMessage, { action: "answer" }>;

const RemovalAnswer = z.enum(["removed", "room_not_found", "participant_not_found"]);
const HandOverAnswer = z.enum(["handed_over", "room_not_found", "joined"]);

export interface RoomControl extends RoomMessenger {
  close(): Promise<void>;
}

export interface RoomControlOptions {
  db: Database;
  /** PostgreSQL's URL; undefined on PGlite. */
  databaseUrl: string | undefined;
  rooms: RoomRegistry;
  /** Whether the room is still held somewhere (polled while a removal's answer is awaited). */
  stillHeld(row: LiveRoomRow): Promise<boolean>;
  onError(error: unknown, what: string): void;
  timeoutMs?: number;
}

export async function startRoomControl(options: RoomControlOptions): Promise<RoomControl> {
  const { db, rooms, databaseUrl } = options;
  const me = rooms.processId;
  const waiting = new Map<string, (outcome: string | null) => void>();
  const notify = (message: ControlMessage) =>
    db.execute(sql`select pg_notify(${ROOM_CONTROL_CHANNEL}, ${JSON.stringify(message)})`);

  const act = (request: Request): Promise<string> =>
    request.action === "remove"
      ? rooms.removeHere(request.workspace_id, request.room, request.identity)
      : rooms.handOver(request.workspace_id, request.room, request.from);

  const onMessage = (payload: string) => {
    let parsed: ReturnType<typeof ControlMessage.safeParse>;
    try {
      parsed = ControlMessage.safeParse(JSON.parse(payload));
    } catch {
      return;
    }
    if (!parsed.success || parsed.data.to !== me) return;
    const message = parsed.data;
    if (message.action === "answer") return waiting.get(message.id)?.(message.outcome);
    void act(message)
      .then((outcome) => notify({ action: "answer", id: message.id, to: message.from, outcome }))
      .catch((error: unknown) => options.onError(error, "could not answer a room control request"));
  };

  const listener: Listener | null = databaseUrl
    ? await listen({
        connectionString: databaseUrl,
        channel: ROOM_CONTROL_CHANNEL,
        onMessage,
        onError: (error) => options.onError(error, "room control connection failed; reconnecting"),
      })
    : null;

  /** Sends a request to the holder it is addressed to; its answer, or null after the timeout (or `gone` saying so). */
  const ask = (request: Request, gone?: () => Promise<boolean>) =>
    new Promise<string | null>((resolve) => {
      if (!listener) return resolve(null);
      let poll: NodeJS.Timeout | null = null;
      const settle = (outcome: string | null) => {
        if (!waiting.delete(request.id)) return;
        clearTimeout(timeout);
        if (poll) clearTimeout(poll);
        resolve(outcome);
      };
      waiting.set(request.id, settle);
      const timeout = setTimeout(() => settle(null), options.timeoutMs ?? CONTROL_TIMEOUT_MS);
      const check = () => {
        poll = setTimeout(async () => {
          if (await gone?.().catch(() => false)) settle("gone");
          else if (waiting.has(request.id)) check();
        }, GONE_POLL_MS);
      };
      if (gone) check();
      notify(request).catch((error: unknown) => {
        options.onError(error, "could not send a room control request");
        settle(null);
      });
    });

  const addressed = (row: LiveRoomRow) => ({
    id: randomUUID(),
    from: me,
    to: row.ownerId,
    workspace_id: row.workspaceId,
    room: row.name,
  });

  return {
    async requestRemoval(row, identity): Promise<RemovalOutcome> {
      // The answer travels on this process's listening connection, which may be reconnecting: the
      // room's row going away says the call has ended all the same.
      const answer = await ask(
        { action: "remove", ...addressed(row), identity },
        async () => !(await options.stillHeld(row)),
      );
      if (answer === "gone") return "removed";
      return RemovalAnswer.safeParse(answer).data ?? "no_answer";
    },
    async requestHandOver(row): Promise<HandOverOutcome> {
      const answer = await ask({ action: "hand_over", ...addressed(row) });
      return HandOverAnswer.safeParse(answer).data ?? "no_answer";
    },
    async close() {
      for (const settle of waiting.values()) settle(null);
      await listener?.close();
    },
  };
}
