import { AuditEventPage, AuditEventQuery, PrivacySettings, SubjectQuery, SubjectRecords } from "@parley/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AuditEventRow } from "../../lib/audit-events-table.ts";
import { auditRequest } from "../../lib/audit-log-across-workspaces.ts";
import { pageOf } from "../../lib/paging.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { requireOwner } from "../../lib/tenant-scope.ts";
import { tenantOf, userTenantRoute } from "../../plugins/tenant.ts";
import { auditCsv } from "./audit-csv.ts";
import { listWorkspaceAuditEvents, toAuditEvent } from "./audit-events.ts";
import { listAllAuditEvents } from "./audit-events-across-workspaces.ts";
import { runRetentionSoon, scheduleRetention } from "./retention-job.ts";
import { getPrivacySettings, savePrivacySettings, settingsChanges } from "./settings.ts";
import { subjectRoutes } from "./subject-routes.ts";
import { findSubject } from "./subject-search.ts";

/** A CSV export holds every matching entry up to this many (narrow the time range for more). */
const CSV_LIMIT = 10_000;

const AuditAnswer = AuditEventPage.or(z.string().describe("text/csv with format=csv"));

function answer(reply: FastifyReply, query: AuditEventQuery, found: { rows: AuditEventRow[]; total: number }) {
  const events = found.rows.map(toAuditEvent);
  if (query.format !== "csv") return pageOf(events, found.total, query);
  return reply
    .type("text/csv; charset=utf-8")
    .headers({ "content-disposition": 'attachment; filename="audit-log.csv"', "cache-control": "private, no-store" })
    .send(auditCsv(events));
}

/** A CSV is one window of every matching entry rather than the asked page. */
const windowOf = (query: AuditEventQuery) =>
  query.format === "csv" ? { ...query, page: 1, items_per_page: CSV_LIMIT } : query;

/**
 * Data governance: the audit log (a workspace's for its owners, everyone's for superusers, as JSON
 * pages or CSV) and the workspace's retention settings. People only: API keys are refused.
 * Registering these routes also schedules the retention pass (needs registerJobs(app)).
 */
export async function privacyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(userTenantRoute(app), ["privacy"]);
  const adminRoute = routeOptions({ onRequest: app.requireSuperuser }, ["admin"]);
  await scheduleRetention(ctx, app.jobs, app.log);
  // A person's export and erasure (subject-routes.ts).
  await app.register(subjectRoutes);

  r.get(
    "/audit-events",
    route("The workspace's audit log, newest first (owners); format=csv exports it", {
      querystring: AuditEventQuery,
      response: { 200: AuditAnswer },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      return answer(reply, request.query, await listWorkspaceAuditEvents(ctx.db, tenant, windowOf(request.query)));
    },
  );

  r.get(
    "/admin/audit-events",
    adminRoute("Every workspace's audit log and the installation's own, newest first; format=csv exports it", {
      querystring: AuditEventQuery,
      response: { 200: AuditAnswer },
    }),
    async (request, reply) => answer(reply, request.query, await listAllAuditEvents(ctx.db, windowOf(request.query))),
  );

  r.get(
    "/privacy/settings",
    route("The workspace's retention per kind of data and its zero-retention switch (owners)", {
      response: { 200: PrivacySettings },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      return getPrivacySettings(ctx.db, tenant);
    },
  );

  r.put(
    "/privacy/settings",
    route("Set the workspace's retention and zero-retention switch (owners); the change is audited", {
      body: PrivacySettings,
      response: { 200: PrivacySettings },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      const before = await getPrivacySettings(ctx.db, tenant);
      const after = await savePrivacySettings(ctx.db, tenant, request.body, ctx.now());
      const details = settingsChanges(before, after);
      if (Object.keys(details).length > 0) {
        await auditRequest(request, "retention.changed", { workspaceId: tenant.workspaceId, details });
        await runRetentionSoon(ctx, app.jobs);
      }
      return after;
    },
  );

  r.get(
    "/privacy/subjects",
    route("Everything the workspace holds about one phone number or email address (owners)", {
      querystring: SubjectQuery,
      response: { 200: SubjectRecords },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      return findSubject(ctx.db, tenant, request.query);
    },
  );
}
