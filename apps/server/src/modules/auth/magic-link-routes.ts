import type { FastifyInstance } from "fastify";

export async function magicLinkRoutes(_app: FastifyInstance) {}
