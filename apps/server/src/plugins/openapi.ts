import swagger, { type SwaggerTransform } from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { API_KEY_SECRET_PREFIX } from "@parley/contract";
import type { FastifyInstance, RouteOptions } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import { requiredScope } from "../lib/scope-policy.ts";

const hooksOf = (route: RouteOptions): unknown[] => [route.onRequest ?? []].flat();

/**
 * Every route declares who may call it: a user's access token everywhere authentication runs, and
 * a workspace API key (with the scope it needs) on the routes that accept one (plugins/tenant.ts).
 */
function withSecurity(app: FastifyInstance): SwaggerTransform {
  return (input) => {
    const out = jsonSchemaTransform(input);
    const hooks = hooksOf(input.route);
    const acceptsKey = hooks.includes(app.authenticateUserOrKey);
    const userOnly = hooks.includes(app.authenticate) || hooks.includes(app.requireSuperuser);
    if (!acceptsKey && !userOnly) return out;
    const schema = { ...out.schema } as Record<string, unknown>;
    if (acceptsKey) {
      const methods = [input.route.method].flat();
      const scope = requiredScope(String(methods[0]), input.route.url);
      const note = `API keys need the "${scope}" scope.`;
      schema.security = [{ bearerAuth: [] }, { apiKey: [] }];
      schema.description = typeof schema.description === "string" ? `${schema.description}\n\n${note}` : note;
    } else {
      schema.security = [{ bearerAuth: [] }];
    }
    return { ...out, schema };
  };
}

/** OpenAPI document at /api/v1/openapi.json, generated from the routes' zod schemas; docs UI at /api/docs. */
export async function registerOpenApi(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: { title: "Parley API", version: "1.0.0", description: "Build, test and operate AI voice assistants." },
      servers: [{ url: "/" }],
      components: {
        securitySchemes: {
          bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "A signed-in user's token." },
          apiKey: {
            type: "http",
            scheme: "bearer",
            bearerFormat: `${API_KEY_SECRET_PREFIX}…`,
            description:
              "A workspace API key (created on /api-keys) as `Authorization: Bearer pk_live_…`. It acts inside its " +
              "workspace only, on the routes its scopes allow: read (GET), write (other changes), calls (start, " +
              "join and end calls). Account, admin, member and API-key routes refuse keys.",
          },
        },
      },
    },
    transform: withSecurity(app),
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", uiConfig: { persistAuthorization: true } });
  app.get("/api/v1/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}
