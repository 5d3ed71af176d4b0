import { randomUUID } from "node:crypto";
import { AppError } from "../../lib/app-error.ts";
import type { CallRequest, Room } from "../../lib/call-runtime.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { assistantOfVersion, recordCallVersion } from "../assistants/call-assistant.ts";
import { chooseCallVersion } from "../assistants/experiment-choice.ts";
import { requireAgent, toAssistant } from "../assistants/service.ts";
import { createCallLogWithinLimit, failedBeforeStart, finishCallLog } from "../call-logs/service.ts";
import { concurrencyLimitOf } from "../workspaces/service.ts";
import type { CallDeps } from "./call-deps.ts";
import { aliveSince } from "./call-upkeep.ts";
import { requireMinutesLeft } from "./minutes-allowance.ts";
import { requireProviderCredentials } from "./providers.ts";

/** How long a created room waits for its caller before it frees its concurrency slot. */
export const ROOM_JOIN_TIMEOUT_MS = 120_000;

/**
 * The moment each unjoined room of this process expires, on the context's clock (its join timer's
 * moment). Kept beside the timer because a timer fires late on a busy event loop: a call starting in
 * the meantime expires the overdue rooms itself rather than be refused for slots already free.
 */
const joinDeadlines = new WeakMap<Room, number>();

export const concurrencyLimitText = (limit: number) =>
  `This workspace is already running its maximum of ${limit} concurrent calls.`;

/**
 * Every channel's way in: checks the providers' keys and the plan's monthly minutes, then takes one
 * of the workspace's concurrent-call slots by opening the call's log (queued) within the limit, then
 * creates the room. The engine session starts when the caller joins the room; a room nobody joins
 * expires and closes its log as failed. Throws ServerBusyError (503, lib/admission.ts) while this
 * process is saturated, AppError (429 with the concurrency text, 403 when the plan has less than a
 * useful call's minutes left, 422 for missing keys) when the call may not start.
 */
export async function openCallRoom(rt: CallDeps, tenant: TenantScope, request: CallRequest): Promise<Room> {
  // A saturated process turns the call away first, before it costs a query (ServerBusyError, 503).
  const place = rt.ctx.admission.admit(request.channel);
  try {
    return await openAdmittedRoom(rt, tenant, request);
  } catch (error) {
    place.release();
    throw error;
  }
}

async function openAdmittedRoom(rt: CallDeps, tenant: TenantScope, request: CallRequest): Promise<Room> {
  const { ctx, rooms } = rt;
  const { agentId } = request;
  const agent = await requireAgent(ctx.db, tenant, agentId);
  const callId = randomUUID();
  // The version this call runs: the published one, or a running experiment's variant for this caller.
  const choice = await chooseCallVersion(ctx.db, tenant, agent, request, callId);
  const assistant = (await assistantOfVersion(ctx.db, tenant, agent, choice.version)) ?? toAssistant(agent);
  await requireProviderCredentials(ctx, tenant.workspaceId, assistant);
  await requireMinutesLeft(ctx, tenant);
  await expireOverdueRooms(rt, tenant.workspaceId);
  const limit = await concurrencyLimitOf(ctx.db, tenant);
  const createdAt = ctx.now();
  const log = await createCallLogWithinLimit(
    ctx.db,
    tenant,
    {
      id: callId,
      agentId,
      agentName: assistant.name,
      channel: request.channel,
      direction: request.direction,
      fromNumber: request.from ?? null,
      toNumber: request.to ?? null,
      batchCallId: request.batchCallId ?? null,
      testRunId: request.testRunId ?? null,
      origin: request.origin ?? null,
      carrier: request.carrier ?? null,
      startedAt: createdAt,
    },
    limit,
    aliveSince(createdAt),
  );
  if (!log) throw new AppError("rate_limited", concurrencyLimitText(limit));
  await recordCallVersion(ctx.db, tenant, { callId, agentId }, choice);
  const room = rooms.create({
    workspaceId: tenant.workspaceId,
    agentId,
    agentName: assistant.name,
    callId,
    createdAt,
    channel: request.channel,
    variables: request.variables ?? {},
  });
  const joinTimeoutMs = request.joinTimeoutMs ?? ROOM_JOIN_TIMEOUT_MS;
  joinDeadlines.set(room, createdAt.getTime() + joinTimeoutMs);
  room.joinTimer = setTimeout(() => void expireRoom(rt, room, "not_joined"), joinTimeoutMs);
  room.joinTimer.unref();
  // Every node finds the room (its token, its listing) once the caller hears it exists.
  await rooms.written(room.name);
  return room;
}

/** Expires the workspace's rooms on this process that nobody joined by their deadline. */
async function expireOverdueRooms(rt: CallDeps, workspaceId: string): Promise<void> {
  const now = rt.ctx.now().getTime();
  const overdue = rt.rooms
    .inWorkspace(workspaceId)
    .filter((room) => !room.call && room.participants.size === 0 && (joinDeadlines.get(room) ?? now + 1) <= now);
  await Promise.all(overdue.map((room) => expireRoom(rt, room, "not_joined")));
}

/** Frees a room nobody joined and closes its log as failed (`reason` is its end reason). */
export async function expireRoom(rt: CallDeps, room: Room, reason: string) {
  const { rooms } = rt;
  if (room.call || rooms.get(room.name) !== room) return;
  rooms.remove(room);
  const endedAt = rt.ctx.now();
  await finishCallLog(rt.ctx.db, room, room.callId, failedBeforeStart(reason, endedAt)).catch((error: unknown) =>
    rt.log.error({ callId: room.callId, err: error }, "could not close the call log"),
  );
}

/** Ends every call and frees every room (graceful shutdown); resolves once every ended call's log is written. */
export async function endAllCalls(rt: CallDeps): Promise<void> {
  await Promise.all(
    rt.rooms
      .all()
      .map((room) => (room.call ? room.call.end("server_shutdown") : expireRoom(rt, room, "server_shutdown"))),
  );
  // Calls that ended just before (a drain's last hang-ups) may still be writing their logs.
  await Promise.allSettled([...rt.persisting]);
}
