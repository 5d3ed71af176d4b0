import { ProviderError } from "../provider-error.ts";
import type { NetworkDeps, SttOpenOptions, SttSession, TranscriptEvent, WebSocketLike } from "../types.ts";
import { messageText, socketError } from "./socket-events.ts";

/** What a vendor protocol reports back while parsing a server message. */
export interface SttSink {
  transcript(event: TranscriptEvent): void;
  /** The vendor accepted the session configuration (only for protocols with `waitForReady`). */
  ready(): void;
  /** A vendor error message: the session ends with this error. */
  fail(error: ProviderError): void;
}

export type WireMessage = string | Uint8Array;

/** One vendor's streaming speech-to-text protocol, as the reconnecting session drives it. */
export interface WsSttProtocol {
  readonly provider: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** Audio must wait until the vendor's "ready" message calls `sink.ready()`. */
  readonly waitForReady?: boolean;
  readonly keepAlive?: { message: string; everyMs: number };
  /** A new connection opened (first or reconnect): reset per-connection state, return the setup messages. */
  start(): WireMessage[];
  /** Caller audio (16 kHz) as the vendor's frame; null while the protocol gathers a larger frame. */
  audio(pcm: Int16Array): WireMessage | null;
  /** Messages that make the vendor finalize what it has heard (including any gathered audio). */
  finalize(): WireMessage[];
  /** Messages that end the stream gracefully before closing. */
  end(): WireMessage[];
  message(text: string, sink: SttSink): void;
  /** A close code the vendor uses for a definitive failure (bad key, bad request), or null for a plain drop. */
  closeError?(code: number, reason: string): ProviderError | null;
}

export interface WsSttTiming {
  /** Connect → ready. */
  openTimeoutMs: number;
  /** Graceful close → server closes. */
  closeTimeoutMs: number;
  /** A connection that lived this long earns a fresh reconnect. */
  stableMs: number;
  /** Audio kept while reconnecting, in bytes (10 s of 16 kHz audio). */
  maxPendingBytes: number;
}

const DEFAULT_TIMING: WsSttTiming = {
  openTimeoutMs: 10_000,
  closeTimeoutMs: 3_000,
  stableMs: 5_000,
  maxPendingBytes: 320_000,
};

type State = "connecting" | "ready" | "closing" | "closed";

/**
 * A streaming recognition session over one vendor WebSocket. It queues audio until the vendor is
 * ready, reconnects once when the socket drops unexpectedly mid-call (replaying the audio queued in
 * between), and turns vendor failures into ProviderErrors.
 */
export class WsSttSession implements SttSession {
  private readonly timing: WsSttTiming;
  private socket: WebSocketLike | null = null;
  private state: State = "connecting";
  private pending: WireMessage[] = [];
  private pendingBytes = 0;
  private connectedAt = 0;
  private reconnectsLeft = 1;
  private lastSentAt = 0;
  private keepAliveTimer: ReturnType<typeof setInterval> | undefined;
  private closeTimer: ReturnType<typeof setTimeout> | undefined;
  private resolveClosed: () => void = () => {};
  private readonly closed = new Promise<void>((resolve) => {
    this.resolveClosed = resolve;
  });

  constructor(
    private readonly protocol: WsSttProtocol,
    private readonly net: NetworkDeps,
    private readonly options: SttOpenOptions,
    timing: Partial<WsSttTiming> = {},
  ) {
    this.timing = { ...DEFAULT_TIMING, ...timing };
    options.signal?.addEventListener("abort", () => void this.close(), { once: true });
  }

  /** Opens the first connection; rejects with a ProviderError when the vendor refuses it. */
  async start(): Promise<void> {
    if (!this.net.openWebSocket) {
      throw new ProviderError(this.protocol.provider, "this network has no WebSocket client", false);
    }
    await this.connect();
  }

  sendAudio(pcm: Int16Array): void {
    if (this.state === "closing" || this.state === "closed") return;
    const frame = this.protocol.audio(pcm);
    if (frame !== null) this.send(frame);
  }

  finalize(): void {
    if (this.state === "closing" || this.state === "closed") return;
    for (const message of this.protocol.finalize()) this.send(message);
  }

  async close(): Promise<void> {
    if (this.state === "closed") return;
    if (this.state !== "closing") {
      const socket = this.socket;
      const wasReady = this.state === "ready";
      this.state = "closing";
      this.stopKeepAlive();
      const farewell = socket && wasReady ? this.protocol.end() : [];
      if (socket && farewell.length > 0) {
        // Let the vendor flush its last results and close the socket itself.
        for (const message of farewell) this.write(socket, message);
        this.closeTimer = setTimeout(() => this.finish(), this.timing.closeTimeoutMs);
      } else {
        this.finish();
      }
    }
    await this.closed;
  }

