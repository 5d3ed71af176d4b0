import multipart from "@fastify/multipart";
import {
  AddNumbersBody,
  ArchiveBatchCallBody,
  BATCH_CALL_TEXTS,
  BatchCall,
  BatchCallPage,
  BatchCallsQuery,
  BatchContactPage,
  BatchContactsQuery,
  CreateBatchCallBody,
  CsvImportResponse,
  ErrorResponse,
  IdParam,
  InitiateBatchCallQuery,
  MessageResponse,
  NumbersChangeResponse,
  RemoveNumbersBody,
  UpdateBatchCallBody,
} from "@parley/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { errorResponses as errors } from "../../lib/error-responses.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { initiateBatchCall, stopBatchCall } from "./campaign-actions.ts";
import { checkContacts, rawFromInputs } from "./contact-list.ts";
import { addContacts, removeContacts } from "./contacts.ts";
import { importContactsCsv } from "./csv-import.ts";
import { readCsvUpload } from "./csv-upload.ts";
import { CampaignDialer } from "./dialer.ts";
import { doNotCallRoutes } from "./do-not-call-routes.ts";
import {
  archiveBatchCall,
  createBatchCall,
  deleteBatchCall,
  listBatchCalls,
  requireAllowed,
  requireBatchCall,
  touchBatchCall,
  updateBatchCall,
} from "./service.ts";
import { telephonyDialPort } from "./telephony-dial-port.ts";
import { batchCallOf, contactsPage, summaryOf } from "./views.ts";

/** Each app's campaign dialer, by its context (tests and benchmarks swap its dial port). */
const dialers = new WeakMap<AppContext, CampaignDialer>();

export function campaignDialerOf(ctx: AppContext): CampaignDialer {
  const dialer = dialers.get(ctx);
  if (!dialer) throw new Error("batchCallRoutes is not registered on this app");
  return dialer;
}

