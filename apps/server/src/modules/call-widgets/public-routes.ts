import {
  ErrorResponse,
  isWidgetKeyShape,
  PublicWidgetConfig,
  WIDGET_TEXTS,
  WidgetCallStarted,
  WidgetKeyParam,
} from "@parley/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { findAssistant } from "../assistants/service.ts";
import { loadEmbedScript, pickEncoding } from "./embed-script.ts";
import { admitPage, type PageRequest, startWidgetCall } from "./start-widget-call.ts";

const tags = ["call-widgets"];
const publicErrors = { 403: ErrorResponse, 404: ErrorResponse };
/** Sites fetch the script on every page view: a short cache, revalidated by ETag. */
const SCRIPT_CACHE = "public, max-age=300, stale-while-revalidate=86400";

/**
 * Browsers leave Origin out of a same-origin GET (the editor's preview, a srcdoc frame of Parley's
 * own page); their Sec-Fetch-Site, which page scripts cannot set, says so instead.
 */
function pageOf(request: FastifyRequest): PageRequest {
  const given = request.headers.origin;
  const sameOrigin = request.headers["sec-fetch-site"] === "same-origin";
  if (typeof given !== "string" && sameOrigin) {
    const own = new URL(`${request.protocol}://${request.host}`).origin;
    return { origin: own, host: request.host, ip: request.ip, sameOrigin: true };
  }
  return { origin: typeof given === "string" ? given : undefined, host: request.host, ip: request.ip };
}

/**
 * A key no widget can have is answered as an unknown one at once: before the app's input guards
 * (which refuse a NUL character anywhere with a 422) and without a database lookup.
 */
async function refuseMalformedKey(request: FastifyRequest, reply: FastifyReply) {
  const { key } = request.params as { key?: string };
  if (!isWidgetKeyShape(key ?? "")) return reply.code(404).send({ detail: WIDGET_TEXTS.unavailable });
}

/**
 * CORS for one allowed page: the answer is readable by that origin only (never `*`), and caches
 * keep answers for different origins apart. Refused origins get no CORS headers at all.
 */
function allowPage(reply: FastifyReply, origin: string) {
  reply.header("access-control-allow-origin", origin);
  reply.header("vary", "origin");
}

/**
 * The routes an embedding page calls with no sign-in: the script, the widget's appearance and
 * starting a call. Each checks the page's Origin against the widget's allowed origins.
 */
export async function publicWidgetRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Read on first request, so a build after the server started is picked up by a restart only.
  let script: ReturnType<typeof loadEmbedScript> | undefined;

  r.get(
    "/widget/embed.js",
    { schema: { tags, summary: 'The embed script: <script src=… data-key="pw_…" async>', hide: false } },
    async (request, reply) => {
      script ??= loadEmbedScript();
      if (!script) throw new AppError("not_found", "The call widget script has not been built (npm run build).");
      reply.header("cache-control", SCRIPT_CACHE);
      reply.header("etag", script.etag);
      reply.header("vary", "accept-encoding");
      // Any site may load the script itself; what it may do is decided per origin by the routes below.
      reply.header("cross-origin-resource-policy", "cross-origin");
      reply.header("access-control-allow-origin", "*");
      if (request.headers["if-none-match"] === script.etag) return reply.code(304).send();
      const { body, encoding } = pickEncoding(script, request.headers["accept-encoding"]);
      if (encoding) reply.header("content-encoding", encoding);
      return reply.type("application/javascript; charset=utf-8").send(body);
    },
  );

  r.get(
    "/widget/:key",
    {
      onRequest: refuseMalformedKey,
      schema: {
        tags,
        summary: "A widget's appearance, for a page on one of its allowed origins",
        params: WidgetKeyParam,
        response: { 200: PublicWidgetConfig, ...publicErrors },
      },
    },
    async (request, reply) => {
      const page = pageOf(request);
      const widget = await admitPage(ctx, request.params.key, page);
      allowPage(reply, page.origin as string);
      reply.header("cache-control", "no-store");
      const assistant = await findAssistant(ctx.db, { workspaceId: widget.workspaceId }, widget.agentId);
      return { appearance: widget.appearance, assistant_name: assistant?.name ?? widget.name };
    },
  );

  // A page may ask before posting (a JSON POST is preflighted); the embed script's own POST has no
  // body, so browsers send it without asking.
  // It refuses what the POST would (an unknown, malformed or turned-off key 404, another site 403).
  r.options(
    "/widget/:key/calls",
    { onRequest: refuseMalformedKey, schema: { hide: true, params: WidgetKeyParam } },
    async (request, reply) => {
      const page = pageOf(request);
      await admitPage(ctx, request.params.key, page);
      allowPage(reply, page.origin as string);
      reply.header("access-control-allow-methods", "POST");
      reply.header("access-control-allow-headers", "content-type");
      reply.header("access-control-max-age", "600");
      return reply.code(204).send();
    },
  );

  r.post(
    "/widget/:key/calls",
    {
      onRequest: refuseMalformedKey,
      schema: {
        tags,
        summary: "Start a call from an allowed page; join the realtime socket with the token within 60 s",
        description:
          "403 for an origin not on the widget's list; 429 when the widget's concurrent calls, the visitor's " +
          "calls this hour or the workspace's concurrent calls are used up; 403 also when the plan's minutes are; " +
          "503 with Retry-After while the server is too busy to take another call.",
        params: WidgetKeyParam,
        response: {
          201: WidgetCallStarted,
          ...publicErrors,
          409: ErrorResponse,
          429: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const page = pageOf(request);
      // The CORS header goes on refusals too (a busy line, a used-up hour), so the page can show why;
      // it is set only once the origin has passed.
      const widget = await admitPage(ctx, request.params.key, page);
      allowPage(reply, page.origin as string);
      reply.header("cache-control", "no-store");
      return reply.code(201).send(await startWidgetCall(ctx, widget, page));
    },
  );

  // Any other address under /widget these methods ask for names no widget a page can use. A key
  // longer than the router takes as a parameter (100 characters) lands here too, instead of the
  // router's "address too long": every key that names no widget gets the same answer.
  r.route({
    method: ["GET", "POST", "OPTIONS"],
    url: "/widget/*",
    schema: { hide: true },
    handler: async (_request, reply) => reply.code(404).send({ detail: WIDGET_TEXTS.unavailable }),
  });
}
