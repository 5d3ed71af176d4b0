import WebSocket from "ws";

export interface ServerMessage {
  type: string;
  [key: string]: unknown;
}

/** A caller on the realtime socket, as the browser would be: JSON messages plus PCM frames. */
export class RealtimeClient {
  readonly messages: ServerMessage[] = [];
  readonly audio: Buffer[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly waiters = new Set<() => void>();

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data, isBinary) => {
      const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      if (isBinary) this.audio.push(bytes);
      else this.messages.push(JSON.parse(bytes.toString("utf8")) as ServerMessage);
      for (const wake of this.waiters) wake();
    });
    this.closed = new Promise((resolve) => {
      socket.on("close", (code, reason) => {
        resolve({ code, reason: reason.toString("utf8") });
        for (const wake of this.waiters) wake();
      });
    });
  }

  /** Opens `ws://…/api/v1/realtime?token=…`; resolves once open (or closed right away). */
  static async connect(url: string, options: { origin?: string } = {}): Promise<RealtimeClient> {
    const socket = new WebSocket(url, options.origin ? { headers: { origin: options.origin } } : {});
    const client = new RealtimeClient(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return client;
  }

  send(message: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(message));
  }

  sendPcm(samples: Int16Array): void {
    this.socket.send(Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength));
  }

  /** Waits until `predicate` holds over what has arrived, or fails after `timeoutMs`. */
  async until(predicate: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    if (predicate()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages.slice(-8))}`));
      }, timeoutMs);
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
    });
  }

  waitFor(type: string, match: (m: ServerMessage) => boolean = () => true, timeoutMs?: number) {
    return this.until(() => this.messages.some((m) => m.type === type && match(m)), type, timeoutMs).then(
      () => this.messages.find((m) => m.type === type && match(m)) as ServerMessage,
    );
  }

  /** Largest absolute sample of the assistant audio received so far. */
  audioPeak(): number {
    let peak = 0;
    for (const frame of this.audio) {
      for (let i = 0; i + 1 < frame.length; i += 2) peak = Math.max(peak, Math.abs(frame.readInt16LE(i)));
    }
    return peak;
  }

  close(): void {
    this.socket.close(1000);
  }
}
