import type { FastifyBaseLogger } from "fastify";
import type { Registry } from "prom-client";
import type { AppContext } from "../../context.ts";
import type { CallRuntime, CallState } from "../../lib/call-runtime.ts";
import { findCallByCarrierId } from "../call-logs/lookups-across-workspaces.ts";
import { getCallLog, listCallLogs } from "../call-logs/queries.ts";
import { claimRoomToken, closeUnconnectedCall, findCallRecord, setCallCarrier } from "../call-logs/service.ts";
import type { CallDeps } from "./call-deps.ts";
import { createCallMetrics } from "./call-metrics.ts";
import { type CallTraces, noCallTraces } from "./call-traces.ts";
import { aliveSince, startCallUpkeep } from "./call-upkeep.ts";
import { createGrantSigner } from "./grants.ts";
import { startLiveCall } from "./live-call.ts";
import { findLiveRoom } from "./live-rooms-across-workspaces.ts";
import { type RoomControl, startRoomControl } from "./room-control.ts";
import { startRoomUpkeep } from "./room-upkeep.ts";
import { RoomRegistry } from "./rooms.ts";
import { endAllCalls, expireRoom, openCallRoom } from "./start-call.ts";

export interface CallRuntimeOptions {
  /** The context that holds the runtime (read when a call starts, once the context exists). */
  context: () => AppContext;
  log: FastifyBaseLogger;
  /** Per-call traces (the tracing module's, when OTEL_EXPORTER_OTLP_ENDPOINT is set); none by default. */
  traces?: CallTraces;
  /** Signs every grant; derived from the master secret so tokens hold across processes sharing it. */
  key: Uint8Array;
  /** The /metrics registry: the call series are registered in it once, here. */
  registry: Registry;
  /** A workspace's privacy settings, which every call applies (the privacy module reads them). */
  privacySettings: CallDeps["privacySettings"];
}

function callState(context: () => AppContext): CallState {
  const db = () => context().db;
  return {
    setCarrier: (tenant, callId, carrier) => setCallCarrier(db(), tenant, callId, carrier),
    find: (tenant, callId) => findCallRecord(db(), tenant, callId),
    findByCarrierId: (provider, providerCallId) => findCallByCarrierId(db(), provider, providerCallId),
    get: (tenant, callId) => getCallLog(db(), tenant, callId),
    list: (tenant, filters) => listCallLogs(db(), tenant, filters),
    closeUnconnected: (tenant, callId, outcome) => closeUnconnectedCall(db(), tenant, callId, outcome),
    claimToken: (tokenId, expiresAt) => claimRoomToken(db(), tokenId, expiresAt, context().now()),
  };
}

/**
 * The one owner of the live calls of this process, built once with the context: the rooms, the
 * call metrics, grant signing, the call-state queries channels need, and the ways a call starts
 * and ends. Every channel receives it as `ctx.calls`.
 */
export function createCallRuntime(options: CallRuntimeOptions): CallRuntime {
  const { context, log } = options;
  const rooms = new RoomRegistry();
  const grants = createGrantSigner(options.key, () => context().now());
  const deps: CallDeps = {
    get ctx() {
      return context();
    },
    rooms,
    metrics: createCallMetrics(options.registry),
    state: callState(context),
    grants,
    log,
    traces: options.traces ?? noCallTraces,
    persisting: new Set(),
    privacySettings: options.privacySettings,
  };
  return {
    rooms,
    metrics: deps.metrics,
    state: deps.state,
    log,
    key: options.key,
    signGrant: (audience, claims) => grants.signGrant(audience, claims),
    verifyGrant: (audience, schema, token) => grants.verifyGrant(audience, schema, token),
    openCallRoom: (tenant, request) => openCallRoom(deps, tenant, request),
    startLiveCall: (room, caller, transport, origin) => startLiveCall(deps, room, caller, transport, origin),
    expireRoom: (room, reason) => expireRoom(deps, room, reason),
    roomOfCall: (callId) => rooms.all().find((room) => room.callId === callId),
    serve: () => serve(deps),
    endAll: () => endAllCalls(deps),
  };
}

/**
 * Rooms are written through to live_rooms, so every process lists them and finds their holder;
 * calls a crashed process left open are closed before this one serves, its own kept alive; rooms
 * held elsewhere are acted on through room control. Resolves to the stop function.
 */
async function serve(deps: CallDeps): Promise<() => Promise<void>> {
  const { ctx, rooms, log } = deps;
  rooms.attach({
    db: ctx.db,
    now: ctx.now,
    aliveSince,
    onError: (error) => log.error({ err: error }, "could not write a room through to the database"),
    routingKey: ctx.node.routingKey,
  });
  const stopUpkeep = await startCallUpkeep(deps);
  const stopRoomUpkeep = await startRoomUpkeep(deps);
  const control: RoomControl = await startRoomControl({
    db: ctx.db,
    databaseUrl: ctx.config.databaseUrl,
    rooms,
    stillHeld: async (row) => (await findLiveRoom(ctx.db, row, row.name, aliveSince(ctx.now())))?.callId === row.callId,
    onError: (error, what) => log.warn({ err: error }, what),
  });
  rooms.connect(control);
  return async () => {
    stopUpkeep();
    stopRoomUpkeep();
    rooms.connect(null);
    await control.close();
    // The rows of the calls ended at shutdown go before the database is closed.
    await rooms.settled();
  };
}
