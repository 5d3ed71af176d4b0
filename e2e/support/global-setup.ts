import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DATA_TEMPLATE_ENV, startServer } from "./server.ts";
import { SHARED_BROWSER_ENV, startSharedBrowser } from "./shared-browser.ts";

/**
 * Runs once before the browser suite: starts the product on a data directory of its own and stops
 * it, leaving a database that is created, migrated and seeded with the suite's admin. Each server a
 * test starts copies it (support/server.ts) instead of creating its database from nothing, which
 * took about 5 s of a 9.5 s start on a 2-core machine. The copy is exactly what a fresh start leaves.
 * It also starts the Chromium that files without browser flags of their own share
 * (support/shared-browser.ts).
 */
export default async function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-e2e-template-"));
  const browser = await startSharedBrowser();
  try {
    const server = await startServer({ DATA_DIR: dir });
    await server.stop();
  } catch (error) {
    await browser.close();
    throw error;
  }
  // Test workers start after global setup, with this process's environment.
  process.env[DATA_TEMPLATE_ENV] = dir;
  process.env[SHARED_BROWSER_ENV] = browser.wsEndpoint();
  return async () => {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  };
}
