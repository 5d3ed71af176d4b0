import {
  CreateExperimentBody,
  Experiment,
  ExperimentAction,
  ExperimentResults,
  MessageResponse,
  PromoteBody,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { experimentResults } from "./experiment-results.ts";
import {
  actOnExperiment,
  createExperiment,
  deleteDraftExperiment,
  listExperiments,
  promoteWinner,
  requireExperiment,
  toExperiment,
} from "./experiments.ts";

const tags = ["assistants"];
const IdParams = z.object({ id: z.uuid() });
const ExperimentParams = IdParams.extend({ eid: z.uuid() });
const ActionParams = ExperimentParams.extend({ action: ExperimentAction });

/** Experiments of an assistant (issue 30): traffic split between its versions, and results per variant. */
export async function experimentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(tenantRoute(app), tags);

  r.get(
    "/agents/:id/experiments",
    route("The assistant's experiments, newest first", { params: IdParams, response: { 200: z.array(Experiment) } }),
    async (request) => listExperiments(ctx.db, tenantOf(request), request.params.id),
  );

  r.post(
    "/agents/:id/experiments",
    route("Create an experiment (a draft): versions and their percentages, adding up to 100", {
      params: IdParams,
      body: CreateExperimentBody,
      response: { 201: Experiment },
    }),
    async (request, reply) =>
      reply.code(201).send(await createExperiment(ctx, tenantOf(request), request.params.id, request.body)),
  );

  r.get(
    "/agents/:id/experiments/:eid",
    route("One experiment", { params: ExperimentParams, response: { 200: Experiment } }),
    async (request) => {
      const { experiment, variants } = await requireExperiment(
        ctx.db,
        tenantOf(request),
        request.params.id,
        request.params.eid,
      );
      return toExperiment(experiment, variants);
    },
  );

  r.post(
    "/agents/:id/experiments/:eid/:action",
    route("start, pause, resume or end the experiment", { params: ActionParams, response: { 200: Experiment } }),
    async (request) => {
      const { id, eid, action } = request.params;
      return actOnExperiment(ctx, tenantOf(request), id, eid, action);
    },
  );

  r.post(
    "/agents/:id/experiments/:eid/promote",
    route("Promote the winner: publish its version and end the experiment", {
      params: ExperimentParams,
      body: PromoteBody,
      response: { 200: Experiment },
    }),
    async (request) => promoteWinner(ctx, tenantOf(request), request.params.id, request.params.eid, request.body),
  );

  r.get(
    "/agents/:id/experiments/:eid/results",
    route("Per variant: calls, success rate, duration, transfers, cost, latency, p-value against the first", {
      params: ExperimentParams,
      response: { 200: ExperimentResults },
    }),
    async (request) => experimentResults(ctx.db, tenantOf(request), request.params.id, request.params.eid),
  );

  r.delete(
    "/agents/:id/experiments/:eid",
    route("Delete a draft experiment", { params: ExperimentParams, response: { 200: MessageResponse } }),
    messageAfter("Experiment deleted.", (request) =>
      deleteDraftExperiment(ctx.db, tenantOf(request), request.params.id, request.params.eid),
    ),
  );
}
