import websocket from "@fastify/websocket";
import {
  ErrorResponse,
  MessageResponse,
  REALTIME_PATH,
  RemoveParticipantQuery,
  RoomTokenQuery,
  RoomTokenResponse,
  StartCallResponse,
  WorkspaceRoomsResponse,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../lib/app-error.ts";
import { errorResponses } from "../../lib/error-responses.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { createCallMetrics } from "./call-metrics.ts";
import { startCallUpkeep } from "./call-upkeep.ts";
import { handleRealtimeSocket } from "./realtime-socket.ts";
import { signRoomToken } from "./room-token.ts";
import { toActiveRoom } from "./rooms.ts";
import type { CallsRuntime } from "./runtime.ts";
import { endAllCalls, startCall } from "./start-call.ts";

const tags = ["calls"];
const errors = { ...errorResponses, 429: ErrorResponse };
/** Binary frames are 20 ms of audio; anything near this size is not a caller's microphone. */
const MAX_FRAME_BYTES = 256 * 1024;

/** Live calls (spec §7): start a call, room tokens, the realtime socket, active rooms. */
export async function callRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const rt: CallsRuntime = {
    ctx,
    metrics: createCallMetrics(app.metricsRegistry),
    log: app.log,
  };
  const scoped = tenantRoute(app);
  // Calls a crashed process left open are closed before this one serves; its own are kept alive.
  let stopUpkeep = () => {};
  app.addHook("onReady", async () => {
    stopUpkeep = await startCallUpkeep(rt);
  });
  app.addHook("onClose", async () => stopUpkeep());
  // Calls end (and their logs are written) before the sockets are closed under them.
  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    preClose: async function closeCalls(this: FastifyInstance) {
      await endAllCalls(rt);
      for (const client of this.websocketServer.clients) client.close(1001, "server_shutdown");
    },
  });

  r.post(
    "/agents/:id/call",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Start a browser call with an assistant: creates its room",
        params: z.object({ id: z.uuid() }),
        response: { 201: StartCallResponse, ...errors },
      },
    },
    async (request, reply) => reply.code(201).send(await startCall(rt, tenantOf(request), request.params.id)),
  );

  r.get(
    "/agents/room/generate_room_token",
    {
      ...scoped,
      schema: {
        tags,
        summary: "A one-use token (60 s) to join a room of the workspace over the realtime socket",
        querystring: RoomTokenQuery,
        response: { ...errors, 200: RoomTokenResponse, 404: RoomTokenResponse.extend({ detail: z.string() }) },
      },
    },
    async (request, reply) => {
      const { workspaceId } = tenantOf(request);
      const room = ctx.rooms.find(workspaceId, request.query.room_name);
      if (!room) {
        const message = "Room not found. The call may have ended.";
        return reply.code(404).send({ accessToken: "", result: "error", message, url: REALTIME_PATH, detail: message });
      }
      const accessToken = await signRoomToken(ctx, {
        room: room.name,
        identity: request.query.user_identity,
        name: request.query.name || "User",
        workspaceId,
      });
      return { accessToken, result: "success" as const, message: "Token generated.", url: REALTIME_PATH };
    },
  );

  r.get(
    "/agents/room/workspace_rooms",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Calls in progress in the workspace",
        response: { 200: WorkspaceRoomsResponse, ...errors },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      return { rooms: ctx.rooms.inWorkspace(tenantOf(request).workspaceId).map(toActiveRoom) };
    },
  );

  r.post(
    "/agents/room/:room/remove_participant",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Remove a participant from a room; removing the caller or the assistant ends the call",
        params: z.object({ room: z.string().min(1).max(100) }),
        querystring: RemoveParticipantQuery,
        response: { 200: MessageResponse, ...errors },
      },
    },
    async (request) => {
      const room = ctx.rooms.find(tenantOf(request).workspaceId, request.params.room);
      if (!room) throw notFound("Room not found.");
      if (!room.participants.has(request.query.participant_identity) || !room.call) {
        throw notFound("Participant not found.");
      }
      await room.call.end("removed");
      return { message: "Participant removed. The call has ended." };
    },
  );

  r.get(
    "/realtime",
    {
      websocket: true,
      schema: { hide: true, querystring: z.object({ token: z.string().max(4096).optional() }) },
    },
    (socket, request) => handleRealtimeSocket(rt, socket, request, request.query.token),
  );
}
