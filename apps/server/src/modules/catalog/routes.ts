import { MlModelsQuery, MlModelsResponse, ModelsResponse, TranscriberResponse, VoicesResponse } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../lib/app-error.ts";
import { errorResponses } from "../../lib/error-responses.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { requireWorkspace } from "../workspaces/service.ts";
import { isSttProvider, isTtsProvider, mlModels, modelsFor, transcriber } from "./builtin.ts";
import { engineCatalogSource } from "./engine-source.ts";
import { VoiceLists } from "./voice-lists.ts";

const errors = errorResponses;
const tags = ["catalog"];
const IdParams = z.object({ id: z.string().trim().min(1).max(200) });
const ProviderParams = z.object({ provider: z.string().trim().min(1).max(60) });

/** The provider catalog of spec §7: models, transcriber options and voices per provider. */
export async function catalogRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const auth = { onRequest: app.authenticate };
  const voiceLists = new VoiceLists(ctx, engineCatalogSource);

  r.get(
    "/models/:id",
    {
      ...auth,
      schema: {
        tags,
        summary: "Models of a provider, given the provider id or one of its model ids",
        params: IdParams,
        response: { 200: ModelsResponse, ...errors },
      },
    },
    (request) => {
      const found = modelsFor(request.params.id);
      if (!found) throw notFound(`Unknown provider or model: ${request.params.id}`);
      return found;
    },
  );

  r.get(
    "/ml-models",
    {
      ...auth,
      schema: {
        tags,
        summary: "Every built-in model, filtered by type (llm, stt, tts) and provider",
        querystring: MlModelsQuery,
        response: { 200: MlModelsResponse, ...errors },
      },
    },
    (request) => mlModels(request.query),
  );

  r.get(
    "/transcribers/:provider",
    {
      ...auth,
      schema: {
        tags,
        summary: "A transcriber's models, languages, defaults and settings",
        params: ProviderParams,
        response: { 200: TranscriberResponse, ...errors },
      },
    },
    (request) => {
      const { provider } = request.params;
      if (!isSttProvider(provider)) throw notFound(`Unknown transcriber provider: ${provider}`);
      return transcriber(provider);
    },
  );

  r.get(
    "/voices/:provider",
    {
      ...auth,
      schema: {
        tags,
        summary: "Voices and models of a voice provider (live with a key), with the workspace's clones",
        params: ProviderParams,
        response: { 200: VoicesResponse, ...errors },
      },
    },
    async (request) => {
      const { provider } = request.params;
      if (!isTtsProvider(provider)) throw notFound(`Unknown voice provider: ${provider}`);
      const membership = await requireWorkspace(ctx.db, principalOf(request));
      return voiceLists.forWorkspace(membership.workspace.id, provider);
    },
  );
}
