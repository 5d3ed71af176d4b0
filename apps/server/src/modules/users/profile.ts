import { type ChangePasswordBody, ERROR_TEXTS, type UpdateProfileBody } from "@parley/contract";
import { and, eq, ne, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { AppError, notFound } from "../../lib/app-error.ts";
import { hashPassword, verifyPassword } from "../../lib/passwords.ts";
import { forgetAuthState } from "./auth-state.ts";
import { type UserRow, users } from "./schema.ts";
import { findUserById, normaliseEmail } from "./service.ts";

/** Throws 409 when another account already uses this email or username (case-insensitive). */
export async function assertIdentityFree(
  db: Executor,
  identity: { email?: string | undefined; username?: string | undefined },
  exceptUserId?: string,
) {
  const notSelf = exceptUserId ? ne(users.id, exceptUserId) : undefined;
  if (identity.email) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${normaliseEmail(identity.email)}`, notSelf));
    if (taken) throw new AppError("conflict", ERROR_TEXTS.emailTaken);
  }
  if (identity.username) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.username}) = ${identity.username.toLowerCase()}`, notSelf));
    if (taken) throw new AppError("conflict", ERROR_TEXTS.usernameTaken);
  }
}

/** Name and username change at once; an email changes only through a confirmed link (auth module). */
export async function updateProfile(
  db: Executor,
  userId: string,
  body: Omit<UpdateProfileBody, "email">,
  now: Date,
): Promise<UserRow> {
  await assertIdentityFree(db, body, userId);
  const [row] = await db
    .update(users)
    .set({
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.username !== undefined ? { username: body.username } : {}),
      updatedAt: now,
    })
    .where(eq(users.id, userId))
    .returning();
  forgetAuthState(userId);
  if (!row) throw notFound();
  return row;
}

/** Sets a new email the user proved they receive mail at; 409 if another account took it meanwhile. */
export async function changeEmail(db: Executor, userId: string, email: string, now: Date): Promise<UserRow> {
  await assertIdentityFree(db, { email }, userId);
  const [row] = await db
    .update(users)
    // The confirmation link proved the account receives mail there: it owns the address now.
    .set({ email: normaliseEmail(email), emailVerified: true, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  forgetAuthState(userId);
  if (!row) throw notFound();
  return row;
}

/** Accounts created by magic link or SSO have no password yet and may set one without the old. */
export async function changePassword(db: Executor, userId: string, body: ChangePasswordBody, now: Date) {
  const user = await findUserById(db, userId);
  if (!user) throw notFound();
  if (user.passwordHash && !(await verifyPassword(user.passwordHash, body.current_password ?? ""))) {
    throw new AppError("bad_request", ERROR_TEXTS.wrongPassword);
  }
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(body.new_password), updatedAt: now })
    .where(eq(users.id, userId));
}
