import { DeepgramSttConfig } from "@parley/contract";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { defaultNetwork } from "../../../testing/default-network.ts";
import { startFakeDeepgramListen } from "../../../testing/vendor-servers/fake-deepgram-listen.ts";
import { speak, TranscriptRecorder } from "../../../testing/vendor-servers/stt-harness.ts";
import {
  type Connection,
  type FakeWsServer,
  sendJson,
  startWsServer,
} from "../../../testing/vendor-servers/ws-server.ts";
import { DeepgramStt } from "../deepgram/stt.ts";
import { ProviderError } from "../provider-error.ts";
import type { WebSocketLike } from "../types.ts";
import { pcmBytes } from "./pcm-wire.ts";
import { parseJsonObject } from "./socket-events.ts";
import { type SttSink, type WsSttProtocol, WsSttSession } from "./ws-stt-session.ts";

/** A minimal vendor: binary audio in, `{"kind":"text"|"fatal"}` out. */
function protocol(baseUrl: string): WsSttProtocol {
  return {
    provider: "Test",
    url: `${baseUrl}/listen`,
    headers: { Authorization: "key" },
    start: () => [],
    audio: (pcm) => pcmBytes(pcm),
    finalize: () => [JSON.stringify({ kind: "finalize" })],
    end: () => [],
    message: (raw: string, sink: SttSink) => {
      const message = parseJsonObject(raw);
      if (message?.kind === "text") sink.transcript({ type: "final", text: String(message.text) });
      if (message?.kind === "fatal") sink.fail(new ProviderError("Test", "account suspended", false));
    },
  };
}

let server: FakeWsServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function open(onFrame: (connection: Connection) => void, signal?: AbortSignal) {
  server = await startWsServer({ onConnection: () => {}, onFrame: (connection) => onFrame(connection) });
  const recorder = new TranscriptRecorder();
  const session = new WsSttSession(protocol(server.baseUrl), defaultNetwork(), recorder.options({ signal }));
  await session.start();
  return { recorder, session };
}

describe("WsSttSession", () => {
  it("gives up with a retryable error when the reconnected socket drops again at once", async () => {
    const { recorder, session } = await open((connection) => connection.socket.terminate());
    await speak(session, 200, 5);
    await recorder.waitFor(() => recorder.errors.length > 0, "an error");
    expect(server?.connections).toHaveLength(2);
    expect(recorder.errors[0]).toMatchObject({ retryable: true });
    expect(String(recorder.errors[0])).toContain("connection lost");
    await session.close();
  });

  it("ends the session on a vendor error message without reconnecting", async () => {
    const { recorder, session } = await open((connection) => sendJson(connection.socket, { kind: "fatal" }));
    await speak(session, 40);
    await recorder.waitFor(() => recorder.errors.length > 0, "an error");
    expect(recorder.errors[0]).toMatchObject({ retryable: false });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server?.connections).toHaveLength(1);
    await session.close();
  });

  it("delivers transcripts and closes when the call's signal aborts", async () => {
    const controller = new AbortController();
    const { recorder, session } = await open(
      (connection) => sendJson(connection.socket, { kind: "text", text: "hi" }),
      controller.signal,
    );
    session.sendAudio(new Int16Array(320));
    await recorder.waitForEvent((e) => e.type === "final", "a final");
    controller.abort();
    await session.close();
    await recorder.waitFor(() => server?.connections[0]?.socket.readyState === 3, "the socket to close");
    expect(recorder.errors).toEqual([]);
  });
});

describe("WsSttSession on a bare ws client (as the server's safe network hands it over)", () => {
  const bareNet = {
    fetch: globalThis.fetch,
    openWebSocket: (url: string, options: { headers?: Record<string, string>; protocols?: string[] }) =>
      new WebSocket(url, options.protocols ?? [], { headers: options.headers }) as unknown as WebSocketLike,
  };

  it("transcribes and classifies a refused handshake by its status", async () => {
    server = await startFakeDeepgramListen({ apiKey: "k" });
    const recorder = new TranscriptRecorder();
    const stt = new DeepgramStt({
      apiKey: "k",
      config: DeepgramSttConfig.parse({}),
      net: bareNet,
      baseUrl: server.baseUrl,
    });
    const session = await stt.open(recorder.options());
    await speak(session, 200);
    session.finalize();
    await recorder.waitForEvent((e) => e.type === "utterance_end", "the utterance end");
    await session.close();
    expect(recorder.finals()).toEqual(["hello world"]);
    const refused = new DeepgramStt({
      apiKey: "bad",
      config: DeepgramSttConfig.parse({}),
      net: bareNet,
      baseUrl: server.baseUrl,
    });
    await expect(refused.open(recorder.options())).rejects.toMatchObject({ status: 401, retryable: false });
  });

  it("turns an address the network refuses into a non-retryable error", async () => {
    const net = {
      fetch: globalThis.fetch,
      openWebSocket: () => {
        throw new Error("Refusing to connect to 10.0.0.1: private address");
      },
    };
    const stt = new DeepgramStt({ apiKey: "k", config: DeepgramSttConfig.parse({}), net, baseUrl: "ws://10.0.0.1" });
    await expect(stt.open(new TranscriptRecorder().options())).rejects.toMatchObject({ retryable: false });
  });
});
