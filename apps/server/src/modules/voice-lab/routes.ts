import multipart from "@fastify/multipart";
import {
  CLONE_SERVICES,
  ErrorResponse,
  MessageResponse,
  providerLabel,
  TtsAudioBody,
  VoiceClone,
} from "@parley/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { notFound } from "../../lib/app-error.ts";
import { failureFields } from "../../lib/log-options.ts";
import { messageAfter } from "../../lib/message-handler.ts";
import { routeOptions } from "../../lib/route-options.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { tenantOf, tenantRoute } from "../../plugins/tenant.ts";
import { missingKeyConflict } from "../integrations/credentials.ts";
import { readCloneUpload } from "./clone-upload.ts";
import { createClone, removeClone, requireCloneKey } from "./clones.ts";
import { synthesizePreview } from "./preview.ts";
import { listClones } from "./service.ts";

const IdParams = z.object({ id: z.uuid() });
const PREVIEW_HEADERS = ["x-duration", "x-provider", "x-model", "x-voice"];

/** The untyped preview route's body, which its schema has validated before any hook runs. */
const previewBody = (request: FastifyRequest) => request.body as TtsAudioBody;
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** Header values must be printable ASCII; anything else (a unicode voice id) goes percent-encoded. */
const headerSafe = (value: string) => (/^[\x20-\x7e]*$/.test(value) ? value : encodeURIComponent(value));

/** Voice clones (spec §3) and voice preview (spec §7 POST /tts/audio). */
export async function voiceRoutes(app: FastifyInstance) {
  // Another module may have registered the parser already; it is shared then.
  if (!app.hasContentTypeParser("multipart/form-data")) await app.register(multipart);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const route = routeOptions(tenantRoute(app), ["voices"]);
  /** The workspace named in the body must be the token's: naming another one reveals nothing about it. */
  const sameWorkspace = async (request: FastifyRequest) => {
    if (previewBody(request).workspace_id !== principalOf(request).workspaceId) throw notFound("Workspace not found.");
  };
  const previewRoute = routeOptions(
    { onRequest: app.authenticateUserOrKey, preHandler: [sameWorkspace, app.resolveTenant] },
    ["voices"],
  );

  r.get("/clones", route("The workspace's voice clones", { response: { 200: z.array(VoiceClone) } }), async (request) =>
    listClones(ctx.db, tenantOf(request)),
  );

  r.post(
    "/clones",
    route(`Clone a voice at ${CLONE_SERVICES.map(providerLabel).join(" or ")} from 1–5 audio files (multipart)`, {
      consumes: ["multipart/form-data"],
      response: { 201: VoiceClone, 413: ErrorResponse, 415: ErrorResponse },
    }),
    async (request, reply) => {
      const tenant = tenantOf(request);
      const upload = await readCloneUpload(request, (service) => requireCloneKey(ctx, tenant, service));
      return reply.code(201).send(await createClone(ctx, tenant, upload));
    },
  );

  r.delete(
    "/clones/:id",
    route("Delete a voice clone here and at its vendor", {
      params: IdParams,
      response: { 200: MessageResponse, 503: ErrorResponse },
    }),
    messageAfter("Voice clone deleted.", (request) => removeClone(ctx, tenantOf(request), request.params.id)),
  );

  // Untyped route: the typed reply only accepts the declared JSON bodies, and this one sends bytes.
  app.post(
    "/tts/audio",
    previewRoute("Synthesize a voice preview; answers audio/wav (16 kHz mono) with x-duration and friends", {
      body: TtsAudioBody,
      response: { 502: ErrorResponse },
    }),
    async (request, reply) => {
      const body = previewBody(request);
      let audio: Awaited<ReturnType<typeof synthesizePreview>>;
      try {
        audio = await synthesizePreview(ctx, tenantOf(request), body);
      } catch (error) {
        const conflict = missingKeyConflict(error);
        if (conflict) throw conflict;
        request.log.warn(
          { workspaceId: tenantOf(request).workspaceId, provider: body.provider, ...failureFields(error) },
          "voice preview failed",
        );
        return reply.code(502).send({ detail: messageOf(error) });
      }
      return reply
        .type("audio/wav")
        .headers({
          "x-duration": audio.durationSeconds.toFixed(3),
          "x-provider": body.provider,
          "x-model": headerSafe(body.model),
          "x-voice": headerSafe(body.voice),
          "access-control-expose-headers": PREVIEW_HEADERS.join(", "),
          "cache-control": "no-store",
        })
        .send(audio.wav);
    },
  );
}
