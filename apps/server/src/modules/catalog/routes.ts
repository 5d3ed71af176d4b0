import {
  LLM_CATALOG,
  MlModelsQuery,
  MlModelsResponse,
  ModelsResponse,
  TranscriberResponse,
  VoicesResponse,
} from "@parley/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../lib/app-error.ts";
import { errorResponses } from "../../lib/error-responses.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf } from "../../plugins/tenant.ts";
import { isSttProvider, isTtsProvider, mlModels, modelsFor, transcriber } from "./builtin.ts";
import { engineCatalogSource } from "./engine-source.ts";
import { SERVER_MODEL_PROVIDERS, ServerModelsQuery, ServerModelsResponse, serverModels } from "./server-models.ts";
import { VoiceLists } from "./voice-lists.ts";

const tags = ["catalog"];
const IdParams = z.object({ id: z.string().trim().min(1).max(200) });
const ProviderParams = z.object({ provider: z.string().trim().min(1).max(60) });

/** An unknown provider is answered before the workspace is looked at. */
async function knownVoiceProvider(request: FastifyRequest) {
  const { provider } = ProviderParams.parse(request.params);
  if (!isTtsProvider(provider)) throw notFound(`Unknown voice provider: ${provider}`);
}

/** The provider catalog of spec §7: models, transcriber options and voices per provider. */
export async function catalogRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const auth = { onRequest: app.authenticateUserOrKey };
  const route = routeOptions(auth, tags);
  const voicesRoute = routeOptions({ ...auth, preHandler: [knownVoiceProvider, app.resolveTenant] }, tags);
  const voiceLists = new VoiceLists(ctx, engineCatalogSource);

  r.get(
    "/models/:id",
    route("Models of a provider, given the provider id or one of its model ids", {
      params: IdParams,
      response: { 200: ModelsResponse },
    }),
    (request) => {
      const found = modelsFor(request.params.id);
      if (!found) throw notFound(`Unknown provider or model: ${request.params.id}`);
      return found;
    },
  );

  // Each takes its id from /models/{id}; without base_url it answers the same built-in list, as
  // before (no workspace needed), and with one it asks that server for its models.
  for (const provider of SERVER_MODEL_PROVIDERS) {
    r.get(
      `/models/${provider}`,
      {
        ...auth,
        preHandler: async (request) => {
          if (request.query.base_url) await app.resolveTenant(request);
        },
        schema: {
          tags,
          summary: `${LLM_CATALOG[provider].label}: the models listed by the server at the assistant's base URL`,
          querystring: ServerModelsQuery,
          response: { 200: ServerModelsResponse, ...errorResponses },
        },
      },
      async (request) => {
        const { base_url: baseUrl } = request.query;
        if (!baseUrl) return { provider, models: LLM_CATALOG[provider].models };
        return serverModels(ctx, tenantOf(request).workspaceId, provider, baseUrl);
      },
    );
  }

  r.get(
    "/ml-models",
    route("Every built-in model, filtered by type (llm, stt, tts) and provider", {
      querystring: MlModelsQuery,
      response: { 200: MlModelsResponse },
    }),
    (request) => mlModels(request.query),
  );

  r.get(
    "/transcribers/:provider",
    route("A transcriber's models, languages, defaults and settings", {
      params: ProviderParams,
      response: { 200: TranscriberResponse },
    }),
    (request) => {
      const { provider } = request.params;
      if (!isSttProvider(provider)) throw notFound(`Unknown transcriber provider: ${provider}`);
      return transcriber(provider);
    },
  );

  r.get(
    "/voices/:provider",
    voicesRoute("Voices and models of a voice provider (live with a key), with the workspace's clones", {
      params: ProviderParams,
      response: { 200: VoicesResponse },
    }),
    async (request) => {
      const { provider } = request.params;
      if (!isTtsProvider(provider)) throw notFound(`Unknown voice provider: ${provider}`);
      return voiceLists.forWorkspace(tenantOf(request), provider);
    },
  );
}
