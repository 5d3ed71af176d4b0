import type { FaultKind } from "@parley/contract";
import { ProviderError } from "../provider-error.ts";
import { messageText, socketError } from "../shared/socket-events.ts";
import type { NetworkDeps, WebSocketLike } from "../types.ts";
import { type LiveServerMessage, parseServerMessage } from "./server-messages.ts";

export const PROVIDER = "gemini-live";
/** Opening the socket and the vendor's `setupComplete` must finish within this. */
const READY_TIMEOUT_MS = 10_000;

export interface LiveConnectionEvents {
  onMessage(message: LiveServerMessage): void;
  /** A message that cannot be read; the conversation goes on. */
  onMalformed(error: ProviderError): void;
  /** The socket closed after `setupComplete`, not by `close()`. */
  onLost(error: ProviderError): void;
}

/**
 * One WebSocket of a Live session: it sends `setup` on open and resolves `ready` on
 * `setupComplete`; a session that moves (goAway, a prompt change) opens a second one with the
 * resumption handle while the first still plays, then closes the first.
 */
export class LiveConnection {
  readonly ready: Promise<void>;
  private readonly socket: WebSocketLike;
  private closing = false;

  constructor(url: string, setup: Record<string, unknown>, net: NetworkDeps, events: LiveConnectionEvents) {
    const open = net.openWebSocket;
    if (!open) throw new ProviderError(PROVIDER, "no WebSocket client to connect with", false);
    const socket = open(url, {});
    this.socket = socket;
    this.ready = new Promise<void>((resolve, reject) => {
      let settled = false;
      let live = false;
      const timer = setTimeout(() => {
        settle(new ProviderError(PROVIDER, "timed out waiting for setupComplete", true));
        this.close();
      }, READY_TIMEOUT_MS);
      const settle = (error: ProviderError | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) return reject(error);
        live = true;
        resolve();
      };
      socket.addEventListener("open", () => this.send(setup));
      socket.addEventListener("message", ({ data }) => {
        const parsed = parseServerMessage(messageText(data));
        if (parsed.kind === "malformed") {
          events.onMalformed(new ProviderError(PROVIDER, `malformed message: ${parsed.reason}`, false));
          return;
        }
        if (parsed.kind === "ignored") return;
        if (parsed.message.setupComplete) settle(null);
        if (live) events.onMessage(parsed.message);
      });
      socket.addEventListener("error", (event) => settle(socketError(PROVIDER, event)));
      socket.addEventListener("close", ({ code, reason }) => {
        const error = closeError(code, reason);
        if (!settled) settle(error);
        else if (live && !this.closing) events.onLost(error);
      });
    });
  }

  /** Sends one client message (`realtimeInput`, `toolResponse`, …) while the socket is open. */
  send(message: Record<string, unknown>): void {
    if (this.socket.readyState === 1) this.socket.send(JSON.stringify(message));
  }

  close(): void {
    this.closing = true;
    this.socket.close(1000, "call ended");
  }
}

/**
 * The vendor reports failures by closing the socket with a code and a reason: 1008 (policy: an
 * invalid key, a leaked key, an operation not allowed) and 1007 (an invalid argument in the
 * setup) are the caller's to fix; 1011 (internal error) and a dropped connection may pass on a retry.
 */
export function closeError(code: number, reason: string): ProviderError {
  const text = `connection closed (${code}${reason ? `: ${reason}` : ""})`;
  const refused = code === 1007 || code === 1008;
  const error = new ProviderError(PROVIDER, text, !refused);
  if (refused) return Object.assign(error, { faultKind: "rejected" satisfies FaultKind });
  return error;
}
