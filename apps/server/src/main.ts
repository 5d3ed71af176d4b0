import path from "node:path";
import { buildApp } from "./app.ts";
import { bootstrapAdmin } from "./bootstrap-admin.ts";
import { ConfigError, loadConfig } from "./config.ts";
import { createContext } from "./create-context.ts";
import { DataDirLockedError } from "./db/data-dir-lock.ts";
import { drainNode } from "./lib/drain.ts";
import { createLogger } from "./lib/log-options.ts";
import { indexStoredEmbeddings } from "./modules/knowledge-base/vector-support.ts";
import { listenForMetrics } from "./plugins/metrics.ts";

// src/main.ts and the bundled dist/main.js both sit one level below apps/server.
const serverRoot = path.resolve(import.meta.dirname, "..");

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Parley cannot start.\n${error.message}`);
      process.exit(78);
    }
    throw error;
  }
  config.webDistDir ??= path.resolve(serverRoot, "../web/dist");
  // One logger for the whole process: the services' lines and the request lines share level and format.
  const log = createLogger({ level: config.logLevel, format: config.logFormat });
  const { ctx, database } = await createContext(config, { log, migrationsFolder: path.join(serverRoot, "drizzle") });
  const adminNotice = await bootstrapAdmin(ctx);
  await indexStoredEmbeddings(database, log);
  const app = await buildApp(ctx, { loggerInstance: log });

  const metricsServer = config.metricsListen
    ? await listenForMetrics(ctx.metricsRegistry, config.metricsListen)
    : undefined;

  // A stop signal drains first (lib/drain.ts): the node leaves the load balancers' rotation, its
  // calls finish (up to DRAIN_TIMEOUT), then it closes. A second signal closes at once, ending the
  // calls still running as server_shutdown.
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, node: ctx.node.id }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    metricsServer?.close();
    await app.close();
    // What the last calls' endings set off (webhooks, metering) is written before the database closes.
    if (!(await ctx.events.settled(5_000)))
      app.log.warn({ node: ctx.node.id }, "server event listeners still running at shutdown; closing anyway");
    await database.close();
    clearTimeout(force);
    process.exit(0);
  };
  let draining = false;
  const stop = async (signal: string) => {
    if (draining) return close(signal);
    draining = true;
    app.log.info({ signal, node: ctx.node.id }, "stop signal received");
    await drainNode(ctx, app.log, config.node.drainTimeoutMs);
    await close(signal);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  const lines = [
    "",
    `  Parley is running at ${config.publicUrl}`,
    `  Database: ${database.kind === "pglite" ? `embedded (PGlite) in ${path.resolve(config.dataDir)}` : "PostgreSQL (DATABASE_URL)"}`,
    `  API docs: ${config.publicUrl}/api/docs`,
    `  Node: ${ctx.node.id} (readiness at /api/v1/health/ready; SIGTERM drains for up to ${Math.round(config.node.drainTimeoutMs / 1000)} s)`,
  ];
  if (config.metricsListen)
    lines.push(`  Metrics: http://${config.metricsListen.host}:${config.metricsListen.port}/metrics`);
  if (adminNotice?.generatedPassword) {
    lines.push(
      `  Sign in as "${adminNotice.username}" with password: ${adminNotice.generatedPassword}`,
      `  (kept in ${adminNotice.passwordFile}; change it on your profile page, or set PARLEY_ADMIN_EMAIL and PARLEY_ADMIN_PASSWORD)`,
    );
  } else if (adminNotice) {
    lines.push(`  Sign in as ${adminNotice.email} with PARLEY_ADMIN_PASSWORD.`);
  }
  if (!config.smtpUrl) lines.push("  SMTP_URL is not set: sign-in links and invitations are printed to this log.");
  console.log(`${lines.join("\n")}\n`);
}

main().catch((error: unknown) => {
  // A setting read while the services start (the OpenTelemetry variables) is refused like the rest.
  if (error instanceof ConfigError) {
    console.error(`Parley cannot start.\n${error.message}`);
    process.exit(78);
  }
  if (error instanceof DataDirLockedError) {
    console.error(`Parley cannot start.\n  ${error.message}`);
    process.exit(1);
  }
  console.error("Parley failed to start:", error);
  process.exit(1);
});
