// Invitation lookups that cross workspaces on purpose: an invitation link carries only its token,
// and the one who opens it is not yet a member of the workspace it invites to, so the invitation
// (and with it the workspace) is found by the token's hash alone.

import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { workspaceInvitations, workspaces } from "./schema.ts";

/** The invitation whose token hashes to `tokenHash`, with its workspace's name. */
export async function findInvitationByToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({ invitation: workspaceInvitations, workspaceName: workspaces.name })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .where(eq(workspaceInvitations.tokenHash, tokenHash));
  return row;
}

/** The same invitation, locked until the transaction ends so two accepts cannot both use it. */
export async function lockInvitationByToken(tx: Executor, tokenHash: string) {
  const [invitation] = await tx
    .select()
    .from(workspaceInvitations)
    .where(eq(workspaceInvitations.tokenHash, tokenHash))
    .for("update");
  return invitation;
}
