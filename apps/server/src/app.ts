import { randomUUID } from "node:crypto";
import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import { API_BASE_PATH } from "@parley/contract";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { TrustProxy } from "./config.ts";
import type { AppContext } from "./context.ts";
import { registerJobs } from "./jobs/plugin.ts";
import { logOptions } from "./lib/log-options.ts";
import { lazyRequestLogger, noteFailureDetail, RequestLogController } from "./lib/request-log.ts";
import { accountRoutes } from "./modules/admin/account-routes.ts";
import { adminRoutes } from "./modules/admin/routes.ts";
import { analyticsRoutes } from "./modules/analytics/routes.ts";
import { apiKeyRoutes } from "./modules/api-keys/routes.ts";
import { looksLikeApiKey } from "./modules/api-keys/secret.ts";
import { noteApiKeyUse, verifyApiKey } from "./modules/api-keys/verify.ts";
import { assistantRoutes } from "./modules/assistants/routes.ts";
import { authRoutes } from "./modules/auth/routes.ts";
import { batchCallRoutes } from "./modules/batch-calls/routes.ts";
import { findBatchCall } from "./modules/batch-calls/service.ts";
import { enqueueCallMetering } from "./modules/billing/metering.ts";
import { billingRoutes } from "./modules/billing/routes.ts";
import { callAnalysisRoutes } from "./modules/call-analysis/routes.ts";
import { callLogRoutes } from "./modules/call-logs/routes.ts";
import { callWidgetRoutes } from "./modules/call-widgets/routes.ts";
import { callRoutes } from "./modules/calls/routes.ts";
import { catalogRoutes } from "./modules/catalog/routes.ts";
import { functionRoutes } from "./modules/functions/routes.ts";
import { healthRoutes } from "./modules/health/routes.ts";
import { integrationRoutes } from "./modules/integrations/routes.ts";
import { documentRoutes } from "./modules/knowledge-base/routes.ts";
import { mcpRoutes } from "./modules/mcp-servers/routes.ts";
import { nodeRoutes } from "./modules/nodes/routes.ts";
import { phoneNumberRoutes } from "./modules/phone-numbers/routes.ts";
import { privacyRoutes } from "./modules/privacy/routes.ts";
import { sipRoutes } from "./modules/sip/routes.ts";
import { squadRoutes } from "./modules/squads/routes.ts";
import { telephonyRoutes } from "./modules/telephony/routes.ts";
import { testSuiteRoutes } from "./modules/test-suites/routes.ts";
import { authStateOf } from "./modules/users/auth-state.ts";
import { userRoutes } from "./modules/users/routes.ts";
import { voiceRoutes } from "./modules/voice-lab/routes.ts";
import { enqueueCallEndedWebhook } from "./modules/webhooks/call-ended.ts";
import { fanOutEvent } from "./modules/webhooks/deliveries.ts";
import { webhookRoutes } from "./modules/webhooks/routes.ts";
import { messagingNumberRoutes } from "./modules/whatsapp/routes.ts";
import { workflowRoutes } from "./modules/workflows/routes.ts";
import { workflowTestTurnRoutes } from "./modules/workflows/test-turn.ts";
import { workspaceRoutes } from "./modules/workspaces/routes.ts";
import { requireWorkspace } from "./modules/workspaces/service.ts";
import { registerAuthentication } from "./plugins/authenticate.ts";
import {
  clientErrorHandler,
  frameworkErrors,
  registerErrorHandling,
  registerJsonNotFound,
} from "./plugins/error-handler.ts";
import { registerInputGuards } from "./plugins/input-guards.ts";
import { registerMetrics } from "./plugins/metrics.ts";
import { registerOpenApi } from "./plugins/openapi.ts";
import { compiledSerializerCompiler } from "./plugins/response-serializer.ts";
import { registerSecurityHeaders } from "./plugins/security-headers.ts";
import { registerTenant } from "./plugins/tenant.ts";
import { registerWebApp } from "./plugins/web-app.ts";

