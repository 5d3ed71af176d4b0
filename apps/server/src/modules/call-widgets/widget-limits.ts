import { createHmac } from "node:crypto";
import { WIDGET_TEXTS } from "@parley/contract";
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

/** A visitor is their IP address, kept only as a keyed hash (per widget, so rows cannot be joined across widgets). */
export function visitorKeyOf(key: Uint8Array, widgetId: string, ip: string): string {
  return createHmac("sha256", key).update(`widget-visitor:${widgetId}:${ip}`).digest("base64url");
}

export interface SlotRequest {
  widget: CallWidgetRow;
  visitorKey: string;
  /** Call ids of the workspace's rooms on every live process. */
  liveCallIds: string[];
  now: Date;
}

/**
 * Takes one of the widget's call slots for a visitor, or throws 429 naming the limit that refused:
 * the widget's concurrent calls, then the visitor's calls in the last hour. The count and the insert
 * run under a per-widget advisory lock, so two requests (or two processes) cannot both take the last
 * slot. Returns the reservation's id; `attachCall` or `releaseSlot` follows.
 */
export async function reserveSlot(db: Executor, request: SlotRequest): Promise<string> {
  const { widget, visitorKey, liveCallIds, now } = request;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`widget-slots:${widget.id}`}))`);
    const starting = gte(widgetCalls.createdAt, new Date(now.getTime() - STARTING_MS));
    const running = liveCallIds.length > 0 ? or(starting, inArray(widgetCalls.callId, liveCallIds)) : starting;
    const [active] = await tx
      .select({ n: count() })
      .from(widgetCalls)
      .where(scoped(widgetCalls, widget).where(eq(widgetCalls.widgetId, widget.id), running));
    if (Number(active?.n ?? 0) >= widget.maxConcurrentCalls) {
      throw new AppError("rate_limited", WIDGET_TEXTS.widgetBusy(widget.maxConcurrentCalls));
    }
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
