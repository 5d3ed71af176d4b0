import { randomUUID } from "node:crypto";
import type { StartCallResponse } from "@parley/contract";
import { AppError, notFound } from "../../lib/app-error.ts";
import type { Principal } from "../../plugins/authenticate.ts";
import { findAssistant } from "../assistants/service.ts";
import { createCallLog, finishCallLog } from "../call-logs/service.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import type { Room } from "./rooms.ts";
import type { CallsRuntime } from "./runtime.ts";

/** How long a created room waits for its caller before it frees its concurrency slot. */
export const ROOM_JOIN_TIMEOUT_MS = 120_000;

export const concurrencyLimitText = (limit: number) =>
  `This workspace is already running its maximum of ${limit} concurrent calls.`;

/**
 * POST /agents/{id}/call: takes one of the workspace's concurrent-call slots, creates the room
 * and the call's log (queued, web). The engine session starts when the caller joins the room.
 */
export async function startCall(rt: CallsRuntime, principal: Principal, agentId: string): Promise<StartCallResponse> {
  const { ctx, rooms } = rt;
  const { workspace } = await requireWorkspace(ctx.db, principal);
  const assistant = await findAssistant(ctx.db, workspace.id, agentId);
  if (!assistant) throw notFound("Assistant not found.");
  const createdAt = ctx.now();
  const callId = randomUUID();
  const room = rooms.tryCreate(
    { workspaceId: workspace.id, agentId, agentName: assistant.name, callId, createdAt },
    workspace.concurrencyLimit,
  );
  if (!room) throw new AppError("rate_limited", concurrencyLimitText(workspace.concurrencyLimit));
  try {
    await createCallLog(ctx.db, {
      id: callId,
      workspaceId: workspace.id,
      agentId,
      agentName: assistant.name,
      channel: "web",
      direction: "inbound",
      startedAt: createdAt,
    });
  } catch (error) {
    rooms.remove(room);
    throw error;
  }
  room.joinTimer = setTimeout(() => void expireRoom(rt, room, "not_joined"), ROOM_JOIN_TIMEOUT_MS);
  room.joinTimer.unref();
  return { room: { name: room.name, agent_id: agentId, created_at: createdAt.toISOString() }, call_id: callId };
}

/** Frees a room nobody joined and closes its log as failed. */
export async function expireRoom(rt: CallsRuntime, room: Room, reason: "not_joined" | "server_shutdown") {
  if (room.call || rt.rooms.get(room.name) !== room) return;
  rt.rooms.remove(room);
  const endedAt = rt.ctx.now();
  await finishCallLog(rt.ctx.db, room.workspaceId, room.callId, {
    status: "failed",
    endReason: reason,
    endedAt,
    durationSeconds: 0,
    cost: 0,
    costBreakdown: null,
    transcript: [],
    toolCalls: [],
    turnMetrics: [],
    events: [],
    recording: null,
  }).catch((error: unknown) => rt.log.error({ callId: room.callId, err: error }, "could not close the call log"));
}

/** Ends every call and frees every room (graceful shutdown). */
export async function endAllCalls(rt: CallsRuntime): Promise<void> {
  await Promise.all(
    rt.rooms
      .all()
      .map((room) => (room.call ? room.call.end("server_shutdown") : expireRoom(rt, room, "server_shutdown"))),
  );
}
