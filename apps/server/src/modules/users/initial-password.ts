import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * The file in DATA_DIR that keeps the password Parley generated for the first admin, so a local
 * user who missed the start-up log can still sign in. It holds email, username and password.
 */
export function initialPasswordFile(dataDir: string) {
  return path.resolve(dataDir, "initial-admin-password.txt");
}

export function readInitialPassword(dataDir: string) {
  const file = initialPasswordFile(dataDir);
  if (!existsSync(file)) return undefined;
  const [email, username, password] = readFileSync(file, "utf8").trim().split("\n");
  return { file, email, username, password };
}

/** Once the admin chose their own password the generated one is stale: remove it from disk. */
export function forgetInitialPassword(dataDir: string, email: string) {
  const saved = readInitialPassword(dataDir);
  if (saved && saved.email?.toLowerCase() === email.toLowerCase()) rmSync(saved.file, { force: true });
}
