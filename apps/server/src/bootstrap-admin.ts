import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import type { AppContext } from "./context.ts";
import { randomToken } from "./lib/crypto.ts";
import { hashPassword, verifyPassword } from "./lib/passwords.ts";
import { users } from "./modules/users/schema.ts";
import { findUserByEmail, insertUser, uniqueUsernameFor } from "./modules/users/service.ts";
import { createPersonalWorkspace } from "./modules/workspaces/service.ts";

export interface AdminNotice {
  email: string;
  username: string;
  /** Present only when Parley generated the password itself on first start. */
  generatedPassword?: string;
  passwordFile?: string;
}

/**
 * Makes sure someone can sign in. With PARLEY_ADMIN_EMAIL/PASSWORD that superuser is created or
 * updated at every start. Without them, the very first start of an empty database creates an
 * `admin` superuser with a random password, printed once and kept in DATA_DIR so a local user
 * is never locked out of a fresh install.
 */
export async function bootstrapAdmin(ctx: AppContext): Promise<AdminNotice | undefined> {
  const { db, config } = ctx;
  if (config.admin) {
    const existing = await findUserByEmail(db, config.admin.email);
    const passwordHash = await hashPassword(config.admin.password);
    if (existing) {
      await db
        .update(users)
        .set({ passwordHash, isSuperuser: true, isActive: true, updatedAt: ctx.now() })
        .where(eq(users.id, existing.id));
      return { email: existing.email, username: existing.username };
    }
    const username = await uniqueUsernameFor(db, config.admin.email);
    const user = await insertUser(db, {
      email: config.admin.email,
      username,
      name: "Administrator",
      passwordHash,
      isSuperuser: true,
    });
    await createPersonalWorkspace(db, user);
    return { email: user.email, username };
  }
  const passwordFile = path.resolve(config.dataDir, "initial-admin-password.txt");
  const [row] = await db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) {
    if (!existsSync(passwordFile)) return undefined;
    const [email, username, password] = readFileSync(passwordFile, "utf8").trim().split("\n");
    const admin = email ? await findUserByEmail(db, email) : undefined;
    // Once the generated password has been changed the file is stale: remove it, print nothing.
    if (!admin || !username || !password || !(await verifyPassword(admin.passwordHash, password))) {
      rmSync(passwordFile, { force: true });
      return undefined;
    }
    return { email: admin.email, username: admin.username, generatedPassword: password, passwordFile };
  }
  const password = randomToken(12);
  const user = await insertUser(db, {
    email: "admin@parley.local",
    username: "admin",
    name: "Administrator",
    passwordHash: await hashPassword(password),
    isSuperuser: true,
  });
  await createPersonalWorkspace(db, user);
  writeFileSync(passwordFile, `${user.email}\n${user.username}\n${password}\n`, { mode: 0o600 });
  return { email: user.email, username: user.username, generatedPassword: password, passwordFile };
}
