import { createSocket } from "node:dgram";
import { once } from "node:events";
import { createServer } from "node:net";

/**
 * Ports for a local cluster on 127.0.0.1. Other clusters and tests may run on the same machine at
 * the same time, so every port is checked by binding it, and ports handed out are remembered.
 */

const handedOut = new Set<number>();

async function tcpFree(port: number): Promise<number | null> {
  const server = createServer();
  try {
    server.listen(port, "127.0.0.1");
    await once(server, "listening");
    const address = server.address();
    return address && typeof address !== "string" ? address.port : null;
  } catch {
    return null;
  } finally {
    server.close();
  }
}

async function udpFree(port: number): Promise<boolean> {
  const socket = createSocket("udp4");
  try {
    socket.bind(port, "127.0.0.1");
    await once(socket, "listening");
    return true;
  } catch {
    return false;
  } finally {
    socket.close();
  }
}

/** A TCP port nobody listens on (and, with `udp`, free for UDP too: SIP takes both). */
export async function freePort(options: { udp?: boolean } = {}): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await tcpFree(0);
    if (port === null || handedOut.has(port)) continue;
    if (options.udp && !(await udpFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error("no free port found on 127.0.0.1");
}

/**
 * An even-aligned UDP range of `size` ports for RTP, below Linux's ephemeral ports (32768 up) so
 * no outgoing connection takes one; its first, middle and last ports are checked free.
 */
export async function freeRtpRange(size: number): Promise<[number, number]> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const min = 20000 + 2 * Math.floor((Math.random() * (12000 - size)) / 2);
    const max = min + size - 1;
    if ([...handedOut].some((p) => p >= min && p <= max)) continue;
    const probes = [min, min + 2 * Math.floor(size / 4), max - 1];
    const free = await Promise.all(probes.map(udpFree));
    if (!free.every(Boolean)) continue;
    for (let p = min; p <= max; p++) handedOut.add(p);
    return [min, max];
  }
  throw new Error("no free RTP port range found");
}
