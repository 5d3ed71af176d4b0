import { HealthResponse } from "@parley/contract";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";

export async function healthRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/health",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness and database check",
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (_request, reply) => {
      try {
        await app.ctx.db.execute(sql`select 1`);
        return { status: "ok" as const, database: "ok" as const };
      } catch {
        return reply.code(503).send({ status: "degraded", database: "unreachable" });
      }
    },
  );
}
