import { EventEmitter } from "node:events";
import { createResponse, cseqOf, SipHeaders, type SipRequest, type SipResponse } from "./message.ts";
import { type Peer, SipTransport } from "./transport.ts";
import { branchOf, newBranch, parseVia } from "./uri.ts";

/**
 * The transaction layer (RFC 3261 §17), reduced to what a user agent needs: retransmission over
 * UDP (timers A/E with T1 doubling to T2, B/F at 64·T1), absorbing retransmitted requests by
 * replaying the last response, ACK for non-2xx finals, and the UAS core's 2xx retransmission until
 * the ACK arrives (§13.3.1.4).
 */

export const T1 = 500;
const T2 = 4000;
/** How long a finished server transaction keeps its response for retransmitted requests. */
const LINGER_MS = 32_000;

export interface StackOptions {
  /** Address to bind. */
  bindHost: string;
  /** Host (or IP) peers reach this stack at: Via sent-by and Contact. */
  publicHost: string;
  userAgent?: string;
  /**
   * The round-trip estimate T1 every timer scales with (RFC 3261 §17.1.1.1; 500 ms by default).
   * Tests shorten it so Timer B (64·T1) gives up on a silent peer in well under a second.
   */
  t1Ms?: number;
}

/** A request received, with a way to answer it inside its server transaction. */
export interface IncomingRequest {
  message: SipRequest;
  from: Peer;
  /** Sends a response (repeated to retransmitted requests; INVITE finals over UDP until ACKed). */
  reply(
    status: number,
    options?: { reason?: string; toTag?: string; headers?: [string, string][]; body?: Buffer | string },
  ): Promise<SipResponse>;
}

export interface StackEvents {
  request: [request: IncomingRequest];
}

interface ServerTransaction {
  last: SipResponse | null;
  peer: Peer;
  timer: NodeJS.Timeout | null;
}

interface ClientTransaction {
  resolve(response: SipResponse): void;
  onProvisional?: ((response: SipResponse) => void) | undefined;
  request: SipRequest;
  peer: Peer;
  timers: NodeJS.Timeout[];
}

export class SipStack extends EventEmitter<StackEvents> {
  readonly transport: SipTransport;
  private readonly server = new Map<string, ServerTransaction>();
  private readonly client = new Map<string, ClientTransaction>();
  /** INVITE finals being retransmitted until their ACK, by Call-ID and CSeq number. */
  private readonly awaitingAck = new Map<string, { stop(): void }>();
  /** The ACK sent for an answered INVITE, replayed when its 2xx is retransmitted. */
  private readonly sentAcks = new Map<string, { ack: SipRequest; peer: Peer }>();

  /** T1 (RFC 3261 §17.1.1.1): retransmissions start at it, Timer B and F are 64 times it. */
  readonly t1: number;

  constructor(readonly options: StackOptions) {
    super();
    this.t1 = options.t1Ms ?? T1;
    this.transport = new SipTransport(options.bindHost);
    this.transport.on("message", (message, from) => {
      if (message.kind === "request") this.onRequest(message, from);
      else this.onResponse(message);
    });
  }

  async listen(port: number): Promise<number> {
    return this.transport.listen(port);
  }

  get port(): number {
    return this.transport.port;
  }

  get userAgent(): string {
    return this.options.userAgent ?? "Parley";
  }

  /** A Contact URI for this stack, over the transport a peer uses. */
  contactUri(user: string, transport: Peer["transport"]): string {
    return `sip:${user}@${this.options.publicHost}:${this.port}${transport === "tcp" ? ";transport=tcp" : ""}`;
  }

