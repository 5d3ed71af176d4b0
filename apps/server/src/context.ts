import type { NetworkDeps } from "@parley/engine";
import type { Config } from "./config.ts";
import type { Database } from "./db/client.ts";
import type { SecretBox } from "./lib/crypto.ts";
import type { Mailer } from "./lib/mailer.ts";
import type { AccessTokens } from "./modules/auth/access-token.ts";

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
  /** Wall clock, replaceable in tests of expiry. */
  now(): Date;
}
