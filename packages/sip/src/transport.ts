import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { EventEmitter } from "node:events";
import { createServer, isIPv6, type Server, type Socket, connect as tcpConnect } from "node:net";
import { contentLengthOf, headerEnd, parseMessage, type SipMessage, serializeMessage } from "./message.ts";

/**
 * SIP over UDP and TCP on one port (RFC 3261 §18). UDP: one message per datagram. TCP: messages
 * framed by Content-Length; a response goes back on the connection its request came in on, and
 * outgoing requests reuse an open connection to the same peer.
 */

export type TransportName = "udp" | "tcp";

/** Where a message came from or goes to. */
export interface Peer {
  transport: TransportName;
  address: string;
  port: number;
}

export const peerKey = (peer: Peer) => `${peer.transport}:${peer.address}:${peer.port}`;

/** The largest message a TCP peer may send before it is cut off (an INVITE with SDP is ~1–2 KB). */
const MAX_TCP_BUFFER = 64 * 1024;

export interface TransportEvents {
  message: [message: SipMessage, from: Peer];
  error: [error: Error];
}

export class SipTransport extends EventEmitter<TransportEvents> {
  private udp: UdpSocket | null = null;
  private tcp: Server | null = null;
  private readonly connections = new Map<string, Socket>();
  port = 0;

  constructor(readonly host: string) {
    super();
  }

  /** Binds UDP and TCP on the same port; port 0 picks a free one both can use. */
  async listen(port: number): Promise<number> {
    const attempts = port === 0 ? 8 : 1;
    let lastError: unknown = null;
    for (let i = 0; i < attempts; i += 1) {
      try {
        const udp = await this.bindUdp(port);
        const bound = udp.address().port;
        try {
          this.tcp = await this.bindTcp(bound);
        } catch (error) {
          udp.close();
          throw error;
        }
        this.udp = udp;
        this.port = bound;
        return bound;
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError instanceof Error ? lastError : new Error("Could not bind the SIP port");
  }

  private bindUdp(port: number): Promise<UdpSocket> {
    return new Promise((resolve, reject) => {
      const socket = createSocket({ type: isIPv6(this.host) ? "udp6" : "udp4" });
      socket.once("error", reject);
      socket.bind(port, this.host, () => {
        socket.off("error", reject);
        socket.on("error", (error) => this.emit("error", error));
        socket.on("message", (data, info) =>
          this.receive(data, { transport: "udp", address: info.address, port: info.port }),
        );
        resolve(socket);
      });
    });
  }

  private bindTcp(port: number): Promise<Server> {
    return new Promise((resolve, reject) => {
      const server = createServer((socket) => this.adopt(socket));
      server.once("error", reject);
      server.listen(port, this.host, () => {
        server.off("error", reject);
        server.on("error", (error) => this.emit("error", error));
        resolve(server);
      });
    });
  }

  /** Reads framed messages from a TCP connection (accepted or opened). */
  private adopt(socket: Socket): Peer {
    const peer: Peer = { transport: "tcp", address: socket.remoteAddress ?? "", port: socket.remotePort ?? 0 };
    const key = peerKey(peer);
    this.connections.set(key, socket);
    socket.setNoDelay(true);
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        // Keep-alive CRLFs between messages (RFC 5626 §3.5.1) are skipped.
        while (buffer.length > 0 && (buffer[0] === 0x0d || buffer[0] === 0x0a)) buffer = buffer.subarray(1);
        const end = headerEnd(buffer);
        if (end < 0) break;
        const total = end + contentLengthOf(buffer.subarray(0, end).toString("utf8"));
        if (buffer.length < total) break;
        this.receive(buffer.subarray(0, total), peer);
        buffer = buffer.subarray(total);
      }
      if (buffer.length > MAX_TCP_BUFFER) socket.destroy();
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      if (this.connections.get(key) === socket) this.connections.delete(key);
    });
    return peer;
  }

  private receive(data: Buffer, from: Peer) {
    // Keep-alives on UDP ("\r\n\r\n") carry no message.
    if (data.length <= 4 && data.toString("latin1").trim() === "") return;
    let message: SipMessage;
    try {
      message = parseMessage(data);
    } catch {
      return;
    }
    this.emit("message", message, from);
  }

  async send(message: SipMessage, to: Peer): Promise<void> {
    const bytes = serializeMessage(message);
    if (to.transport === "udp") {
      const udp = this.udp;
      if (!udp) throw new Error("SIP transport is closed");
      await new Promise<void>((resolve, reject) =>
        udp.send(bytes, to.port, to.address, (error) => (error ? reject(error) : resolve())),
      );
      return;
    }
    const socket = this.connections.get(peerKey(to)) ?? (await this.open(to));
    socket.write(bytes);
  }

  private open(to: Peer): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = tcpConnect({ host: to.address, port: to.port });
      socket.once("error", reject);
      socket.once("connect", () => {
        socket.off("error", reject);
        // Registered under the address we dialled, so replies and later requests find it.
        const key = peerKey(to);
        this.adopt(socket);
        this.connections.set(key, socket);
        resolve(socket);
      });
    });
  }

  async close(): Promise<void> {
    for (const socket of this.connections.values()) socket.destroy();
    this.connections.clear();
    await Promise.all([
      new Promise<void>((resolve) => (this.udp ? this.udp.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve())),
    ]);
    this.udp = null;
    this.tcp = null;
  }
}