declare module "fastify" {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export type App = FastifyInstance;
export type TypedApp = ReturnType<FastifyInstance["withTypeProvider"]> & FastifyInstance;

export interface BuildOptions {
  /** pino options (lib/log-options.ts by default); `false` silences logging (tests). */
  logger?: FastifyServerOptions["logger"];
  /** The server's logger (main.ts: the one the context's services write to); replaces `logger`. */
  loggerInstance?: FastifyBaseLogger;
}

/**
 * Fastify refuses a bare hop count (it trusts nothing then); hop count n trusts the n nearest
 * addresses — the socket's peer first — so the client address is the one our own proxy appended.
 */
function trustProxyOption(trust: TrustProxy) {
  return typeof trust === "number" ? (_address: string, hop: number) => hop < trust : trust;
}

/** Builds the HTTP application around an already opened context; the caller listens and closes. */
export async function buildApp(ctx: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? logOptions(ctx.config.logLevel) }),
    logController: new RequestLogController(ctx.config.logRequests),
    childLoggerFactory: lazyRequestLogger,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      return typeof given === "string" && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    connectionTimeout: 60_000,
    requestTimeout: 120_000,
    ajv: { customOptions: { removeAdditional: "all" } },
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate("ctx", ctx);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(compiledSerializerCompiler);
  app.addHook("onSend", async (request, reply, payload) => {
    reply.header("x-request-id", request.id);
    noteFailureDetail(request, reply, payload);
  });

  registerErrorHandling(app);
  registerSecurityHeaders(app, ctx.config.publicUrl);
  registerInputGuards(app);
  // The plugins name no module: the checks they run are handed in here.
  registerAuthentication(app, {
    looksLikeApiKey,
    verifyApiKey: (secret, now) => verifyApiKey(ctx.db, secret, now),
    noteApiKeyUse: (keyId, ip, now, onError) => noteApiKeyUse(ctx.db, keyId, ip, now, onError),
    accountState: (userId) => authStateOf(ctx.db, userId),
  });
  registerTenant(app, async (principal) => {
    const { workspace, role } = await requireWorkspace(ctx.db, principal);
    return { workspaceId: workspace.id, role };
  });
  await app.register(cookie);
  await app.register(formbody);
  await registerOpenApi(app);
  registerMetrics(app, ctx.metricsRegistry, {
    token: ctx.config.metricsToken,
    separateListener: ctx.config.metricsListen !== undefined,
  });
  registerJobs(app);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(userRoutes);
      await api.register(accountRoutes);
      await api.register(workspaceRoutes);
      await api.register(adminRoutes);
      await api.register(nodeRoutes);
      await api.register(assistantRoutes);
      await api.register(catalogRoutes);
      await api.register(voiceRoutes);
      await api.register(functionRoutes);
      await api.register(workflowRoutes);
      await api.register(workflowTestTurnRoutes);
      await api.register(integrationRoutes);
      await api.register(mcpRoutes);
      await api.register(squadRoutes);
      await api.register(phoneNumberRoutes);
      await api.register(callRoutes);
      await api.register(sipRoutes);
      await api.register(telephonyRoutes);
      await api.register(callLogRoutes);
      // Post-call analysis sends the call.ended webhook it made the webhooks module hold back, and
      // has the call metered with the analysis's tokens in its cost.
      await api.register(callAnalysisRoutes, {
        onFinished: async (ctx, workspaceId, callId) => {
          await enqueueCallMetering(ctx, workspaceId, callId);
          return enqueueCallEndedWebhook(ctx, workspaceId, callId);
        },
      });
      await api.register(callWidgetRoutes);
      await api.register(documentRoutes);
      await api.register(messagingNumberRoutes);
      await api.register(batchCallRoutes);
      await api.register(testSuiteRoutes);
      await api.register(billingRoutes);
      await api.register(apiKeyRoutes);
      await api.register(privacyRoutes);
      await api.register(webhookRoutes);
      // Analytics sends its alerts through the webhooks module and names campaigns through batch-calls.
      await api.register(analyticsRoutes, {
        sendAlertWebhook: async (ctx, workspaceId, data) => {
          const queued = await fanOutEvent(ctx.db, { workspaceId }, "alert.triggered", data, ctx.now());
          if (queued > 0) api.jobs.wake();
        },
        campaignName: async (db, tenant, id) => (await findBatchCall(db, tenant, id))?.name ?? null,
      });
    },
    { prefix: API_BASE_PATH },
  );

  const servesWeb = ctx.config.webDistDir ? await registerWebApp(app, ctx.config.webDistDir) : false;
  if (!servesWeb) registerJsonNotFound(app);
  return app;
}
