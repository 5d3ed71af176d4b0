import { randomUUID } from "node:crypto";
import { REALTIME_PATH, routedSocketPath, WIDGET_TEXTS, type WidgetCallStarted, widgetCallCap } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { AppError, notFound } from "../../lib/app-error.ts";
import { originAllowed, type Room, roomGrantClaims } from "../calls/runtime.ts";
import { recordCallSquad } from "../squads/call-squads.ts";
import { squadEntry } from "../squads/service.ts";
import { concurrencyLimitOf } from "../workspaces/service.ts";
import { findWidgetByKey } from "./public-key-and-prune-across-workspaces.ts";
import type { CallWidgetRow } from "./schema.ts";
import {
  attachCall,
  callsHoldingSlots,
  releaseSlot,
  reserveSlot,
  visitorKeyOf,
  WIDGET_JOIN_WINDOW_MS,
} from "./widget-limits.ts";

/** Where a public request comes from: the page's Origin header and the host it was sent to. */
export interface PageRequest {
  origin: string | undefined;
  host: string;
  /** The visitor's address (behind TRUST_PROXY, the one our proxy saw). */
  ip: string;
  /** The browser said the request comes from this server's own origin (Sec-Fetch-Site). */
  sameOrigin?: boolean;
}

/**
 * Parley's own pages (the editor's live preview) may use any widget of the workspace; other pages
 * only the widgets that list their exact origin. A request without Origin is not a browser page.
 */
function pageMayUse(widget: CallWidgetRow, page: PageRequest, publicUrl: string) {
  if (page.origin === undefined) return false;
  return widget.allowedOrigins.includes(page.origin) || isParleyPage(page, publicUrl);
}

export function isParleyPage(page: PageRequest, publicUrl: string): boolean {
  if (page.sameOrigin) return true;
  return page.origin !== undefined && originAllowed(page.origin, publicUrl, page.host);
}

/**
 * The widget a page may use, or the refusal: 404 for an unknown key or a turned-off widget (the
 * editor's preview still runs a turned-off one), 403 for an origin not on its list.
 */
export async function admitPage(ctx: AppContext, key: string, page: PageRequest): Promise<CallWidgetRow> {
  const widget = await findWidgetByKey(ctx.db, key);
  const own = isParleyPage(page, ctx.config.publicUrl);
  if (!widget || (!widget.enabled && !own)) throw notFound(WIDGET_TEXTS.unavailable);
  if (!pageMayUse(widget, page, ctx.config.publicUrl)) throw new AppError("forbidden", WIDGET_TEXTS.originRefused);
  return widget;
}

/**
 * POST /widget/{key}/calls, for a page `admitPage` let in: refuses with 503 while this server is
 * saturated (lib/admission.ts), takes a widget slot (its concurrency and the
 * visitor's hourly allowance), then opens the room like every other channel (workspace concurrency,
 * minutes and provider keys), and signs a room token that only this page's origin can use. The room
 * waits for its visitor only as long as that one token lives: anyone can forge an allowed Origin
 * outside a browser, so starts nobody joins must not hold the workspace's lines for longer.
 */
export async function startWidgetCall(
  ctx: AppContext,
  widget: CallWidgetRow,
  page: PageRequest,
): Promise<WidgetCallStarted> {
  const origin = page.origin as string;
  const tenant = { workspaceId: widget.workspaceId };
  const { calls } = ctx;
  // A saturated server says so (503) before the widget's slot is written and given back.
  ctx.admission.check("widget");
  const now = ctx.now();
  const visitorKey = visitorKeyOf(calls.key, widget.id, page.ip);
  const slot = await reserveSlot(ctx.db, {
    widget,
    cap: widgetCallCap({ max_concurrent_calls: widget.maxConcurrentCalls }, await concurrencyLimitOf(ctx.db, tenant)),
    visitorKey,
    heldCallIds: callsHoldingSlots(await calls.rooms.listAll(tenant.workspaceId), now),
    now,
  });
  // A widget answered by a squad starts at its first member (issue 31); a deleted squad leaves the assistant.
  const squad = widget.squadId ? await squadEntry(ctx.db, tenant, widget.squadId) : undefined;
  let room: Room;
  try {
    room = await calls.openCallRoom(tenant, {
      agentId: squad?.member.assistant_id ?? widget.agentId,
      channel: "widget",
      direction: "inbound",
      origin,
      joinTimeoutMs: WIDGET_JOIN_WINDOW_MS,
      callerKey: `visitor:${visitorKey}`,
    });
  } catch (error) {
    await releaseSlot(ctx.db, widget, slot);
    throw error;
  }
  await attachCall(ctx.db, widget, slot, room.callId);
  // Recorded before the visitor is given the room: the call knows its squad when it starts.
  if (squad)
    await recordCallSquad(ctx.db, tenant, { callId: room.callId, squadId: squad.id, member: squad.member.name });
  const grant = roomGrantClaims({
    room: room.name,
    identity: `visitor-${randomUUID()}`,
    name: "Website visitor",
    workspaceId: tenant.workspaceId,
    origin,
  });
  const accessToken = await calls.signGrant("room", grant);
  const url = routedSocketPath(REALTIME_PATH, ctx.node.routingKey);
  return { call_id: room.callId, room_name: room.name, access_token: accessToken, url };
}
