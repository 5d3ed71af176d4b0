import { AdminNodesResponse } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { routeOptions } from "../../lib/route-options.ts";
import { sipRuntimeOf } from "../sip/sip-runtime.ts";
import { startNodeHeartbeat } from "./heartbeat.ts";
import { listNodes } from "./service.ts";

/** The nodes serving this database: each one's heartbeat, and the superuser's list of them. */
export async function nodeRoutes(app: FastifyInstance) {
  const { ctx } = app;
  let heartbeat: { stop(): Promise<void> } | null = null;
  app.addHook("onReady", async () => {
    heartbeat = startNodeHeartbeat(ctx, {
      http: () => {
        const address = app.server.address();
        return typeof address === "object" && address ? address.port : ctx.config.port;
      },
      sip: () => sipRuntimeOf(ctx)?.port ?? null,
    });
  });
  // Before the database closes (onClose hooks run in registration order, the database after the app).
  app.addHook("preClose", async () => heartbeat?.stop());

  const route = routeOptions({ onRequest: app.requireSuperuser }, ["admin"]);
  app.withTypeProvider<ZodTypeProvider>().get(
    "/admin/nodes",
    route("The server processes serving this database: state, calls, version, last heartbeat", {
      response: { 200: AdminNodesResponse },
    }),
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return { nodes: await listNodes(ctx.db, ctx.now()) };
    },
  );
}
