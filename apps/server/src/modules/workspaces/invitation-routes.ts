import { EmailTokenBody, ErrorResponse, Workspace, WorkspaceRole } from "@parley/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { errorResponses } from "../../lib/error-responses.ts";
import { principalOf } from "../../plugins/authenticate.ts";
import { acceptInvitation, previewInvitation } from "./invitations.ts";
import { memberCount, toWorkspace } from "./service.ts";

const tags = ["workspaces"];
const InvitationPreview = z.object({
  status: z.enum(["valid", "used", "expired", "invalid"]),
  workspace_name: z.string().optional(),
  role: WorkspaceRole.optional(),
  email: z.string().optional(),
  inviter_name: z.string().optional(),
});
const TokenBody = z.object({ token: z.string().max(500) });

/** The invitation link's page: what it invites to (anyone holding the link), and accepting it (signed in). */
export async function invitationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;

  r.post(
    "/invitations/preview",
    {
      schema: {
        tags,
        summary: "What an invitation link invites to, or why it can no longer be used",
        body: TokenBody,
        response: { 200: InvitationPreview, 422: ErrorResponse },
      },
    },
    (request) => previewInvitation(ctx, request.body.token),
  );

  r.post(
    "/invitations/accept",
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        summary: "Join the workspace of an invitation link (once); switch to it afterwards",
        body: EmailTokenBody,
        response: { 200: Workspace, 400: ErrorResponse, ...errorResponses },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const membership = await acceptInvitation(ctx, principal.userId, request.body.token);
      return {
        ...toWorkspace(membership, principal.workspaceId),
        member_count: await memberCount(ctx.db, membership.workspace.id),
      };
    },
  );
}
