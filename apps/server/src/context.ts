import type { NetworkDeps } from "@parley/engine";
import type { Registry } from "prom-client";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { AccessTokens } from "./lib/access-tokens.ts";
import type { AdmissionGate } from "./lib/admission.ts";
import type { CallRuntime } from "./lib/call-runtime.ts";
import type { SecretBox } from "./lib/crypto.ts";
import type { Mailer } from "./lib/mailer.ts";
import type { NodeLifecycle } from "./lib/node-lifecycle.ts";
import type { ServerEvents } from "./lib/server-events.ts";

/** What every module's services need, built once at start and attached to the app as `app.ctx`. */
export interface AppContext {
  config: Config;
  db: Database;
  mailer: Mailer;
  accessTokens: AccessTokens;
  /** Encrypts provider keys and other secrets at rest. */
  secrets: SecretBox;
  /** SSRF-safe fetch and WebSocket for every user-given URL (lib/safe-network.ts). */
  network: NetworkDeps;
  /**
   * The live calls of this process, whatever channel carries them: rooms, call metrics, grant
   * signing, call-state queries, and opening, starting and expiring calls (one per context, so
   * parallel test apps stay apart).
   */
  calls: CallRuntime;
  /** The /metrics registry (plugins/metrics.ts serves it); the call runtime registers its series in it. */
  metricsRegistry: Registry;
  /** What happened, for the modules that react to it (webhooks, metering, post-call analysis). */
  events: ServerEvents;
  /** This process among the nodes of the database: its id, routing key, and drain (SIGTERM). */
  node: NodeLifecycle;
  /** Whether this process takes a new call now (lib/admission.ts): every channel asks before a call starts. */
  admission: AdmissionGate;
  /** Wall clock, replaceable in tests of expiry. */
  now(): Date;
}