  private onRequest(message: SipRequest, from: Peer) {
    const branch = branchOf(message.headers.get("via"));
    const { seq } = cseqOf(message);
    const ackKey = `${message.headers.get("call-id")}|${seq}`;
    if (message.method === "ACK") {
      this.awaitingAck.get(ackKey)?.stop();
      // The ACK of a non-2xx final belongs to the INVITE transaction and goes no further.
      if (
        branch &&
        this.server.has(`${branch}|INVITE`) &&
        (this.server.get(`${branch}|INVITE`)?.last?.status ?? 0) >= 300
      )
        return;
      this.emit("request", { message, from, reply: async () => createResponse(message, 500) });
      return;
    }
    const key = `${branch}|${message.method}`;
    const existing = branch ? this.server.get(key) : undefined;
    if (existing) {
      if (existing.last) void this.transport.send(existing.last, existing.peer).catch(() => undefined);
      return;
    }
    const txn: ServerTransaction = { last: null, peer: from, timer: null };
    if (branch) this.server.set(key, txn);
    const reply: IncomingRequest["reply"] = async (status, options = {}) => {
      const response = createResponse(message, status, options);
      const via = response.headers.getAll("via");
      if (via[0]) {
        // §18.2.1: say where the request really came from, so the peer's NAT binding is used.
        const parsed = parseVia(via[0]);
        let top = via[0];
        if (parsed && parsed.host !== from.address) top += `;received=${from.address}`;
        top = top.replace(/;rport(?=;|$)/, `;rport=${from.port}`);
        response.headers.delete("via");
        for (const [i, value] of via.entries()) response.headers.append("Via", i === 0 ? top : value);
      }
      response.headers.append("Server", this.userAgent);
      txn.last = response;
      await this.transport.send(response, from).catch(() => undefined);
      if (status >= 200) {
        if (message.method === "INVITE" && from.transport === "udp") this.retransmitUntilAck(ackKey, response, from);
        if (txn.timer) clearTimeout(txn.timer);
        txn.timer = setTimeout(() => this.server.delete(key), LINGER_MS);
        txn.timer.unref();
      }
      return response;
    };
    this.emit("request", { message, from, reply });
  }

  private retransmitUntilAck(key: string, response: SipResponse, peer: Peer) {
    this.awaitingAck.get(key)?.stop();
    let interval = this.t1;
    let elapsed = 0;
    let timer: NodeJS.Timeout;
    const stop = () => {
      clearTimeout(timer);
      if (this.awaitingAck.get(key)?.stop === stop) this.awaitingAck.delete(key);
    };
    const again = () => {
      elapsed += interval;
      if (elapsed >= 64 * this.t1) return stop();
      void this.transport.send(response, peer).catch(() => undefined);
      interval = Math.min(interval * 2, T2);
      timer = setTimeout(again, interval);
      timer.unref();
    };
    timer = setTimeout(again, interval);
    timer.unref();
    this.awaitingAck.set(key, { stop });
  }

  private onResponse(response: SipResponse) {
    const branch = branchOf(response.headers.get("via"));
    const { method, seq } = cseqOf(response);
    const txn = branch ? this.client.get(`${branch}|${method}`) : undefined;
    if (!txn) {
      // A retransmitted 2xx after the transaction ended: its ACK was lost, send it again.
      const sent = this.sentAcks.get(`${response.headers.get("call-id")}|${seq}`);
      if (sent && response.status >= 200 && response.status < 300)
        void this.transport.send(sent.ack, sent.peer).catch(() => undefined);
      return;
    }
    if (response.status < 200) {
      // A provisional response stops INVITE retransmissions (timer A) but not the timeout.
      if (method === "INVITE") for (const t of txn.timers.splice(1)) clearTimeout(t);
      txn.onProvisional?.(response);
      return;
    }
    for (const t of txn.timers) clearTimeout(t);
    if (branch) this.client.delete(`${branch}|${method}`);
    if (method === "INVITE" && response.status >= 300) void this.ackFailure(txn, response);
    txn.resolve(response);
  }

  /** §17.1.1.3: the ACK of a non-2xx final reuses the INVITE's branch and takes the response's To. */
  private async ackFailure(txn: ClientTransaction, response: SipResponse) {
    const { request } = txn;
    const headers = new SipHeaders();
    headers.append("Via", request.headers.get("via") ?? "");
    headers.append("Max-Forwards", "70");
    headers.append("From", request.headers.get("from") ?? "");
    headers.append("To", response.headers.get("to") ?? "");
    headers.append("Call-ID", request.headers.get("call-id") ?? "");
    headers.append("CSeq", `${cseqOf(request).seq} ACK`);
    for (const route of request.headers.getAll("route")) headers.append("Route", route);
    const ack: SipRequest = { kind: "request", method: "ACK", uri: request.uri, headers, body: Buffer.alloc(0) };
    await this.transport.send(ack, txn.peer).catch(() => undefined);
  }