/** Batch call campaigns (spec §7 "Batch calls") and the do-not-call list; needs registerJobs(app). */
export async function batchCallRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  const tags = ["batch-calls"];
  const scoped = tenantRoute(app);
  if (!app.hasContentTypeParser("multipart/form-data")) await app.register(multipart);
  const dialer = new CampaignDialer({
    db,
    jobs: app.jobs,
    port: telephonyDialPort(ctx),
    log: app.log,
    now: ctx.now,
    events: ctx.events,
  });
  dialers.set(ctx, dialer);
  await app.register(doNotCallRoutes);

  const withId = { params: IdParam };
  /** The campaign of the request, when its contact list may still change (the numbers routes). */
  const contactsOf = async (request: FastifyRequest, id: string) => {
    const tenant = tenantOf(request);
    const batch = await requireBatchCall(db, tenant, id);
    requireAllowed("add_numbers", batch);
    return { tenant, batch };
  };
  /** A contact list change, with the campaign as it now reads. */
  const changed = async <T extends object>(tenant: TenantScope, id: string, change: T) => ({
    ...change,
    batch_call: await summaryOf(db, tenant, await touchBatchCall(db, tenant, id)),
  });
  const one = async (tenant: ReturnType<typeof tenantOf>, id: string) =>
    batchCallOf(db, tenant, await requireBatchCall(db, tenant, id));

  r.get(
    "/batch-calls",
    {
      ...scoped,
      schema: {
        tags,
        summary: "The workspace's batch calls, archived or not, 10 a page by updatedAt (newest first)",
        querystring: BatchCallsQuery,
        response: { 200: BatchCallPage, ...errors },
      },
    },
    async (request) => listBatchCalls(db, tenantOf(request), request.query),
  );

  r.post(
    "/batch-calls",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Create a batch call (status created)",
        body: CreateBatchCallBody,
        response: { 201: BatchCall, ...errors },
      },
    },
    async (request, reply) => {
      const tenant = tenantOf(request);
      const row = await createBatchCall(db, tenant, request.body);
      return reply.code(201).send(await batchCallOf(db, tenant, row));
    },
  );

  r.get(
    "/batch-calls/:id",
    {
      ...scoped,
      schema: {
        tags,
        summary: "One batch call with its progress and its first 25 contacts (GET …/contacts pages them all)",
        ...withId,
        response: { 200: BatchCall, ...errors },
      },
    },
    async (request) => one(tenantOf(request), request.params.id),
  );

  r.get(
    "/batch-calls/:id/contacts",
    {
      ...scoped,
      schema: {
        tags,
        summary: "A batch call's contacts in the order given, 25 a page (at most 500), optionally of one status",
        ...withId,
        querystring: BatchContactsQuery,
        response: { 200: BatchContactPage, ...errors },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const batch = await requireBatchCall(db, tenant, request.params.id);
      return contactsPage(db, tenant, batch.id, request.query);
    },
  );

  r.put(
    "/batch-calls/:id",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Edit a batch call (created or scheduled; a campaign paused at its spend cap: settings only)",
        ...withId,
        body: UpdateBatchCallBody,
        response: { 200: BatchCall, ...errors },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const { row, rescheduled } = await updateBatchCall(db, tenant, request.params.id, request.body);
      if (rescheduled) await dialer.schedule(db, tenant, row.id, row.scheduledTime);
      return batchCallOf(db, tenant, row);
    },
  );

  r.delete(
    "/batch-calls/:id",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Delete a batch call (not while pending or running)",
        ...withId,
        response: { 200: MessageResponse, ...errors },
      },
    },
    messageAfter(BATCH_CALL_TEXTS.deleted, (request) => deleteBatchCall(db, tenantOf(request), request.params.id)),
  );

  r.post(
    "/initiate_batch_call",
    {
      ...scoped,
      schema: {
        tags,
        summary:
          "Start a batch call now, or at its scheduled_time (created or scheduled; resumes one paused at its spend cap)",
        querystring: InitiateBatchCallQuery,
        response: { 200: BatchCall, ...errors },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const row = await initiateBatchCall(db, dialer, tenant, request.query.batch_call_id, ctx.now());
      return batchCallOf(db, tenant, row);
    },
  );

  r.post(
    "/batch-calls/:id/stop",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Stop a batch call: contacts not yet dialled are cancelled at once, live calls finish",
        ...withId,
        response: { 200: BatchCall, ...errors },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      return batchCallOf(db, tenant, await stopBatchCall(db, tenant, request.params.id, ctx.now()));
    },
  );

  r.put(
    "/batch-calls/:id/archive",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Archive a finished batch call (is_archived false brings it back)",
        ...withId,
        body: ArchiveBatchCallBody,
        response: { 200: BatchCall, ...errors },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      const row = await archiveBatchCall(db, tenant, request.params.id, request.body?.is_archived ?? true);
      return batchCallOf(db, tenant, row);
    },
  );

  r.post(
    "/batch-calls/:id/add-numbers",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Add phone numbers (strings or {number, variables, timezone}); invalid and repeated ones are reported",
        ...withId,
        body: AddNumbersBody,
        response: { 200: NumbersChangeResponse, ...errors },
      },
    },
    async (request) => {
      const { tenant, batch } = await contactsOf(request, request.params.id);
      const country = request.body.default_country ?? batch.defaultCountry;
      const checked = checkContacts(rawFromInputs(request.body.phone_numbers), country);
      const change = await db.transaction(async (tx) => addContacts(tx, tenant, batch, checked));
      return changed(tenant, batch.id, change);
    },
  );

  r.delete(
    "/batch-calls/:id/remove-number",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Remove phone numbers not yet dialled",
        ...withId,
        body: RemoveNumbersBody,
        response: { 200: NumbersChangeResponse, ...errors },
      },
    },
    async (request) => {
      const { tenant, batch } = await contactsOf(request, request.params.id);
      return changed(
        tenant,
        batch.id,
        await removeContacts(db, tenant, batch, rawFromInputs(request.body.phone_numbers)),
      );
    },
  );

  r.post(
    "/batch-calls/:id/import-csv",
    {
      ...scoped,
      bodyLimit: 11 * 1024 * 1024,
      schema: {
        tags,
        summary:
          "Import contacts from a CSV (multipart: file; default_country; dry_run=true to preview). A malformed file imports nothing",
        consumes: ["multipart/form-data"],
        ...withId,
        response: { 200: CsvImportResponse, 413: ErrorResponse, 415: ErrorResponse, ...errors },
      },
    },
    async (request) => {
      const { tenant, batch } = await contactsOf(request, request.params.id);
      return importContactsCsv(db, tenant, batch, await readCsvUpload(request));
    },
  );
}
