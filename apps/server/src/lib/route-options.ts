import type { FastifySchema } from "fastify";
import { errorResponses } from "./error-responses.ts";

type Responses = Record<number, unknown>;

/** What one route declares beyond its guard and tags; the family's error statuses are added to `response`. */
type RouteSchema = Omit<FastifySchema, "tags" | "summary" | "response"> & { response?: Responses };

type WithErrors<R, E> = (R extends Responses ? R : Record<never, never>) & E;

/**
 * The options of a family of routes that share a guard (the hooks that authenticate the caller and
 * resolve their workspace), OpenAPI tags and error statuses: each route then names only its summary
 * and schema, `route("One function", { params: IdParams, response: { 200: ToolFunction } })`.
 * The error statuses default to those every authenticated route can answer (lib/error-responses.ts).
 */
export function routeOptions<G extends object, E extends Responses = typeof errorResponses>(
  guard: G,
  tags: string[],
  errors: E = errorResponses as Responses as E,
) {
  return <S extends RouteSchema>(summary: string, schema: S) => ({
    ...guard,
    schema: {
      tags,
      summary,
      ...schema,
      response: { ...schema.response, ...errors } as WithErrors<S["response"], E>,
    },
  });
}
