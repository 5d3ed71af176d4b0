import type { WorkspaceRole } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { hashToken } from "../../lib/crypto.ts";
import { findUserById, normaliseEmail, setCurrentWorkspace } from "../users/service.ts";
import { findInvitationByToken, lockInvitationByToken } from "./invitations-across-workspaces.ts";
import { findMembership, joinByInvitation, type Membership } from "./service.ts";

export type InvitationStatus = "valid" | "used" | "expired" | "invalid";

export interface InvitationPreview {
  status: InvitationStatus;
  workspace_name?: string;
  role?: WorkspaceRole;
  email?: string;
  inviter_name?: string;
}

export const INVITATION_INVALID =
  "This invitation link is invalid, was already used or has expired. Ask for a new one.";

async function findByToken(ctx: AppContext, token: string) {
  const row = await findInvitationByToken(ctx.db, hashToken(token));
  if (!row) return { status: "invalid" as const };
  if (row.invitation.acceptedAt) return { status: "used" as const, row };
  if (row.invitation.expiresAt <= ctx.now()) return { status: "expired" as const, row };
  return { status: "valid" as const, row };
}

/** What the invitation page shows before the user accepts: which workspace, which role, from whom. */
export async function previewInvitation(ctx: AppContext, token: string): Promise<InvitationPreview> {
  const found = await findByToken(ctx, token);
  if (found.status !== "valid") return { status: found.status };
  const { invitation, workspaceName } = found.row;
  const inviter = invitation.invitedBy ? await findUserById(ctx.db, invitation.invitedBy) : undefined;
  return {
    status: "valid",
    workspace_name: workspaceName,
    role: invitation.role,
    email: invitation.email,
    ...(inviter ? { inviter_name: inviter.name } : {}),
  };
}

/** Why the signed-in account may not accept an invitation sent to `invitedEmail`. */
export const invitationForAnotherAddress = (invitedEmail: string) =>
  `This invitation was sent to ${invitedEmail}. Sign in with that address (or create an account with it) to accept it.`;
export const INVITED_ADDRESS_UNCONFIRMED =
  "Your account's email address was never confirmed, so it cannot accept invitations sent to it. Confirm it by changing your email on your profile page, or ask your Parley administrator.";

/**
 * Accepts an invitation with its link's token for the signed-in user, once, if the account uses the
 * invited address (case-insensitively) and owns it: a forwarded or leaked link joins nobody else.
 * The user's next tokens land in the workspace.
 */
export async function acceptInvitation(ctx: AppContext, userId: string, token: string): Promise<Membership> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const invitation = await lockInvitationByToken(tx, hashToken(token));
    if (!invitation || invitation.acceptedAt || invitation.expiresAt <= now) {
      throw new AppError("bad_request", INVITATION_INVALID);
    }
    const user = await findUserById(tx, userId);
    if (!user || normaliseEmail(user.email) !== normaliseEmail(invitation.email)) {
      throw new AppError("forbidden", invitationForAnotherAddress(invitation.email));
    }
    if (!user.emailVerified) throw new AppError("forbidden", INVITED_ADDRESS_UNCONFIRMED);
    await joinByInvitation(tx, invitation, userId, now);
    await setCurrentWorkspace(tx, userId, invitation.workspaceId);
    const membership = await findMembership(tx, userId, invitation.workspaceId);
    if (!membership) throw new Error("a joined workspace has no membership row");
    return membership;
  });
}
