import type { AppContext } from "../../context.ts";
import type { Executor } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { found } from "../../lib/tenant-scope.ts";
import { revokeAllSessions } from "../auth/session.ts";
import { deleteUser, findUserById, updateUser } from "../users/service.ts";
import { settleWorkspacesAfterLeaving, workspaceIdsOf } from "../workspaces/service.ts";

async function requireUser(db: Executor, id: string) {
  return found(await findUserById(db, id), "User not found.");
}

/**
 * Removes the tier and with it the limits that came from it (they were never copied to the user).
 * An override set by hand, if any, stays until removed on its own.
 */
export async function removeTier(ctx: AppContext, userId: string) {
  await requireUser(ctx.db, userId);
  await updateUser(ctx.db, userId, { tierId: null, updatedAt: ctx.now() });
}

export async function setActive(ctx: AppContext, actorId: string, userId: string, active: boolean) {
  if (!active && actorId === userId) throw new AppError("conflict", "You cannot deactivate your own account.");
  await requireUser(ctx.db, userId);
  await updateUser(ctx.db, userId, { isActive: active, updatedAt: ctx.now() });
  if (!active) await revokeAllSessions(ctx.db, userId, ctx.now());
}

/** Deletes the account for good; workspaces left with no member go with it. */
export async function deleteUserPermanently(ctx: AppContext, actorId: string, userId: string) {
  if (actorId === userId) throw new AppError("conflict", "You cannot delete your own account.");
  await ctx.db.transaction(async (tx) => {
    await requireUser(tx, userId);
    const workspaceIds = await workspaceIdsOf(tx, userId);
    await deleteUser(tx, userId);
    await settleWorkspacesAfterLeaving(tx, workspaceIds);
  });
}
