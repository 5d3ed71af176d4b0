import { writeFileSync } from "node:fs";
import type { AppContext } from "./context.ts";
import { randomToken } from "./lib/crypto.ts";
import { hashPassword, verifyPassword } from "./lib/passwords.ts";
import { forgetInitialPassword, initialPasswordFile, readInitialPassword } from "./modules/users/initial-password.ts";
import { changeEmail } from "./modules/users/profile.ts";
import {
  countUsers,
  findFirstSuperuser,
  findUserByEmail,
  insertUser,
  uniqueUsernameFor,
  updateUser,
} from "./modules/users/service.ts";
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
  if (ctx.config.admin) return configuredAdmin(ctx, ctx.config.admin);
  const { db, config } = ctx;
  if ((await countUsers(db)) > 0) {
    const saved = readInitialPassword(config.dataDir);
    if (!saved) return undefined;
    const admin = saved.email ? await findUserByEmail(db, saved.email) : undefined;
    // Once the generated password has been changed the file is stale: remove it, print nothing.
    if (!admin || !saved.password || !(await verifyPassword(admin.passwordHash, saved.password))) {
      forgetInitialPassword(config.dataDir, saved.email ?? "");
      return undefined;
    }
    return {
      email: admin.email,
      username: admin.username,
      generatedPassword: saved.password,
      passwordFile: saved.file,
    };
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
  const passwordFile = initialPasswordFile(config.dataDir);
  writeFileSync(passwordFile, `${user.email}\n${user.username}\n${password}\n`, { mode: 0o600 });
  return { email: user.email, username: user.username, generatedPassword: password, passwordFile };
}

/**
 * PARLEY_ADMIN_EMAIL/PASSWORD: the account with that email becomes (or stays) a superuser with that
 * password. When no account has the email, the first superuser (the one an earlier start created,
 * under the generated admin or an older PARLEY_ADMIN_EMAIL) takes the new email, so changing the
 * variable renames the administrator instead of adding a second one.
 */
async function configuredAdmin(ctx: AppContext, admin: { email: string; password: string }): Promise<AdminNotice> {
  const { db } = ctx;
  const now = ctx.now();
  const passwordHash = await hashPassword(admin.password);
  const existing = (await findUserByEmail(db, admin.email)) ?? (await findFirstSuperuser(db));
  if (existing) {
    const renamed =
      existing.email === admin.email.toLowerCase() ? existing : await changeEmail(db, existing.id, admin.email, now);
    await updateUser(db, existing.id, { passwordHash, isSuperuser: true, isActive: true, updatedAt: now });
    // The generated password no longer signs anyone in.
    forgetInitialPassword(ctx.config.dataDir, existing.email);
    return { email: renamed.email, username: renamed.username };
  }
  const username = await uniqueUsernameFor(db, admin.email);
  const user = await insertUser(db, {
    email: admin.email,
    username,
    name: "Administrator",
    passwordHash,
    isSuperuser: true,
  });
  await createPersonalWorkspace(db, user);
  return { email: user.email, username };
}
