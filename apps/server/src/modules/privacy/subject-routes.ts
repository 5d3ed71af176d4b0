import { SubjectEraseBody, SubjectErasure, SubjectQuery } from "@parley/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { auditRequest } from "../../lib/audit-log-across-workspaces.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { requireOwner } from "../../lib/tenant-scope.ts";
import { tenantOf, userTenantRoute } from "../../plugins/tenant.ts";
import { ERASED_PREFIX, erasedNumber } from "../batch-calls/erased-numbers.ts";
import { registerRecordingRemoval, removeErasedRecordings } from "./recording-removal.ts";
import { eraseSubject } from "./subject-erase.ts";
import { type ExportCounts, type ExportPlan, planSubjectExport, writeSubjectExport } from "./subject-export.ts";
import { ZipWriter } from "./subject-zip.ts";

/**
 * A data subject's rights (issue 34 item 4): export one person's records as a ZIP and erase them.
 * Owners only, and people only (API keys are refused): both hand over or destroy personal data,
 * and the audit log names the person who did it. The number or address is sent in the body, never
 * the URL, so it stays out of access logs and browser history.
 */

/**
 * Whom an audit entry is about, without writing their number or address into the log (which must
 * not become a store of personal data): the kind, and a hash of the value within the workspace —
 * the same person gives the same reference, so their export and erasure can be told together.
 */
function subjectOf(workspaceId: string, query: SubjectQuery) {
  const value = query.phone ?? query.email ?? "";
  const ref = erasedNumber(workspaceId, value).slice(ERASED_PREFIX.length, ERASED_PREFIX.length + 16);
  return { target: { type: "subject", id: ref }, subject: query.phone ? "phone" : "email" };
}

const exportName = (at: Date) => `subject-export-${at.toISOString().slice(0, 10)}.zip`;

/** Writes the export into the ZIP, audits it (complete or cut off), then lets the reply end. */
async function produceExport(request: FastifyRequest, plan: ExportPlan, zip: ZipWriter) {
  const tenant = tenantOf(request);
  const { target, subject } = subjectOf(tenant.workspaceId, plan.query);
  let counts: ExportCounts = {
    calls: plan.callIds.length,
    recordings: 0,
    campaign_contacts: plan.contacts.length,
    do_not_call: plan.doNotCall.length,
  };
  let failure: Error | undefined;
  try {
    counts = await writeSubjectExport(request.server.ctx, tenant, plan, zip, request.log);
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
    request.log.error({ err, workspaceId: tenant.workspaceId }, "could not write a person's export");
  }
  // Written before the last byte leaves, so the entry exists when the download has finished.
  await auditRequest(request, "data.exported", {
    workspaceId: tenant.workspaceId,
    target,
    details: { subject, ...counts, complete: zip.complete && !failure },
  });
  zip.close(failure);
}

export async function subjectRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(userTenantRoute(app), ["privacy"]);
  registerRecordingRemoval(ctx, app.jobs, app.log);

  r.post(
    "/privacy/subjects/export",
    route("One person's records as a ZIP: subject.json and recordings/<call id>.wav (owners); audited", {
      body: SubjectQuery,
      response: { 200: z.unknown().describe("application/zip") },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      const plan = await planSubjectExport(ctx, tenant, request.body);
      const zip = new ZipWriter();
      void produceExport(request, plan, zip);
      return reply
        .type("application/zip")
        .headers({
          "content-disposition": `attachment; filename="${exportName(plan.at)}"`,
          "cache-control": "private, no-store",
        })
        .send(zip.stream);
    },
  );

  r.post(
    "/privacy/subjects/erase",
    route("Erase one person's records (owners; confirm: true); call metadata and billing stay; audited", {
      body: SubjectEraseBody,
      response: { 200: SubjectErasure },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      requireOwner(tenant);
      const { confirm: _confirmed, ...query } = request.body;
      const erasure = await eraseSubject(ctx.db, tenant, query);
      await removeErasedRecordings(ctx, app.jobs, request.log, tenant.workspaceId, erasure.files);
      const { target, subject } = subjectOf(tenant.workspaceId, query);
      await auditRequest(request, "data.erased", {
        workspaceId: tenant.workspaceId,
        target,
        details: { subject, ...erasure.counts },
      });
      return erasure.counts;
    },
  );
}
