import {
  CreateExtensionBody,
  CreateExtensionResult,
  ErrorResponse,
  ExtensionStatus,
  ExtensionStatusBody,
  PHONE_NUMBER_TEXTS,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses } from "../../lib/error-responses.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { listSipTrunkNumbers } from "../phone-numbers/service.ts";
import { answerSipCalls } from "./answer-call.ts";
import { createExtension } from "./create-extension.ts";
import { extensionStatus } from "./extension-status.ts";
import { serveRegistrar } from "./registrar.ts";
import { sipRuntimeOf, startSipRuntime, stopSipRuntime } from "./sip-runtime.ts";
import { registerTrunks } from "./trunk-registrations.ts";

const tags = ["phone-numbers"];

/**
 * SIP inside Parley: the listener starts with the app (SIP_PORT; "off" disables it, a port that
 * cannot be bound logs and leaves it off), plus the extension routes of spec §7.
 */
export async function sipRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const scoped = tenantRoute(app);

  app.addHook("onReady", async () => {
    const runtime = await startSipRuntime(ctx);
    if (!runtime) return;
    serveRegistrar(runtime);
    answerSipCalls(runtime);
    // Registrations follow the trunk numbers of every workspace: read at start and every minute.
    registerTrunks(runtime, () => listSipTrunkNumbers(ctx.db));
  });
  app.addHook("onClose", async () => stopSipRuntime(ctx));

  r.post(
    "/phone-numbers/extensions",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Create a SIP extension: a number a desk phone or softphone registers to Parley as",
        body: CreateExtensionBody,
        response: { 201: CreateExtensionResult, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createExtension(ctx, tenantOf(request), request.body)),
  );

  r.post(
    "/phone-numbers/extensions/status",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Registration state of an extension: REGED, NOREG, RUNNING, ALIASED or NOT_FOUND",
        body: ExtensionStatusBody,
        response: { 200: ExtensionStatus, ...errorResponses, 500: ErrorResponse },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      // With the listener off no phone can be registered: the switch is unreachable, not "NOREG".
      if (!sipRuntimeOf(ctx)) return reply.code(500).send({ detail: PHONE_NUMBER_TEXTS.switchUnreachable });
      return extensionStatus(ctx, tenantOf(request), request.body);
    },
  );
}
