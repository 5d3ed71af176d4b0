import { type FakeSttOptions, startFakeStt } from "./fake-stt.ts";
import type { FakeWsServer } from "./ws-server.ts";
import { header, sendJson } from "./ws-server.ts";

/** Audio (bytes) after which the fake has "heard" enough for a first interim result: 100 ms at 16 kHz. */
export const INTERIM_AFTER_BYTES = 3_200;

function results(transcript: string, flags: { is_final: boolean; speech_final: boolean; from_finalize?: boolean }) {
  return {
    type: "Results",
    channel_index: [0, 1],
    duration: 1,
    start: 0,
    ...flags,
    channel: { alternatives: [{ transcript, confidence: 0.98, words: [] }] },
    metadata: { request_id: "fake-request", model_info: { name: "fake", version: "1", arch: "fake" } },
  };
}

/**
 * A fake of Deepgram's live listen endpoint: `Authorization: Token <key>`, binary linear16 audio in,
 * SpeechStarted and interim `Results` while audio flows, a final `Results` with `from_finalize` on
 * `{"type":"Finalize"}`, and `Metadata` then a normal close on `{"type":"CloseStream"}`.
 */
export function startFakeDeepgramListen(options: FakeSttOptions): Promise<FakeWsServer> {
  // Per connection: audio bytes at the last Finalize, and whether this utterance got its interim yet.
  const utterance = new WeakMap<object, { startBytes: number; interimSent: boolean }>();
  return startFakeStt(
    {
      keyOf: (upgrade) => header(upgrade, "authorization")?.replace(/^Token /, ""),
      onAudio: (connection, heard) => {
        const state = utterance.get(connection) ?? { startBytes: 0, interimSent: false };
        utterance.set(connection, state);
        if (!state.interimSent && connection.audioBytes - state.startBytes >= INTERIM_AFTER_BYTES) {
          state.interimSent = true;
          if (connection.upgrade.url.searchParams.get("vad_events") === "true") {
            sendJson(connection.socket, { type: "SpeechStarted", channel: [0], timestamp: 0.1 });
          }
          sendJson(connection.socket, results(heard.split(" ")[0] ?? "", { is_final: false, speech_final: false }));
        }
      },
      onText: (connection, message, heard) => {
        const type = (message as { type?: string }).type;
        if (type === "Finalize") {
          utterance.set(connection, { startBytes: connection.audioBytes, interimSent: false });
          sendJson(connection.socket, results(heard, { is_final: true, speech_final: false, from_finalize: true }));
        } else if (type === "CloseStream") {
          sendJson(connection.socket, { type: "Metadata", request_id: "fake-request", duration: 1, channels: 1 });
          connection.socket.close(1000);
        }
        return undefined;
      },
    },
    options,
  );
}
