import { type Connection, type FakeWsServer, startWsServer, type Upgrade } from "./ws-server.ts";

/** Behaviour every fake streaming recogniser shares. */
export interface FakeSttOptions {
  /** Handshakes without this key are refused with 401. */
  apiKey: string;
  /** What the fake "hears" in every utterance. */
  transcript?: string;
  /** Refuse every handshake with this status (429, 500, …) instead of accepting it. */
  handshakeStatus?: number;
  /** Terminate the first connection (no close frame) once it has received this many audio bytes. */
  dropFirstAfterBytes?: number;
}

/** How a vendor fake reads its key from the handshake and answers frames. */
export interface FakeSttVendor {
  keyOf(upgrade: Upgrade): string | undefined;
  onConnection?(connection: Connection, heard: string): void;
  /** Binary audio arrived (`connection.audioBytes` already counts it). */
  onAudio?(connection: Connection, heard: string): void;
  /** A JSON (or text) control message arrived; returns the audio bytes it carried, if any. */
  onText(connection: Connection, message: unknown, heard: string): number | undefined;
}

/** Starts a fake of one vendor's streaming recogniser on 127.0.0.1:0. */
export async function startFakeStt(vendor: FakeSttVendor, options: FakeSttOptions): Promise<FakeWsServer> {
  const heard = options.transcript ?? "hello world";
  const audio = new Map<Connection, number>();
  const server: FakeWsServer = await startWsServer({
    refuse: (upgrade) => options.handshakeStatus ?? (vendor.keyOf(upgrade) === options.apiKey ? null : 401),
    onConnection: (connection) => vendor.onConnection?.(connection, heard),
    onFrame: (connection, frame) => {
      let bytes = frame.bytes?.length ?? 0;
      if (frame.bytes) vendor.onAudio?.(connection, heard);
      else bytes = vendor.onText(connection, connection.texts.at(-1), heard) ?? 0;
      const total = (audio.get(connection) ?? 0) + bytes;
      audio.set(connection, total);
      const limit = options.dropFirstAfterBytes;
      if (limit !== undefined && connection === server.connections[0] && total >= limit) connection.socket.terminate();
    },
  });
  return server;
}
