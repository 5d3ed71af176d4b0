import { CallLog, CallLogPage, CallLogsQuery, MessageResponse } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/error-responses.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { setCallFiguresReader } from "../assistants/call-figures.ts";
import { readCallFigures } from "./call-figures.ts";
import { deleteCallLog, getCallLog, getCallRecording, listCallLogs } from "./queries.ts";

const tags = ["call logs"];
const errors = errorResponses;
const IdParams = z.object({ id: z.uuid() });

/**
 * Call logs of the caller's workspace: list with filters, detail, recording, delete. (Home's monthly
 * figures, GET /call-logs/stats, are counted by billing: billing/routes.ts.)
 */
export async function callLogRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const scoped = tenantRoute(app);
  // Experiment results (assistants module) read the ended calls' figures through this.
  setCallFiguresReader(readCallFigures);

  r.get(
    "/call-logs",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Call logs, newest first, filtered and paged",
        querystring: CallLogsQuery,
        response: { 200: CallLogPage, ...errors },
      },
    },
    async (request) => listCallLogs(ctx.db, tenantOf(request), request.query),
  );

  r.get(
    "/call-logs/:id",
    {
      ...scoped,
      schema: {
        tags,
        summary: "One call: transcript, tool calls, turn metrics, events, cost",
        params: IdParams,
        response: { 200: CallLog, ...errors },
      },
    },
    async (request) => getCallLog(ctx.db, tenantOf(request), request.params.id),
  );

  r.get(
    "/call-logs/:id/recording",
    {
      ...scoped,
      schema: {
        tags,
        summary: "The call's stereo recording (caller left, assistant right) as WAV",
        params: IdParams,
        response: { 200: z.unknown().describe("WAV audio (audio/wav)"), ...errors },
      },
    },
    async (request, reply) => {
      const wav = await getCallRecording(ctx.db, ctx.config.dataDir, tenantOf(request), request.params.id);
      return reply
        .type("audio/wav")
        .headers({
          "content-disposition": `inline; filename="call-${request.params.id}.wav"`,
          "cache-control": "private, no-store",
          "content-length": String(wav.size),
        })
        .send(wav.body);
    },
  );

  r.delete(
    "/call-logs/:id",
    {
      ...scoped,
      schema: {
        tags,
        summary: "Delete a finished call's log and recording",
        params: IdParams,
        response: { 200: MessageResponse, ...errors },
      },
    },
    messageAfter("Call log deleted.", (request) =>
      deleteCallLog(ctx.db, ctx.config.dataDir, tenantOf(request), request.params.id),
    ),
  );
}