  private send(message: WireMessage): void {
    if (this.state === "ready" && this.socket) {
      this.write(this.socket, message);
      return;
    }
    // Not ready (connecting or reconnecting): keep the newest audio, dropping the oldest past the cap.
    this.pending.push(message);
    this.pendingBytes += message.length;
    while (this.pendingBytes > this.timing.maxPendingBytes && this.pending.length > 1) {
      this.pendingBytes -= this.pending.shift()?.length ?? 0;
    }
  }

  private write(socket: WebSocketLike, message: WireMessage): void {
    if (socket.readyState !== 1) return;
    socket.send(message);
    this.lastSentAt = Date.now();
  }

  private connect(): Promise<void> {
    const { provider, url, headers } = this.protocol;
    let socket: WebSocketLike;
    try {
      socket = (this.net.openWebSocket as NonNullable<NetworkDeps["openWebSocket"]>)(url, { headers });
    } catch (error) {
      // The network refused the address itself (SSRF policy, bad URL): trying again cannot help.
      const message = error instanceof Error ? error.message : String(error);
      return Promise.reject(new ProviderError(provider, message, false, undefined, { cause: error }));
    }
    this.socket = socket;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let ready = false;
      let lastError: ProviderError | null = null;
      const timer = setTimeout(() => {
        settle(new ProviderError(provider, `no answer within ${this.timing.openTimeoutMs} ms`, true));
      }, this.timing.openTimeoutMs);
      const settle = (error?: ProviderError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) {
          if (socket.readyState < 2) socket.close();
          reject(error);
        } else resolve();
      };
      const markReady = () => {
        if (settled || socket !== this.socket) return;
        ready = true;
        this.onReady(socket);
        settle();
      };
      const sink: SttSink = {
        transcript: (event) => this.options.onTranscript(event),
        ready: markReady,
        fail: (error) => (settled ? this.fail(error) : settle(error)),
      };
      socket.addEventListener("open", () => {
        for (const message of this.protocol.start()) socket.send(message);
        if (!this.protocol.waitForReady) markReady();
      });
      socket.addEventListener("message", (event) => {
        if (socket === this.socket) this.protocol.message(messageText(event.data), sink);
      });
      socket.addEventListener("error", (event) => {
        lastError = socketError(provider, event);
      });
      socket.addEventListener("close", ({ code, reason }) => {
        const vendorError = this.protocol.closeError?.(code, reason) ?? null;
        if (!settled) {
          const fallback = new ProviderError(provider, `connection closed during setup (code ${code})`, true);
          settle(vendorError ?? lastError ?? fallback);
          return;
        }
        if (ready && socket === this.socket) this.onDrop(code, vendorError);
      });
    });
  }

  private onReady(socket: WebSocketLike): void {
    if (this.state === "closing" || this.state === "closed") {
      socket.close(1000);
      return;
    }
    this.state = "ready";
    this.connectedAt = Date.now();
    const queued = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    for (const message of queued) this.write(socket, message);
    this.startKeepAlive(socket);
  }

  private onDrop(code: number, vendorError: ProviderError | null): void {
    this.stopKeepAlive();
    if (this.state === "closing" || this.state === "closed") {
      this.finish();
      return;
    }
    if (vendorError) {
      this.fail(vendorError);
      return;
    }
    if (Date.now() - this.connectedAt >= this.timing.stableMs) this.reconnectsLeft = 1;
    if (this.reconnectsLeft <= 0) {
      this.fail(new ProviderError(this.protocol.provider, `connection lost (code ${code}) after reconnecting`, true));
      return;
    }
    this.reconnectsLeft--;
    this.state = "connecting";
    this.connect().catch((error: unknown) => this.fail(asProviderError(this.protocol.provider, error)));
  }

  private fail(error: ProviderError): void {
    if (this.state === "closed") return;
    this.finish();
    this.options.onError(error);
  }

  private finish(): void {
    this.state = "closed";
    this.stopKeepAlive();
    clearTimeout(this.closeTimer);
    if (this.socket && this.socket.readyState < 2) this.socket.close(1000);
    this.resolveClosed();
  }

  private startKeepAlive(socket: WebSocketLike): void {
    const keepAlive = this.protocol.keepAlive;
    if (!keepAlive) return;
    this.stopKeepAlive();
    this.keepAliveTimer = setInterval(() => {
      if (Date.now() - this.lastSentAt >= keepAlive.everyMs) this.write(socket, keepAlive.message);
    }, keepAlive.everyMs);
    this.keepAliveTimer.unref?.();
  }

  private stopKeepAlive(): void {
    clearInterval(this.keepAliveTimer);
    this.keepAliveTimer = undefined;
  }
}

function asProviderError(provider: string, error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  return new ProviderError(provider, error instanceof Error ? error.message : String(error), true, undefined, {
    cause: error,
  });
}
