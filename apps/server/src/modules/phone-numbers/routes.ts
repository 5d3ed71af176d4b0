import {
  CountryList,
  CreatePhoneNumberBody,
  ErrorResponse,
  ImportNumbersBody,
  ImportNumbersResult,
  PhoneNumber,
  PhoneNumberList,
  UpdatePhoneNumberBody,
} from "@parley/contract";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/error-responses.ts";
import { routeOptions } from "../../lib/route-options.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { countryList } from "./countries.ts";
import { createPhoneNumber } from "./create-phone-number.ts";
import { importNumbers } from "./import-numbers.ts";
import type { PhoneNumberRecord } from "./schema.ts";
import { assistantNames, deletePhoneNumber, listPhoneNumbers, requirePhoneNumber, toPhoneNumber } from "./service.ts";
import { changePhoneNumber } from "./update-phone-number.ts";
import { PhoneServiceError } from "./vendor-account.ts";

const tags = ["phone-numbers"];
const IdParams = z.object({ id: z.uuid() });
const CountriesQuery = z.object({ locale: z.string().trim().max(35).optional() });
/** Create and import also answer 400 (refused credentials), 502 (the vendor failed) and 503 (a lost database race). */
const errors = { ...errorResponses, 400: ErrorResponse, 502: ErrorResponse, 503: ErrorResponse };

/** A vendor's failure as its 502 with the §8 text (AppError has no 502; this is its one place). */
async function answeringVendorFailure<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PhoneServiceError) return reply.code(error.status).send({ detail: error.message });
    throw error;
  }
}

/** Phone numbers of the caller's workspace (spec §7 "Phone numbers"); members and owners alike manage them. */
export async function phoneNumberRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(tenantRoute(app), tags, errors);
  const userRoute = routeOptions({ onRequest: app.authenticate }, tags, errors);

  async function withNames(tenant: TenantScope, record: PhoneNumberRecord): Promise<PhoneNumber> {
    return toPhoneNumber(record, await assistantNames(ctx.db, tenant));
  }

  r.get(
    "/phone-numbers",
    route("Numbers of the workspace, newest first, with their assistants' names", {
      response: { 200: PhoneNumberList },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      const [records, names] = await Promise.all([listPhoneNumbers(ctx.db, tenant), assistantNames(ctx.db, tenant)]);
      return { phone_numbers: records.map((record) => toPhoneNumber(record, names)) };
    },
  );

  r.get(
    "/phone-numbers/countries",
    userRoute("Every country with its dialing prefix, labelled in the locale (English by default)", {
      querystring: CountriesQuery,
      response: { 200: CountryList },
    }),
    async (request, reply) => {
      // The list changes only with the server's phone metadata.
      reply.header("cache-control", "private, max-age=3600");
      return { countries: countryList(request.query.locale) };
    },
  );

  r.post(
    "/phone-numbers",
    route("Add a vendor number (webhooks configured through the workspace's integration) or a SIP trunk number", {
      body: CreatePhoneNumberBody,
      response: { 201: PhoneNumber },
    }),
    async (request, reply) =>
      answeringVendorFailure(reply, async () => {
        const tenant = tenantOf(request);
        const record = await createPhoneNumber(ctx, tenant, request.body);
        ctx.events.emit("phone_number.updated", {
          workspaceId: tenant.workspaceId,
          phoneNumberId: record.id,
          action: "created",
        });
        return reply.code(201).send(await withNames(tenant, record));
      }),
  );

  r.post(
    "/phone-numbers/providers/import-numbers",
    route("Import every number of a vendor account and point its voice webhook at Parley", {
      body: ImportNumbersBody,
      response: { 200: ImportNumbersResult },
    }),
    async (request, reply) => answeringVendorFailure(reply, () => importNumbers(ctx, tenantOf(request), request.body)),
  );

  r.get(
    "/phone-numbers/:id",
    route("One number", { params: IdParams, response: { 200: PhoneNumber } }),
    async (request) => {
      const tenant = tenantOf(request);
      return withNames(tenant, await requirePhoneNumber(ctx.db, tenant, request.params.id));
    },
  );

  r.patch(
    "/phone-numbers/:id",
    route("Rename a number, assign or unassign its inbound and outbound assistants, change trunk settings", {
      params: IdParams,
      body: UpdatePhoneNumberBody,
      response: { 200: PhoneNumber },
    }),
    async (request) => {
      const tenant = tenantOf(request);
      const changed = await changePhoneNumber(ctx, tenant, request.params.id, request.body);
      ctx.events.emit("phone_number.updated", {
        workspaceId: tenant.workspaceId,
        phoneNumberId: changed.id,
        action: "updated",
      });
      return withNames(tenant, changed);
    },
  );

  r.delete(
    "/phone-numbers/:id",
    route("Delete a number (a call in progress on it carries on; new calls are no longer answered)", {
      params: IdParams,
      response: { 204: z.null() },
    }),
    async (request, reply) => {
      await deletePhoneNumber(ctx.db, tenantOf(request), request.params.id);
      ctx.events.emit("phone_number.updated", {
        workspaceId: tenantOf(request).workspaceId,
        phoneNumberId: request.params.id,
        action: "deleted",
      });
      return reply.code(204).send(null);
    },
  );
}
