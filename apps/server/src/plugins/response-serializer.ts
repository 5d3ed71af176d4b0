import fastJson from "fast-json-stringify";
import { serializerCompiler as zodSerializerCompiler } from "fastify-type-provider-zod";
import { z } from "zod";

type ZodRouteCompiler = typeof zodSerializerCompiler;
type RouteSchema = Parameters<ZodRouteCompiler>[0];

/**
 * Responses are written by a serializer compiled once per route from its zod response schema
 * (turned into JSON Schema, then into a fast-json-stringify function), not by parsing every
 * outgoing object with zod: GET /agents with 50 assistants spent more time validating its own
 * answer than reading it from the database (issue 18).
 *
 * What the compiled serializer keeps of zod's behaviour: only declared fields are written (zod's
 * output objects strip unknown keys; their JSON Schema says additionalProperties: false). What it
 * drops: the check that a handler returned what it promised — handlers build their answers from
 * the same contract types, and the route tests read every response through the contract's
 * schemas. A schema JSON Schema cannot express (a transform, a custom check) keeps the zod
 * serializer, so such a route is still written exactly as zod would.
 */
export const compiledSerializerCompiler: ZodRouteCompiler = (route: RouteSchema) => {
  const { schema } = route;
  if (!(schema instanceof z.ZodType)) return zodSerializerCompiler(route);
  try {
    const json = z.toJSONSchema(schema, { io: "output", target: "draft-7", unrepresentable: "throw" });
    // The same draft-7 document; the two libraries model JSON Schema with different TypeScript types.
    const stringify = fastJson(json as fastJson.AnySchema);
    return (data: unknown) => stringify(data);
  } catch {
    return zodSerializerCompiler(route);
  }
};
