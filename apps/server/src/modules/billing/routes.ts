import {
  BillingPeriod,
  BillingUsage,
  BillingUsageQuery,
  CallStatsResponse,
  ErrorResponse,
  PaymentRedirect,
  PaymentStatus,
  StatementQuery,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/error-responses.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute, userTenantRoute } from "../../plugins/tenant.ts";
import { billingUsage } from "./billing-usage.ts";
import { homeFigures } from "./home-figures.ts";
import { meterEndedCalls } from "./metering.ts";
import { buildStatement, statementCsv, statementPdf } from "./statement.ts";
import { checkoutUrl, paymentStatus, portalUrl } from "./stripe/payments.ts";

const tags = ["billing"];
const errors = { ...errorResponses, 502: ErrorResponse };
const PeriodParams = z.object({ period: BillingPeriod });

/**
 * Usage and billing of the caller's workspace: the metered month, Home's monthly figures, monthly
 * statements (CSV, PDF) and, with payments configured, checkout of the plan's tier and the customer
 * portal. Registering these routes also meters every call that ends (needs registerJobs(app)).
 */
export async function billingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(tenantRoute(app), tags, errors);
  const peopleRoute = routeOptions(userTenantRoute(app), tags, errors);
  // Home's figures sit with the call logs in the API, but are counted here, as /billing counts them.
  const homeRoute = routeOptions(tenantRoute(app), ["call logs"]);

  const stopMetering = meterEndedCalls(ctx, app.jobs, app.log);
  app.addHook("onClose", async () => stopMetering());

  r.get(
    "/billing/usage",
    route("One month of the workspace's metered usage (the current month by default) with the plan's limits", {
      querystring: BillingUsageQuery,
      response: { 200: BillingUsage },
    }),
    async (request) => billingUsage(ctx, tenantOf(request), request.query.period),
  );

  r.get(
    "/call-logs/stats",
    homeRoute("Calls and minutes this calendar month (UTC) as billing counts them, calls in progress, latest calls", {
      response: { 200: CallStatsResponse },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      return homeFigures(ctx.db, tenant, ctx.now(), (await ctx.calls.rooms.listAll(tenant.workspaceId)).length);
    },
  );

  r.get(
    "/billing/statements/:period",
    route("The workspace's statement of a month (YYYY-MM): line items per component, as PDF or CSV", {
      params: PeriodParams,
      querystring: StatementQuery,
      response: { 200: z.unknown().describe("application/pdf or text/csv") },
    }),
    async (request, reply) => {
      const statement = await buildStatement(ctx, tenantOf(request), request.params.period);
      const { format } = request.query;
      const body = format === "csv" ? statementCsv(statement) : statementPdf(statement);
      return reply
        .type(format === "csv" ? "text/csv; charset=utf-8" : "application/pdf")
        .headers({
          "content-disposition": `attachment; filename="statement-${statement.period}.${format}"`,
          "cache-control": "private, no-store",
        })
        .send(body);
    },
  );

  r.get(
    "/billing/payments",
    route("Whether payments are configured and whether the workspace can subscribe or open its portal", {
      response: { 200: PaymentStatus },
    }),
    async (request) => paymentStatus(ctx, tenantOf(request)),
  );

  r.post(
    "/billing/payments/checkout",
    peopleRoute("A checkout page subscribing the workspace to its plan's tier (owners)", {
      response: { 200: PaymentRedirect },
    }),
    async (request) => ({ url: await checkoutUrl(ctx, tenantOf(request)) }),
  );

  r.post(
    "/billing/payments/portal",
    peopleRoute("The payment provider's customer portal for the workspace (owners)", {
      response: { 200: PaymentRedirect },
    }),
    async (request) => ({ url: await portalUrl(ctx, tenantOf(request)) }),
  );
}
