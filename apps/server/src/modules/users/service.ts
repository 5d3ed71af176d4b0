import type { SessionUser } from "@parley/contract";
import { and, asc, count, eq, inArray, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { preparedFor, UNNAMED_STATEMENT } from "../../db/prepared.ts";
import { forgetAuthState } from "./auth-state.ts";
import { enterpriseQuotas, type UserRow, users } from "./schema.ts";

export type { UserRow };

/** What other modules may change on an account directly (profile edits go through profile.ts). */
export type UserChanges = Partial<
  Pick<UserRow, "passwordHash" | "isSuperuser" | "isActive" | "ssoProvider" | "tierId" | "updatedAt" | "emailVerified">
>;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

// Read on every GET /users/me and token refresh: built once per database handle.
const userByIdQuery = preparedFor((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare(UNNAMED_STATEMENT),
);

export async function findUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await userByIdQuery(db).execute({ id });
  return row;
}

/** Reads the user with their row locked until the transaction ends (serialises per-user quota checks). */
export async function lockUser(tx: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for("update");
  return row;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${normaliseEmail(email)}`);
  return row;
}

/** Sign-in accepts either the username or the email address, case-insensitively. */
export async function findUserByLogin(db: Executor, login: string): Promise<UserRow | undefined> {
  const value = login.trim().toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.username}) = ${value}`, sql`lower(${users.email}) = ${value}`))
    .limit(1);
  return row;
}

export async function findUserByUsername(db: Executor, username: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(sql`lower(${users.username}) = ${username.trim().toLowerCase()}`);
  return row;
}

/** The longest-standing superuser: the administrator the first start set up. */
export async function findFirstSuperuser(db: Executor): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.isSuperuser, true))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(1);
  return row;
}

const enterpriseQuotaQuery = preparedFor((db) =>
  db
    .select({ userId: enterpriseQuotas.userId })
    .from(enterpriseQuotas)
    .where(eq(enterpriseQuotas.userId, sql.placeholder("userId")))
    .prepare(UNNAMED_STATEMENT),
);

export async function isEnterprise(db: Executor, userId: string): Promise<boolean> {
  const [row] = await enterpriseQuotaQuery(db).execute({ userId });
  return Boolean(row);
}

export function toSessionUser(user: UserRow, enterprise: boolean): SessionUser {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    username: user.username,
    is_superuser: user.isSuperuser,
    profile_image_url: user.profileImageUrl,
    sso_provider: user.ssoProvider,
    tier_id: user.tierId,
    is_enterprise: enterprise,
    has_password: user.passwordHash !== null,
  };
}

export async function sessionUserOf(db: Executor, user: UserRow): Promise<SessionUser> {
  return toSessionUser(user, await isEnterprise(db, user.id));
}

/**
 * A free username derived from an email's local part ("ada.lovelace", "ada.lovelace2", …),
 * for accounts created by magic link or SSO that never chose one.
 */
export async function uniqueUsernameFor(db: Executor, email: string): Promise<string> {
  const base =
    normaliseEmail(email)
      .split("@")[0]
      ?.replace(/[^a-z0-9_.-]/g, "")
      .slice(0, 32) || "user";
  const stem = base.length >= 3 ? base : `${base}user`;
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? stem : `${stem}${n}`;
    if (!(await findUserByUsername(db, candidate))) return candidate;
  }
}

export interface NewUser {
  email: string;
  username: string;
  name: string;
  passwordHash: string | null;
  isSuperuser?: boolean;
  ssoProvider?: string | null;
}

export async function insertUser(db: Executor, input: NewUser): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({
      email: normaliseEmail(input.email),
      username: input.username,
      name: input.name,
      passwordHash: input.passwordHash,
      isSuperuser: input.isSuperuser ?? false,
      ssoProvider: input.ssoProvider ?? null,
    })
    .returning();
  if (!row) throw new Error("insert into users returned no row");
  return row;
}

export async function setCurrentWorkspace(db: Executor, userId: string, workspaceId: string) {
  await db
    .update(users)
    .set({ currentWorkspaceId: workspaceId })
    .where(and(eq(users.id, userId)));
}

/** A user who leaves a workspace stops landing in it; tokens minted later pick another membership. */
export async function clearCurrentWorkspace(db: Executor, userId: string, workspaceId: string) {
  await db
    .update(users)
    .set({ currentWorkspaceId: null })
    .where(and(eq(users.id, userId), eq(users.currentWorkspaceId, workspaceId)));
}

export async function updateUser(db: Executor, userId: string, changes: UserChanges): Promise<void> {
  await db.update(users).set(changes).where(eq(users.id, userId));
  forgetAuthState(userId);
}

/**
 * Ends the account's sessions (password change or reset, deactivation): every token of the current
 * generation stops working on its next request, except those of `keptSessionId`, the session that
 * asked. Returns the new generation, which tokens minted from now on carry.
 */
export async function cutSessions(db: Executor, userId: string, keptSessionId: string | null): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ sessionGeneration: sql`${users.sessionGeneration} + 1`, keptSessionId })
    .where(eq(users.id, userId))
    .returning({ generation: users.sessionGeneration });
  forgetAuthState(userId);
  return row?.generation ?? 0;
}

export async function findUsersByIds(db: Executor, ids: string[]): Promise<UserRow[]> {
  return ids.length > 0 ? db.select().from(users).where(inArray(users.id, ids)) : [];
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n ?? 0;
}

/** Deletes the account; its memberships, sessions and quota go with it (foreign keys cascade). */
export async function deleteUser(db: Executor, userId: string): Promise<void> {
  await db.delete(users).where(eq(users.id, userId));
  forgetAuthState(userId);
}
