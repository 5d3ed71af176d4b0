import type { NetworkDeps } from "@parley/engine";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { SecretBox } from "./lib/crypto.ts";
import type { Mailer } from "./lib/mailer.ts";
import type { ServerEvents } from "./lib/server-events.ts";
import type { AccessTokens } from "./lib/access-tokens.ts";
import type { RoomRegistry } from "./modules/calls/rooms.ts";

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
  /** The rooms of the calls this process runs (one registry per context, so parallel test apps stay apart). */
  rooms: RoomRegistry;
  /** Signs room tokens; derived from the master secret so tokens hold across processes sharing it. */
  roomTokenKey: Uint8Array;
  /** What happened, for the modules that react to it (webhooks, metering, post-call analysis). */
  events: ServerEvents;
  /** Wall clock, replaceable in tests of expiry. */
  now(): Date;
}
