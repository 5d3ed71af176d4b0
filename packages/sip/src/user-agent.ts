import { EventEmitter } from "node:events";
import { ALLOW, type CallLeg } from "./call-leg.ts";
import { InboundCall } from "./inbound-call.ts";
import { type DialOptions, type DialResult, dial, type OutboundCall } from "./outbound-call.ts";
import { type IncomingRequest, SipStack, type StackOptions } from "./stack.ts";
import { tagOf } from "./uri.ts";

/**
 * The user agent core: routes requests to the call they belong to (by Call-ID), turns new INVITEs
 * into InboundCalls, hands REGISTER to the registrar, and answers OPTIONS pings.
 */

export interface UserAgentEvents {
  /** A new call; 100 Trying has been sent. The listener rings, accepts or rejects it. */
  invite: [call: InboundCall];
  register: [request: IncomingRequest];
  /** A new INVITE named the Call-ID of a call still up; it was answered 482 Loop Detected. */
  merged: [request: IncomingRequest];
}

export class UserAgent extends EventEmitter<UserAgentEvents> {
  readonly stack: SipStack;
  private readonly legs = new Map<string, CallLeg>();
  /**
   * False while the server drains: new INVITEs and REGISTERs and OPTIONS probes are answered
   * 503 Service Unavailable (RFC 3261 21.5.4), so a proxy in front (a dispatcher probing with
   * OPTIONS) sends new calls to another server; requests of calls already up are served as before.
   */
  accepting = true;

  constructor(options: StackOptions) {
    super();
    this.stack = new SipStack(options);
    this.stack.on("request", (request) => void this.route(request).catch(() => undefined));
  }

  listen(port: number): Promise<number> {
    return this.stack.listen(port);
  }

  get port(): number {
    return this.stack.port;
  }

  /** Calls this agent holds, by Call-ID. */
  get calls(): ReadonlyMap<string, CallLeg> {
    return this.legs;
  }

  private track(leg: CallLeg) {
    this.legs.set(leg.callId, leg);
    leg.once("ended", () => {
      // Kept a little so a late BYE/ACK retransmission still finds it, then forgotten.
      setTimeout(() => {
        if (this.legs.get(leg.callId) === leg) this.legs.delete(leg.callId);
      }, 32_000).unref();
    });
  }

  private async route(request: IncomingRequest): Promise<void> {
    const { message } = request;
    const callId = message.headers.get("call-id") ?? "";
    const leg = this.legs.get(callId);
    // An INVITE without a To tag starts a new dialog even when the Call-ID is known (a retry after
    // a digest challenge); retransmissions of the same INVITE were absorbed by the transaction layer.
    const fresh = message.method === "INVITE" && !tagOf(message.headers.get("to"));
    if (leg && fresh && leg.state !== "ended") {
      // A new INVITE naming a call still up is a merged request or a replay (RFC 3261 8.2.2.2): it is
      // refused without touching the call it names, whose dialog goes on.
      await request.reply(482);
      this.emit("merged", request);
      return;
    }
    if (leg && !fresh) {
      if (message.method === "CANCEL" && leg instanceof InboundCall) return leg.cancelled(request);
      if (leg.state === "ended" && message.method !== "ACK") return void (await request.reply(481));
      return leg.handle(request);
    }
    if (!this.accepting && ["INVITE", "REGISTER", "OPTIONS"].includes(message.method)) {
      await request.reply(503, { headers: [["Retry-After", "30"]] });
      return;
    }
    switch (message.method) {
      case "INVITE": {
        if (!fresh) return void (await request.reply(481));
        const call = new InboundCall(this.stack, request);
        this.track(call);
        await call.trying();
        if (this.listenerCount("invite") === 0) return call.reject(480);
        this.emit("invite", call);
        return;
      }
      case "REGISTER":
        if (this.listenerCount("register") === 0)
          return void (await request.reply(405, { headers: [["Allow", ALLOW]] }));
        this.emit("register", request);
        return;
      case "OPTIONS":
        await request.reply(200, {
          headers: [
            ["Allow", ALLOW],
            ["Accept", "application/sdp"],
          ],
        });
        return;
      case "ACK":
        return;
      default:
        await request.reply(481);
    }
  }

  /** Places a call (see dial()); the call is tracked so in-dialog requests reach it. */
  dial(options: DialOptions, onCreated?: (call: OutboundCall) => void): Promise<DialResult> {
    return dial(this.stack, options, (call) => {
      this.track(call);
      onCreated?.(call);
    });
  }

  async close(): Promise<void> {
    // BYEs go out, but a peer that is already gone is not waited for.
    for (const leg of this.legs.values()) void leg.hangup().catch(() => undefined);
    this.removeAllListeners();
    await this.stack.close();
  }
}
