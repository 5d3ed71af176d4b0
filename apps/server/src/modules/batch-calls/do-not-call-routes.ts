import {
  AddDoNotCallBody,
  DoNotCallChangeResponse,
  DoNotCallPage,
  DoNotCallQuery,
  ErrorResponse,
  RemoveDoNotCallBody,
} from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { errorResponses as errors } from "../../lib/error-responses.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { readContactsCsv } from "./csv-contacts.ts";
import { countryField, readCsvUpload } from "./csv-upload.ts";
import { addDoNotCall, listDoNotCall, removeDoNotCall } from "./do-not-call.ts";

const typed = (numbers: string[]) => numbers.map((value, i) => ({ line: i + 1, value }));

/** The workspace's do-not-call list: every batch call skips these numbers and reports them. */
export async function doNotCallRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  const tags = ["do-not-call"];
  const scoped = tenantRoute(app);

  r.get(
    "/do-not-call",
    {
      ...scoped,
      schema: {
        tags,
        summary: "The do-not-call list, newest first",
        querystring: DoNotCallQuery,
        response: { 200: DoNotCallPage, ...errors },
      },
    },
    async (request) => listDoNotCall(db, tenantOf(request), request.query),
  );

  r.post(
    "/do-not-call",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Add numbers to the do-not-call list; invalid and already listed ones are reported",
        body: AddDoNotCallBody,
        response: { 200: DoNotCallChangeResponse, ...errors },
      },
    },
    async (request) =>
      addDoNotCall(
        db,
        tenantOf(request),
        typed(request.body.phone_numbers),
        request.body.reason,
        request.body.default_country ?? null,
      ),
  );

  r.delete(
    "/do-not-call",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Remove numbers from the do-not-call list",
        body: RemoveDoNotCallBody,
        response: { 200: DoNotCallChangeResponse, ...errors },
      },
    },
    async (request) => removeDoNotCall(db, tenantOf(request), typed(request.body.phone_numbers), null),
  );

  r.post(
    "/do-not-call/import-csv",
    {
      ...scoped,
      bodyLimit: 11 * 1024 * 1024,
      schema: {
        tags,
        summary: "Add the numbers of a CSV (multipart: file; default_country; reason). A malformed file adds nothing",
        consumes: ["multipart/form-data"],
        response: { 200: DoNotCallChangeResponse, 413: ErrorResponse, 415: ErrorResponse, ...errors },
      },
    },
    async (request) => {
      const upload = await readCsvUpload(request);
      const country = countryField(upload.fields.default_country);
      const { rows } = readContactsCsv(upload.data, country);
      return addDoNotCall(db, tenantOf(request), rows, upload.fields.reason?.trim().slice(0, 200) ?? "", country);
    },
  );
}
