import { HealthResponse, LivenessResponse, ReadinessResponse } from "@parley/contract";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { lastAnsweredAt } from "../../db/client.ts";
import { databaseCheck } from "./database-check.ts";

/**
 * Health for people and probes. /health is the database check it always was (a statement answered
 * in the last second counts, database-check.ts); /health/live and
 * /health/ready split it the way process managers and load balancers need: a live process that is
 * draining or has lost its database must not be restarted, only taken out of rotation.
 */
export async function healthRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ["health"];
  // Balancers and process managers probe every second or so: their requests are not logged at info.
  const probe = { logLevel: "warn", config: { probe: true } } as const;

  const databaseReachable = databaseCheck({
    lastAnsweredAt: () => lastAnsweredAt(ctx.db),
    ping: () => ctx.db.execute(sql`select 1`),
  });

  r.get(
    "/health",
    {
      schema: { tags, summary: "Liveness and database check", response: { 200: HealthResponse, 503: HealthResponse } },
    },
    async (_request, reply) => {
      if (await databaseReachable()) return { status: "ok" as const, database: "ok" as const };
      return reply.code(503).send({ status: "degraded", database: "unreachable" });
    },
  );

  r.get(
    "/health/live",
    {
      ...probe,
      schema: {
        tags,
        summary: "Liveness: the process answers (no dependency is checked)",
        response: { 200: LivenessResponse },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return {
        status: "alive" as const,
        node: ctx.node.id,
        uptime_seconds: Math.round((Date.now() - ctx.node.startedAt.getTime()) / 1000),
      };
    },
  );

  r.get(
    "/health/ready",
    {
      ...probe,
      schema: {
        tags,
        summary:
          "Readiness: 200 while this node serves (status busy while admission control refuses new calls); " +
          "503 while it drains or its database is unreachable",
        response: { 200: ReadinessResponse, 503: ReadinessResponse },
      },
    },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      const database = (await databaseReachable()) ? ("ok" as const) : ("unreachable" as const);
      // A saturated node says so but stays in the balancer's rotation: taken out, a single node (or
      // a cluster whose nodes are all busy) would answer 503 to the web app, the API and its own
      // calls' carrier callbacks too. New calls it cannot take are refused one by one instead: SIP
      // with a 503 that Kamailio retries on the next node, HTTP with 503 and Retry-After.
      const busy = ctx.admission.status().state;
      const status = !ctx.node.accepting
        ? "draining"
        : database !== "ok"
          ? "unready"
          : busy === "busy" || busy === "full"
            ? "busy"
            : "ready";
      const body = { status, node: ctx.node.id, database, active_calls: ctx.calls.rooms.all().length } as const;
      return reply.code(status === "ready" || status === "busy" ? 200 : 503).send(body);
    },
  );
}
