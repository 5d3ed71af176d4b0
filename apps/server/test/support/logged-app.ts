import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../../src/app.ts";
import { loadConfig } from "../../src/config.ts";
import { createContext } from "../../src/create-context.ts";
import { createLogger, type LogFormat } from "../../src/lib/log-options.ts";
import { MemoryMailer, type TestApp, TestClock, testDatabaseKind } from "../harness.ts";
import { freshPostgresDatabase } from "./postgres-database.ts";

/** The lines a server wrote, as main.ts's logger writes them (JSON or pretty), oldest first. */
export interface LogLines {
  lines: string[];
  /** Every line so far, parsed (JSON format only). */
  entries(): Array<Record<string, unknown>>;
}

/**
 * The test app of harness.ts, but logging as `npm start` does: one logger (level and format as
 * LOG_LEVEL and LOG_FORMAT would set them) shared by the services and the request lines, writing
 * into `log.lines` instead of stdout.
 */
export async function createLoggedTestApp(
  env: Record<string, string> = {},
  options: { level: string; format: LogFormat } = { level: "info", format: "json" },
): Promise<TestApp & { log: LogLines }> {
  const lines: string[] = [];
  const logger = createLogger(options, { write: (line: string) => lines.push(line) });
  const pgDb = testDatabaseKind === "postgres" ? await freshPostgresDatabase() : undefined;
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "parley-test-")),
    PARLEY_SECRET_KEY: "test-secret-key-test-secret-key-0123456789",
    PUBLIC_URL: "http://localhost:5173",
    LOG_LEVEL: options.level,
    LOG_FORMAT: options.format,
    SIP_PORT: "off",
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  if (!pgDb) config.dataDir = "memory://";
  const mailer = new MemoryMailer();
  const clock = new TestClock();
  const { ctx, database } = await createContext(config, {
    log: logger,
    migrationsFolder: path.resolve(import.meta.dirname, "../../drizzle"),
    mailer,
    now: clock.now,
  });
  const app = await buildApp(ctx, { loggerInstance: logger });
  await app.ready();
  return {
    app,
    ctx,
    mailer,
    clock,
    config,
    log: { lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) },
    async close() {
      await app.close();
      await database.close();
      await pgDb?.drop();
    },
  };
}