  /**
   * Sends a request in a new client transaction (a Via with a new branch is put on top) and
   * resolves with the final response; or a local 408 after 64·T1 (or `timeoutMs`, or 64·T1 for an
   * INVITE nobody answers even provisionally); or a local 503 when the transport fails.
   */
  request(
    request: SipRequest,
    peer: Peer,
    options: {
      onProvisional?: (response: SipResponse) => void;
      /** When to give up with a local 408 (64·T1 by default; an INVITE may ring longer). */
      timeoutMs?: number;
    } = {},
  ): Promise<SipResponse> {
    const branch = newBranch();
    request.headers.delete("via");
    const via = `SIP/2.0/${peer.transport.toUpperCase()} ${this.options.publicHost}:${this.port};branch=${branch};rport`;
    const rest = [...request.headers];
    const headers = new SipHeaders([["Via", via], ...rest]);
    if (!headers.has("max-forwards")) headers.append("Max-Forwards", "70");
    if (!headers.has("user-agent")) headers.append("User-Agent", this.userAgent);
    request.headers = headers;
    const { method } = cseqOf(request);
    return new Promise((resolve) => {
      const key = `${branch}|${method}`;
      const txn: ClientTransaction = { resolve, onProvisional: options.onProvisional, request, peer, timers: [] };
      // Ends the transaction with a response of our own, unless the peer's final came first.
      const giveUp = (status: number) => {
        if (this.client.get(key) !== txn) return;
        for (const t of txn.timers) clearTimeout(t);
        this.client.delete(key);
        resolve(createResponse(request, status));
      };
      const timerB = 64 * this.t1;
      const deadlineMs = options.timeoutMs ?? timerB;
      // timers[0] is the deadline; the timers after it (retransmissions, Timer B) stop at a provisional.
      const deadline = setTimeout(() => giveUp(408), deadlineMs);
      deadline.unref();
      txn.timers.push(deadline);
      if (method === "INVITE" && deadlineMs > timerB) {
        // Timer B (§17.1.1.2): an INVITE allowed to ring longer still fails with 408 when nothing at
        // all, not even 100 Trying, comes back within 64·T1: the peer is not there.
        const silent = setTimeout(() => giveUp(408), timerB);
        silent.unref();
        txn.timers.push(silent);
      }
      this.client.set(key, txn);
      // §8.1.3.1: a fatal transport error (a TCP connection refused) counts as a 503 from the peer.
      const send = () => void this.transport.send(request, peer).catch(() => giveUp(503));
      send();
      if (peer.transport === "udp") {
        let interval = this.t1;
        const again = () => {
          send();
          interval = method === "INVITE" ? interval * 2 : Math.min(interval * 2, T2);
          const t = setTimeout(again, interval);
          t.unref();
          txn.timers.push(t);
        };
        const t = setTimeout(again, interval);
        t.unref();
        txn.timers.push(t);
      }
    });
  }

  /** Sends an ACK for a 2xx (its own transaction-less request) and remembers it for retransmitted 2xx. */
  async sendAck(ack: SipRequest, peer: Peer): Promise<void> {
    const via = `SIP/2.0/${peer.transport.toUpperCase()} ${this.options.publicHost}:${this.port};branch=${newBranch()};rport`;
    ack.headers = new SipHeaders([["Via", via], ...[...ack.headers].filter(([n]) => n.toLowerCase() !== "via")]);
    const key = `${ack.headers.get("call-id")}|${cseqOf(ack).seq}`;
    this.sentAcks.set(key, { ack, peer });
    setTimeout(() => this.sentAcks.delete(key), LINGER_MS).unref();
    await this.transport.send(ack, peer).catch(() => undefined);
  }

  /** Stops retransmitting an INVITE final (its dialog ended another way). */
  forgetAck(callId: string, seq: number): void {
    this.awaitingAck.get(`${callId}|${seq}`)?.stop();
  }

  async close(): Promise<void> {
    for (const txn of this.server.values()) if (txn.timer) clearTimeout(txn.timer);
    for (const txn of this.client.values()) for (const t of txn.timers) clearTimeout(t);
    for (const pending of this.awaitingAck.values()) pending.stop();
    this.server.clear();
    this.client.clear();
    this.removeAllListeners();
    await this.transport.close();
  }
}
