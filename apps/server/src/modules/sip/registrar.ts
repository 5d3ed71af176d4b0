import { handleRegister } from "@parley/sip";
import { findExtension } from "../phone-numbers/service.ts";
import { registerRateLimit } from "./register-limits.ts";
import { databaseBindings, sweepRegistrations } from "./registrations.ts";
import { requestOrigin } from "./request-origin.ts";
import type { SipRuntime } from "./sip-runtime.ts";

/** How often expired registrations are swept from the table. */
const SWEEP_MS = 60_000;

/**
 * Parley's registrar: an extension's phone registers as `{username}@{domain}` with the password
 * shown when the extension was created; the digest is checked against the HA1 stored on the number
 * (realm = domain). Bindings go to sip_registrations so every process sees them. Failed digests
 * are rate limited per extension and per source address (register-limits.ts).
 */
export function serveRegistrar(runtime: SipRuntime): void {
  const { ctx } = runtime;
  const { log } = runtime.calls;
  const store = databaseBindings(ctx.db, runtime.processId, ctx.now);
  const { trustedProxies } = ctx.config.sip;
  const guard = registerRateLimit({ store, log, now: ctx.now, trustedProxies });
  runtime.ua.on("register", (request) => {
    void handleRegister(request, {
      store,
      guard,
      nonces: runtime.nonces,
      originOf: (req) => requestOrigin(req, trustedProxies),
      now: ctx.now,
      ha1: async (username, domain) => (await findExtension(ctx.db, username, domain))?.sipHa1 ?? null,
    }).catch((error: unknown) => {
      log.error({ err: error }, "REGISTER failed");
      void request.reply(500).catch(() => undefined);
    });
  });
  const sweep = setInterval(() => {
    guard.sweep();
    void sweepRegistrations(ctx.db, ctx.now()).catch((error: unknown) =>
      log.warn({ err: error }, "could not sweep expired SIP registrations"),
    );
  }, SWEEP_MS);
  sweep.unref();
  runtime.stoppers.push(() => clearInterval(sweep));
}
