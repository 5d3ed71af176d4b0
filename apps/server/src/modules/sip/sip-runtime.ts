import { randomUUID } from "node:crypto";
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { createNonceIssuer, type NonceIssuer, type RtpPortRange, UserAgent } from "@parley/sip";
import type { AppContext } from "../../context.ts";
import type { CallRuntime } from "../calls/runtime.ts";

/** The running SIP side of one server process: its user agent, where media binds, its nonces. */
export interface SipRuntime {
  ua: UserAgent;
  ctx: AppContext;
  /** The call runtime every channel starts its calls through (ctx.calls). */
  calls: CallRuntime;
  /** Identifies this process in sip_registrations / sip_active_calls. */
  processId: string;
  /** SIP_HOST as phones and carriers reach it. */
  host: string;
  /** SIP_HOST as an IP address: the SDP connection address. */
  mediaAddress: string;
  port: number;
  rtp: RtpPortRange;
  nonces: NonceIssuer;
  /** Stops what the runtime started besides the user agent (trunk registrations, sweeps). */
  stoppers: (() => Promise<void> | void)[];
  /** Calls' hang-ups (BYE) under way: the user agent closes only once they are sent. */
  hangingUp: Set<Promise<void>>;
}

// One runtime per application context, so test apps side by side keep their own.
const runtimes = new WeakMap<AppContext, SipRuntime>();

/** The process's SIP runtime, or null while SIP is off (SIP_PORT=off, or the port could not be bound). */
export function sipRuntimeOf(ctx: AppContext): SipRuntime | null {
  return runtimes.get(ctx) ?? null;
}

async function addressOf(host: string): Promise<string> {
  if (isIP(host)) return host;
  try {
    return (await lookup(host, { family: 4 })).address;
  } catch {
    return "127.0.0.1";
  }
}

/**
 * Binds the SIP listener (UDP and TCP) on config.sip. A port that cannot be bound logs an error and
 * leaves SIP off: the rest of Parley keeps serving.
 */
export async function startSipRuntime(ctx: AppContext): Promise<SipRuntime | null> {
  const { calls } = ctx;
  const { log } = calls;
  const { sip } = ctx.config;
  if (sip.port === null) return null;
  const ua = new UserAgent({ bindHost: ctx.config.host, publicHost: sip.host, userAgent: "Parley" });
  let port: number;
  try {
    port = await ua.listen(sip.port);
  } catch (error) {
    log.error({ err: error, port: sip.port }, "could not bind the SIP port: SIP is disabled");
    await ua.close().catch(() => undefined);
    return null;
  }
  const mediaAddress = await addressOf(sip.host);
  const runtime: SipRuntime = {
    ua,
    ctx,
    calls,
    processId: randomUUID(),
    host: sip.host,
    mediaAddress,
    port,
    rtp: { host: ctx.config.host, portMin: sip.rtpPortMin, portMax: sip.rtpPortMax },
    // Derived from the master secret: a nonce issued by one process verifies on another.
    nonces: createNonceIssuer(Buffer.from(calls.key).toString("hex")),
    stoppers: [],
    hangingUp: new Set(),
  };
  runtimes.set(ctx, runtime);
  // A draining node answers new calls, registrations and probes 503: the proxy in front moves on.
  ctx.node.onDrain(() => {
    ua.accepting = false;
  });
  log.info({ host: sip.host, port }, "SIP listening on UDP and TCP");
  return runtime;
}

export async function stopSipRuntime(ctx: AppContext): Promise<void> {
  const runtime = runtimes.get(ctx);
  if (!runtime) return;
  runtimes.delete(ctx);
  for (const stop of runtime.stoppers.splice(0)) await stop();
  // Calls ended by the shutdown have begun hanging up (calls.endAll ran first): let their BYEs out.
  await Promise.allSettled([...runtime.hangingUp]);
  await runtime.ua.close();
}
