import { createHmac } from "node:crypto";
import { type ActiveRoom, ROOM_TOKEN_TTL_SECONDS, WIDGET_TEXTS } from "@parley/contract";
import { count, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import type { CallWidgetRow } from "./schema.ts";
import { widgetCalls } from "./schema.ts";

export const HOUR_MS = 3_600_000;
/**
 * A reservation (or a room just opened, whose row another process may not have written to
 * live_rooms yet) counts as a running call this long, whatever the live rooms say.
 */
const STARTING_MS = 30_000;
/**
 * How long a widget's room waits for its visitor: the life of the one room token the start hands out,
 * and two seconds for a socket admitted in the token's last instant to finish joining. A room nobody
 * joined by then can never be joined, so it frees its slots.
 */
export const WIDGET_JOIN_WINDOW_MS = ROOM_TOKEN_TTL_SECONDS * 1000 + 2_000;

/** A visitor is their IP address, kept only as a keyed hash (per widget, so rows cannot be joined across widgets). */
export function visitorKeyOf(key: Uint8Array, widgetId: string, ip: string): string {
  return createHmac("sha256", key).update(`widget-visitor:${widgetId}:${ip}`).digest("base64url");
}

/**
 * The calls of the workspace's live rooms (on every process) that hold a slot: joined, or still
 * within their join window. An unjoined room past it holds none, even while the process holding it
 * has not removed it yet, so its slot is free at the token's expiry wherever it is counted.
 */
export function callsHoldingSlots(rooms: ActiveRoom[], now: Date): string[] {
  const joinableSince = now.getTime() - WIDGET_JOIN_WINDOW_MS;
  return rooms
    .filter((room) => room.participants.length > 0 || Date.parse(room.started_at) > joinableSince)
    .map((room) => room.call_id);
}

export interface SlotRequest {
  widget: CallWidgetRow;
  /** The widget's concurrent calls (widgetCallCap: its own number, or its share of the workspace's). */
  cap: number;
  visitorKey: string;
  /** Call ids of the workspace's rooms, on every live process, that hold a slot (callsHoldingSlots). */
  heldCallIds: string[];
  now: Date;
}

/**
 * Takes one of the widget's call slots for a visitor, or throws 429 naming the limit that refused:
 * the widget's concurrent calls (`cap`), then the visitor's calls in the last hour. The count and the insert
 * run under a per-widget advisory lock, so two requests (or two processes) cannot both take the last
 * slot. Returns the reservation's id; `attachCall` or `releaseSlot` follows.
 */
export async function reserveSlot(db: Executor, request: SlotRequest): Promise<string> {
  const { widget, cap, visitorKey, heldCallIds, now } = request;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`widget-slots:${widget.id}`}))`);
    const starting = gte(widgetCalls.createdAt, new Date(now.getTime() - STARTING_MS));
    const running = heldCallIds.length > 0 ? or(starting, inArray(widgetCalls.callId, heldCallIds)) : starting;
    const [active] = await tx
      .select({ n: count() })
      .from(widgetCalls)
      .where(scoped(widgetCalls, widget).where(eq(widgetCalls.widgetId, widget.id), running));
    if (Number(active?.n ?? 0) >= cap) throw new AppError("rate_limited", WIDGET_TEXTS.widgetBusy(cap));
    const [recent] = await tx
      .select({ n: count() })
      .from(widgetCalls)
      .where(
        scoped(widgetCalls, widget).where(
          eq(widgetCalls.widgetId, widget.id),
          eq(widgetCalls.visitorKey, visitorKey),
          gte(widgetCalls.createdAt, new Date(now.getTime() - HOUR_MS)),
        ),
      );
    if (Number(recent?.n ?? 0) >= widget.callsPerVisitorPerHour) {
      throw new AppError("rate_limited", WIDGET_TEXTS.visitorLimit(widget.callsPerVisitorPerHour));
    }
    const [row] = await tx
      .insert(widgetCalls)
      .values(scoped(widgetCalls, widget).values({ widgetId: widget.id, visitorKey, createdAt: now }))
      .returning({ id: widgetCalls.id });
    if (!row) throw new Error("insert into widget_calls returned no row");
    return row.id;
  });
}

export async function attachCall(db: Executor, tenant: TenantScope, slotId: string, callId: string): Promise<void> {
  await db
    .update(widgetCalls)
    .set({ callId })
    .where(scoped(widgetCalls, tenant).where(eq(widgetCalls.id, slotId), isNull(widgetCalls.callId)));
}

/** A call that could not start (workspace limit, minutes, keys) does not count against the visitor. */
export async function releaseSlot(db: Executor, tenant: TenantScope, slotId: string): Promise<void> {
  await db.delete(widgetCalls).where(scoped(widgetCalls, tenant).where(eq(widgetCalls.id, slotId)));
}
