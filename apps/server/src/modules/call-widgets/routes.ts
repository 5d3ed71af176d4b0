import { CallWidget, CallWidgetCreate, CallWidgetList, CallWidgetUpdate, MessageResponse } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses as errors } from "../../lib/error-responses.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { pruneWidgetCalls } from "./public-key-and-prune-across-workspaces.ts";
import { publicWidgetRoutes } from "./public-routes.ts";
import {
  createCallWidget,
  deleteCallWidget,
  listCallWidgets,
  requireCallWidget,
  rotateWidgetKey,
  toCallWidget,
  updateCallWidget,
} from "./service.ts";

const IdParams = z.object({ id: z.uuid() });
const PRUNE_EVERY_MS = 15 * 60_000;

/** Call widgets: the workspace's CRUD (signed in) and the public routes the embed script uses. */
export async function callWidgetRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const tags = ["call-widgets"];
  const scoped = tenantRoute(app);
  await app.register(async (open) => publicWidgetRoutes(open, ctx));

  let pruner: NodeJS.Timeout | null = null;
  app.addHook("onReady", async () => {
    const prune = () =>
      pruneWidgetCalls(db, ctx.now()).catch((error: unknown) =>
        app.log.warn({ err: error }, "could not prune old widget calls"),
      );
    pruner = setInterval(prune, PRUNE_EVERY_MS);
    pruner.unref();
  });
  app.addHook("onClose", async () => {
    if (pruner) clearInterval(pruner);
  });

  r.get(
    "/call-widgets",
    {
      ...scoped,
      schema: {
        tags,
        summary: "The workspace's call widgets, newest first",
        response: { 200: CallWidgetList, ...errors },
      },
    },
    async (request) => ({ data: (await listCallWidgets(db, tenantOf(request))).map(toCallWidget) }),
  );

  r.get(
    "/call-widgets/:id",
    {
      ...scoped,
      schema: { tags, summary: "One call widget", params: IdParams, response: { 200: CallWidget, ...errors } },
    },
    async (request) => toCallWidget(await requireCallWidget(db, tenantOf(request), request.params.id)),
  );

  r.post(
    "/call-widgets",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Create a call widget for an assistant (it gets a new public key)",
        body: CallWidgetCreate,
        response: { 201: CallWidget, ...errors },
      },
    },
    async (request, reply) =>
      reply.code(201).send(toCallWidget(await createCallWidget(db, tenantOf(request), request.body))),
  );

  r.patch(
    "/call-widgets/:id",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Change a call widget (the fields given are replaced whole)",
        params: IdParams,
        body: CallWidgetUpdate,
        response: { 200: CallWidget, ...errors },
      },
    },
    async (request) =>
      toCallWidget(await updateCallWidget(db, tenantOf(request), request.params.id, request.body, ctx.now())),
  );

  r.post(
    "/call-widgets/:id/rotate-key",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Give the widget a new public key; pages embedding the old key stop working",
        params: IdParams,
        response: { 200: CallWidget, ...errors },
      },
    },
    async (request) => toCallWidget(await rotateWidgetKey(db, tenantOf(request), request.params.id, ctx.now())),
  );

  r.delete(
    "/call-widgets/:id",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Delete a call widget; calls in progress carry on",
        params: IdParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    messageAfter("Call widget deleted.", (request) => deleteCallWidget(db, tenantOf(request), request.params.id)),
  );
}
