import {
  AlertEventList,
  AlertRule,
  AlertRuleInput,
  AlertRuleList,
  AnalyticsQuery,
  AnalyticsResult,
  AnalyticsSettings,
  MessageResponse,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { type SendAlertWebhook, scheduleAlertEvaluation } from "./alert-evaluation-across-workspaces.ts";
import { createAlertRule, deleteAlertRule, listAlertEvents, listAlertRules, updateAlertRule } from "./alert-rules.ts";
import { analyticsCsv } from "./analytics-csv.ts";
import { registerBackfill, resumeBackfill } from "./backfill-across-workspaces.ts";
import { type CampaignName, queryAnalytics } from "./query-rollups.ts";
import { rollUpEndedCalls } from "./roll-ended-call.ts";
import { getSettings, saveSettings, timeZoneOf } from "./settings.ts";

const tags = ["analytics"];
const IdParams = z.object({ id: z.uuid() });

/**
 * Analytics of the caller's workspace: the reporting query (JSON or CSV), the time zone its days are
 * read in, and alert rules with their history. Registering these routes also keeps the rollup as
 * calls end, rolls up the calls from before analytics, and judges the alert rules every minute
 * (needs registerJobs(app)). Read with an API key's read scope (GET), changed with its write scope.
 */
export interface AnalyticsPorts {
  /** The webhooks module's fan-out of `alert.triggered`. */
  sendAlertWebhook: SendAlertWebhook;
  /** The batch-calls module's campaign names, for groups by campaign. */
  campaignName: CampaignName;
}

export async function analyticsRoutes(app: FastifyInstance, ports: AnalyticsPorts) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(tenantRoute(app), tags);

  const stopRolling = rollUpEndedCalls(ctx, app.log);
  app.addHook("onClose", async () => stopRolling());
  registerBackfill(ctx, app.jobs, app.log);
  await resumeBackfill(ctx, app.jobs);
  await scheduleAlertEvaluation(ctx, app.jobs, app.log, ports.sendAlertWebhook);

  r.get(
    "/analytics/query",
    route("Calls, minutes, success, latency and cost over a range of the workspace's days, by bucket and group", {
      querystring: AnalyticsQuery,
      response: { 200: AnalyticsResult.or(z.string().describe("text/csv with format=csv")) },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      const zone = await timeZoneOf(ctx.db, tenant);
      const result = await queryAnalytics(ctx.db, tenant, request.query, zone, ports.campaignName);
      if (request.query.format !== "csv") return result;
      return reply
        .type("text/csv; charset=utf-8")
        .headers({
          "content-disposition": `attachment; filename="analytics-${result.from}-${result.to}.csv"`,
          "cache-control": "private, no-store",
        })
        .send(analyticsCsv(result));
    },
  );

  r.get(
    "/analytics/settings",
    route("The time zone the workspace's analytics days are read in", { response: { 200: AnalyticsSettings } }),
    async (request) => getSettings(ctx.db, tenantOf(request)),
  );

  r.put(
    "/analytics/settings",
    route("Sets the time zone of the workspace's analytics", {
      body: AnalyticsSettings,
      response: { 200: AnalyticsSettings },
    }),
    async (request) => saveSettings(ctx.db, tenantOf(request), request.body),
  );

  r.get(
    "/analytics/alerts/rules",
    route("The workspace's alert rules and whether each is firing", { response: { 200: AlertRuleList } }),
    async (request) => listAlertRules(ctx.db, tenantOf(request)),
  );

  r.post(
    "/analytics/alerts/rules",
    route("Adds an alert rule", { body: AlertRuleInput, response: { 201: AlertRule } }),
    async (request, reply) => reply.code(201).send(await createAlertRule(ctx.db, tenantOf(request), request.body)),
  );

  r.put(
    "/analytics/alerts/rules/:id",
    route("Changes an alert rule (it is judged afresh)", {
      params: IdParams,
      body: AlertRuleInput,
      response: { 200: AlertRule },
    }),
    async (request) => updateAlertRule(ctx.db, tenantOf(request), request.params.id, request.body),
  );

  r.delete(
    "/analytics/alerts/rules/:id",
    route("Deletes an alert rule (its history stays)", { params: IdParams, response: { 200: MessageResponse } }),
    messageAfter("Alert rule deleted.", (request) => deleteAlertRule(ctx.db, tenantOf(request), request.params.id)),
  );

  r.get(
    "/analytics/alerts/events",
    route("The alerts fired and recovered, newest first (the last 200)", { response: { 200: AlertEventList } }),
    async (request) => listAlertEvents(ctx.db, tenantOf(request)),
  );
}
