import { expect } from "vitest";
import type { WebSocket } from "ws";
import type { TelephonyDouble } from "./double-calls.ts";
import { isRecord } from "./double-server.ts";
import type { SimulatedCall } from "./simulated-call.ts";

/**
 * What the doubles' self-tests share: logging what the stand-in app heard on a stream, Basic
 * credentials and the forged-call check (closing what a test started is ../close-after-each.ts).
 */

/** What the stand-in app saw on one media stream, and the socket to answer on. */
export interface StreamLog {
  /** The JSON text messages, in order. */
  messages: Record<string, unknown>[];
  /** How many binary (audio) frames came. */
  frames: number;
  socket: WebSocket;
}

/** Starts logging what arrives on a stream the stand-in app accepted. */
export function logStream(socket: WebSocket): StreamLog {
  const log: StreamLog = { messages: [], frames: 0, socket };
  socket.on("message", (data, isBinary) => {
    if (isBinary) {
      log.frames++;
      return;
    }
    const value: unknown = JSON.parse(data.toString());
    if (isRecord(value)) log.messages.push(value);
  });
  return log;
}

/** The Authorization header of HTTP Basic credentials. */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
}

/**
 * Rings `number` with webhooks signed by a wrong key: Parley's stand-in answers 403, the double
 * reports it on the handle and the call ends without opening a stream.
 */
export async function expectForgedCallRefused<C extends SimulatedCall>(
  double: TelephonyDouble<C>,
  number: string,
  from: string,
): Promise<void> {
  const handle = await double.ringInbound(number, from, { forgeSignature: true });
  expect(handle.voice.status).toBe(403);
  await handle.done;
  expect(handle.call.legs).toHaveLength(0);
}
