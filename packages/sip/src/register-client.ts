import { EventEmitter } from "node:events";
import { answerChallenge } from "./digest.ts";
import { SipHeaders, type SipRequest, type SipResponse } from "./message.ts";
import type { SipStack } from "./stack.ts";
import type { Peer } from "./transport.ts";
import { randomToken } from "./uri.ts";

/**
 * Registers Parley to a carrier (RFC 3261 §10.2) with digest auth, refreshes before the binding
 * expires, and retries after a failure.
 */

export interface RegisterClientOptions {
  registrar: Peer;
  /** The carrier's domain (Request-URI host, To/From host). */
  domain: string;
  username: string;
  password: string;
  expires?: number;
  /** Retry delay after a failed registration. */
  retryMs?: number;
}

export interface RegisterClientEvents {
  registered: [expires: number];
  failed: [status: number, reason: string];
}

export class RegisterClient extends EventEmitter<RegisterClientEvents> {
  private readonly callId = `${randomToken(12)}@parley`;
  private readonly fromTag = randomToken(6);
  private seq = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Seconds granted by the registrar, 0 when not registered. */
  registeredFor = 0;

  constructor(
    private readonly stack: SipStack,
    private readonly options: RegisterClientOptions,
  ) {
    super();
  }

  private build(expires: number, authorization: [string, string] | null): SipRequest {
    this.seq += 1;
    const { domain, username } = this.options;
    const aor = `sip:${username}@${domain}`;
    const headers = new SipHeaders([
      ["From", `<${aor}>;tag=${this.fromTag}`],
      ["To", `<${aor}>`],
      ["Call-ID", this.callId],
      ["CSeq", `${this.seq} REGISTER`],
      ["Contact", `<${this.stack.contactUri(username, this.options.registrar.transport)}>`],
      ["Expires", String(expires)],
      ...(authorization ? [authorization] : []),
    ]);
    return { kind: "request", method: "REGISTER", uri: `sip:${domain}`, headers, body: Buffer.alloc(0) };
  }

  /** One REGISTER exchange (with one challenge answered); the final response. */
  async register(expires = this.options.expires ?? 300): Promise<SipResponse> {
    let response = await this.stack.request(this.build(expires, null), this.options.registrar);
    if (response.status === 401 || response.status === 407) {
      const challenge = response.headers.get(response.status === 401 ? "www-authenticate" : "proxy-authenticate");
      const uri = `sip:${this.options.domain}`;
      const answer = challenge ? answerChallenge(challenge, this.options, { method: "REGISTER", uri }) : null;
      if (answer) {
        const name = response.status === 401 ? "Authorization" : "Proxy-Authorization";
        response = await this.stack.request(this.build(expires, [name, answer]), this.options.registrar);
      }
    }
    return response;
  }

  /** Registers now and keeps the registration fresh until stop(). */
  async start(): Promise<SipResponse> {
    this.stopped = false;
    return this.cycle();
  }

  private async cycle(): Promise<SipResponse> {
    const response = await this.register();
    if (this.stopped) return response;
    if (response.status >= 200 && response.status < 300) {
      const granted = grantedExpires(response) ?? this.options.expires ?? 300;
      this.registeredFor = granted;
      this.emit("registered", granted);
      // Refresh well before expiry: at 80 %, and never later than 30 s before.
      this.schedule(Math.max(5, Math.min(granted * 0.8, granted - 30)) * 1000);
    } else {
      this.registeredFor = 0;
      this.emit("failed", response.status, response.reason);
      this.schedule(this.options.retryMs ?? 30_000);
    }
    return response;
  }

  private schedule(ms: number) {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.cycle().catch(() => undefined), ms);
    this.timer.unref();
  }

  /** Stops refreshing and removes the binding (Expires: 0). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.registeredFor > 0) await this.register(0).catch(() => undefined);
    this.registeredFor = 0;
  }
}

function grantedExpires(response: SipResponse): number | null {
  for (const contact of response.headers.getAll("contact")) {
    const match = /;\s*expires=(\d+)/i.exec(contact);
    if (match?.[1]) return Number(match[1]);
  }
  const header = response.headers.get("expires");
  return header ? Number(header) : null;
}
