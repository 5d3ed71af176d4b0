import {
  CreateSquadBody,
  MessageResponse,
  Squad,
  SquadCallBody,
  SquadListResponse,
  StartCallResponse,
  UpdateSquadBody,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../lib/app-error.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { recordCallSquad } from "./call-squads.ts";
import { createSquad, deleteSquad, firstMember, listSquads, requireSquad, toSquad, updateSquad } from "./service.ts";

const IdParams = z.object({ id: z.uuid() });

/** Squads (issue 31): CRUD, and a browser test call that starts at any member. */
export async function squadRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const route = routeOptions(tenantRoute(app), ["squads"]);

  r.get("/squads", route("The workspace's squads", { response: { 200: SquadListResponse } }), async (request) => {
    const rows = await listSquads(db, tenantOf(request));
    return { squads: rows.map(toSquad), total: rows.length };
  });

  r.get("/squads/:id", route("One squad", { params: IdParams, response: { 200: Squad } }), async (request) =>
    toSquad(await requireSquad(db, tenantOf(request), request.params.id)),
  );

  r.post(
    "/squads",
    route("Create a squad", { body: CreateSquadBody, response: { 201: Squad } }),
    async (request, reply) => reply.code(201).send(toSquad(await createSquad(db, tenantOf(request), request.body))),
  );

  r.put(
    "/squads/:id",
    route("Replace a squad", { params: IdParams, body: UpdateSquadBody, response: { 200: Squad } }),
    async (request) => toSquad(await updateSquad(db, tenantOf(request), request.params.id, request.body)),
  );

  r.delete(
    "/squads/:id",
    route("Delete a squad", { params: IdParams, response: { 200: MessageResponse } }),
    messageAfter("Squad deleted.", (request) => deleteSquad(db, tenantOf(request), request.params.id)),
  );

  r.post(
    "/squads/:id/call",
    route("Start a browser test call with a squad, at its first member or the one named", {
      params: IdParams,
      body: SquadCallBody.optional(),
      response: { 201: StartCallResponse },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      const squad = await requireSquad(db, tenant, request.params.id);
      const wanted = request.body?.member;
      const member = wanted ? squad.members.find((m) => m.name === wanted) : firstMember(squad);
      if (!member) throw new AppError("validation", `"${wanted}" is not a member of the squad.`);
      const room = await ctx.calls.openCallRoom(tenant, {
        agentId: member.assistant_id,
        channel: "web",
        direction: "inbound",
        callerKey: `user:${tenant.userId}`,
      });
      // Recorded before the answer names the room: its caller cannot join before the call knows its squad.
      await recordCallSquad(db, tenant, { callId: room.callId, squadId: squad.id, member: member.name });
      return reply.code(201).send({
        room: { name: room.name, agent_id: room.agentId, created_at: room.createdAt.toISOString() },
        call_id: room.callId,
      });
    },
  );
}
