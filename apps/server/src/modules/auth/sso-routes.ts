import type { FastifyInstance } from "fastify";

export async function ssoRoutes(_app: FastifyInstance) {}
