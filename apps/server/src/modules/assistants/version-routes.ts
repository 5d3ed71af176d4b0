import {
  Assistant,
  AssistantDraft,
  AssistantVersion,
  AssistantVersionSummary,
  PublishBody,
  VersionDiff,
  VersionDiffQuery,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { saveDraft, toDraft } from "./draft.ts";
import { editedDraft, UpdateAssistantRequest } from "./save-assistant.ts";
import { requireAgent } from "./service.ts";
import { diffVersions, publishDraft, restoreVersion } from "./version-actions.ts";
import { listVersions, requireVersionRow, versionOf } from "./versions.ts";

const tags = ["assistants"];
const IdParams = z.object({ id: z.uuid() });
const VersionParams = IdParams.extend({ number: z.coerce.number().int().min(1) });

/**
 * Versions of an assistant (issue 30): the history, the editor's draft, publishing it, a rollback
 * (an old version published again under a new number) and a field-level diff of two versions.
 */
export async function assistantVersionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(tenantRoute(app), tags);

  r.get(
    "/agents/:id/versions",
    route("The assistant's published versions, newest first", {
      params: IdParams,
      response: { 200: z.array(AssistantVersionSummary) },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      return listVersions(ctx.db, tenant, await requireAgent(ctx.db, tenant, request.params.id));
    },
  );

  r.get(
    "/agents/:id/versions/diff",
    route("The fields that differ between two versions", {
      params: IdParams,
      querystring: VersionDiffQuery,
      response: { 200: VersionDiff },
    }),
    async (request) => diffVersions(ctx.db, tenantOf(request), request.params.id, request.query),
  );

  r.get(
    "/agents/:id/versions/:number",
    route("One version, with its whole configuration", { params: VersionParams, response: { 200: AssistantVersion } }),
    async (request) => {
      const tenant = tenantOf(request);
      const agent = await requireAgent(ctx.db, tenant, request.params.id);
      return versionOf(
        ctx.db,
        await requireVersionRow(ctx.db, tenant, agent.id, request.params.number),
        agent.publishedVersion,
      );
    },
  );

  r.post(
    "/agents/:id/versions/:number/restore",
    route('Roll back: publish an old version again as a new one (note "Rollback to vN")', {
      params: VersionParams,
      response: { 200: Assistant },
    }),
    async (request) => restoreVersion(ctx, tenantOf(request), request.params.id, request.params.number),
  );

  r.get(
    "/agents/:id/draft",
    route("The configuration the editor works on (the published one when nothing is pending)", {
      params: IdParams,
      response: { 200: AssistantDraft },
    }),
    async (request) => toDraft(await requireAgent(ctx.db, tenantOf(request), request.params.id)),
  );

  r.put(
    "/agents/:id/draft",
    route("Save the draft: the fields sent change, calls keep running the published version", {
      params: IdParams,
      body: UpdateAssistantRequest,
      response: { 200: AssistantDraft },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      const row = await requireAgent(ctx.db, tenant, request.params.id);
      return toDraft(await saveDraft(ctx.db, tenant, row, await editedDraft(ctx, tenant, row, request.body)));
    },
  );

  r.post(
    "/agents/:id/publish",
    route("Publish the draft as the next version: calls run it from now on", {
      params: IdParams,
      body: PublishBody,
      response: { 200: Assistant },
    }),
    async (request) => publishDraft(ctx, tenantOf(request), request.params.id, request.body.note),
  );
}
