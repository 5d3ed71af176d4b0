import type { FastifyInstance } from "fastify";

export async function passwordResetRoutes(_app: FastifyInstance) {}
