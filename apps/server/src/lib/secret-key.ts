import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The master secret: PARLEY_SECRET_KEY when set, else a random key generated once into
 * DATA_DIR/secret.key (mode 0600) so tokens and encrypted secrets survive restarts.
 */
export function resolveSecretKey(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.resolve(dataDir, "secret.key");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(48).toString("base64url");
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
