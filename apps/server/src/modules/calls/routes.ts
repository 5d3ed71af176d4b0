import websocket from "@fastify/websocket";
import {
  ErrorResponse,
  MessageResponse,
  REALTIME_PATH,
  RemoveParticipantQuery,
  RoomTokenQuery,
  RoomTokenResponse,
  routedSocketPath,
  StartCallResponse,
  WorkspaceRoomsResponse,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../lib/app-error.ts";
import { errorResponses } from "../../lib/error-responses.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { handleRealtimeSocket } from "./realtime-socket.ts";
import { roomGrantClaims } from "./runtime.ts";

const tags = ["calls"];
const errors = { ...errorResponses, 429: ErrorResponse };
/** A call start can also be refused while this process is saturated (admission control). */
const startErrors = { ...errors, 503: ErrorResponse };
/** Binary frames are 20 ms of audio; anything near this size is not a caller's microphone. */
const MAX_FRAME_BYTES = 256 * 1024;
const ROOM_NOT_FOUND = "Room not found.";
const HOLDER_SILENT =
  "The server process running this call did not answer in time. The call may still be running: try again.";

/** Live calls (spec §7): start a call, room tokens, the realtime socket, active rooms. */
export async function callRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { calls } = ctx;
  const scoped = tenantRoute(app);
  // Calls a crashed process left open are closed before this one serves; its own are kept alive.
  let stopServing = async () => {};
  app.addHook("onReady", async () => {
    stopServing = await calls.serve();
  });
  app.addHook("onClose", async () => stopServing());
  // Calls end (and their logs are written) before the sockets are closed under them.
  await app.register(websocket, {
    options: { maxPayload: MAX_FRAME_BYTES },
    preClose: async function closeCalls(this: FastifyInstance) {
      await calls.endAll();
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
        response: { 201: StartCallResponse, ...startErrors },
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const room = await calls.openCallRoom(tenant, {
        agentId: request.params.id,
        channel: "web",
        direction: "inbound",
        callerKey: `user:${tenant.userId}`,
      });
      return reply.code(201).send({
        room: { name: room.name, agent_id: room.agentId, created_at: room.createdAt.toISOString() },
        call_id: room.callId,
      });
    },
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
      // Any process may sign it (the key derives from the shared secret); the room may be held elsewhere.
      const where = await calls.rooms.locate(workspaceId, request.query.room_name);
      if (!where) {
        const message = "Room not found. The call may have ended.";
        return reply.code(404).send({ accessToken: "", result: "error", message, url: REALTIME_PATH, detail: message });
      }
      const grant = roomGrantClaims({
        room: where.held === "here" ? where.room.name : where.row.name,
        identity: request.query.user_identity,
        name: request.query.name || "User",
        workspaceId,
      });
      const accessToken = await calls.signGrant("room", grant);
      // The socket URL names the node holding the room, so the load balancer sends the caller there.
      const node = where.held === "here" ? ctx.node.routingKey : where.row.nodeId;
      const url = routedSocketPath(REALTIME_PATH, node);
      return { accessToken, result: "success" as const, message: "Token generated.", url };
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
      return { rooms: await calls.rooms.listAll(tenantOf(request).workspaceId) };
    },
  );

  r.post(
    "/agents/room/:room/remove_participant",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Remove a participant from a room; removing the caller or the assistant ends the call",
        description:
          "The call may run on any server process: the one holding it is asked (PostgreSQL NOTIFY) and " +
          "the answer waits for it to end the call; 504 when that process does not answer in time.",
        params: z.object({ room: z.string().min(1).max(100) }),
        querystring: RemoveParticipantQuery,
        response: { 200: MessageResponse, ...errors, 504: ErrorResponse },
      },
    },
    async (request, reply) => {
      const { workspaceId } = tenantOf(request);
      const outcome = await calls.rooms.removeParticipant(
        workspaceId,
        request.params.room,
        request.query.participant_identity,
      );
      if (outcome === "room_not_found") throw notFound(ROOM_NOT_FOUND);
      if (outcome === "participant_not_found") throw notFound("Participant not found.");
      if (outcome === "no_answer") return reply.code(504).send({ detail: HOLDER_SILENT });
      return { message: "Participant removed. The call has ended." };
    },
  );

  const realtimeQuery = z.object({ token: z.string().max(4096).optional() });
  r.get("/realtime", { websocket: true, schema: { hide: true, querystring: realtimeQuery } }, (socket, request) =>
    handleRealtimeSocket(ctx, socket, request, request.query.token),
  );
  // The same socket with the holder's routing key (deploy/: the load balancer routes on it). Any
  // node serves it: one that does not hold the room takes it over if nobody has joined it yet.
  r.get(
    "/realtime/:node",
    {
      websocket: true,
      schema: { hide: true, querystring: realtimeQuery, params: z.object({ node: z.string().max(64) }) },
    },
    (socket, request) => handleRealtimeSocket(ctx, socket, request, request.query.token),
  );
}
