import type { FastifyReply } from "fastify";

/**
 * Sends JSON the database already wrote, as it is: a string with a JSON content type passes the
 * route's serializer by. The route still declares its response schema (OpenAPI), and its tests
 * read the answer through that schema. Typed as the plain reply because the route's typed reply
 * only accepts the schema's object type.
 */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type("application/json; charset=utf-8").send(json);
}
