import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DATA_TEMPLATE_ENV, startServer } from "./server.ts";

/**
 * Runs once before the browser suite: starts the product on a data directory of its own and stops
 * it, leaving a database that is created, migrated and seeded with the suite's admin. Each server a
 * test starts copies it (support/server.ts) instead of creating its database from nothing, which
 * took about 5 s of a 9.5 s start on a 2-core machine. The copy is exactly what a fresh start leaves.
 */
export default async function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-e2e-template-"));
  const server = await startServer({ DATA_DIR: dir });
  await server.stop();
  // Test workers start after global setup, with this process's environment.
  process.env[DATA_TEMPLATE_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
