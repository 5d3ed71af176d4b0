import type { FastifyBaseLogger } from "fastify";
import { Registry } from "prom-client";
import type { Config } from "./config.ts";
import type { AppContext } from "./context.ts";
import { type DatabaseHandle, openDatabase } from "./db/client.ts";
import { createAccessTokens } from "./lib/access-tokens.ts";
import { AdmissionGate } from "./lib/admission.ts";
import { eventLoopProbe } from "./lib/admission-probe.ts";
import { deriveKey, SecretBox } from "./lib/crypto.ts";
import { createMailer, type Mailer } from "./lib/mailer.ts";
import { NodeLifecycle } from "./lib/node-lifecycle.ts";
import { createSafeNetwork } from "./lib/safe-network.ts";
import { resolveSecretKey } from "./lib/secret-key.ts";
import { ServerEvents } from "./lib/server-events.ts";
import { startTracing } from "./lib/tracing/tracing.ts";
import { createCallRuntime } from "./modules/calls/call-runtime.ts";
import { getPrivacySettings } from "./modules/privacy/settings.ts";

/** Opens the database (running migrations) and derives every key the services need. */
export async function createContext(
  config: Config,
  options: { log: FastifyBaseLogger; migrationsFolder: string; mailer?: Mailer; now?: () => Date },
): Promise<{ ctx: AppContext; database: DatabaseHandle }> {
  const master = resolveSecretKey(config.secretKey, config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    migrationsFolder: options.migrationsFolder,
  });
  await database.migrate();
  const metricsRegistry = new Registry();
  // On a node of a cluster (NODE_ID set) every series names its node, so the figures of all nodes
  // can be summed or told apart wherever they are collected; a single process keeps bare series.
  if (config.node.routed) metricsRegistry.setDefaultLabels({ node: config.node.id });
  const ctx: AppContext = {
    config,
    db: database.db,
    mailer: options.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.smtpFrom, log: options.log }),
    accessTokens: createAccessTokens(deriveKey(master, "access-token"), config.accessTokenTtlSeconds),
    secrets: new SecretBox(deriveKey(master, "secrets")),
    network: createSafeNetwork({ allowedPrivate: config.allowedPrivateHosts }),
    metricsRegistry,
    // The one call runtime: every channel receives it as ctx.calls (it reads the context once calls start).
    calls: createCallRuntime({
      context: () => ctx,
      log: options.log,
      key: deriveKey(master, "room-token"),
      registry: metricsRegistry,
      // A trace per call when OTEL_EXPORTER_OTLP_ENDPOINT is set (the jobs plugin closes it with the app).
      traces: (await startTracing(config, options.log)).calls,
      privacySettings: (tenant) => getPrivacySettings(ctx.db, tenant),
    }),
    events: new ServerEvents(options.log),
    node: new NodeLifecycle(config.node.id, config.node.routed ? config.node.id : null),
    // Reads the process's event loop; counts the rooms this process holds as its running calls.
    admission: new AdmissionGate(config.admission, {
      source: eventLoopProbe(),
      runningCalls: () => ctx.calls.rooms.all().length,
      log: options.log,
    }),
    now: options.now ?? (() => new Date()),
  };
  return { ctx, database };
}
