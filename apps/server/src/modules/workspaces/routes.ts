import type { FastifyInstance } from "fastify";

export async function workspaceRoutes(_app: FastifyInstance) {}
