import { type FakeSttOptions, startFakeStt } from "./fake-stt.ts";
import { type FakeWsServer, header, sendJson } from "./ws-server.ts";

/** Audio (bytes) after which the fake sends its first partial: 100 ms at 16 kHz. */
const PARTIAL_AFTER_BYTES = 3_200;

const transcriptMessage = (message: string, transcript: string) => ({
  message,
  format: "2.9",
  metadata: { transcript, start_time: 0, end_time: 1 },
  results: [],
});

/**
 * A fake of the Speechmatics real-time API: `Authorization: Bearer <key>`, `StartRecognition` answered
 * with `RecognitionStarted`, `AudioAdded` for every binary frame, `AddPartialTranscript` while audio
 * flows, `AddTranscript` + `EndOfUtterance` on `ForceEndOfUtterance`, and `EndOfTranscript` then a
 * close on `EndOfStream`. Audio sent before `StartRecognition` is answered with an Error, as the real
 * service does.
 */
export function startFakeSpeechmaticsRt(options: FakeSttOptions): Promise<FakeWsServer> {
  const utterances = new WeakMap<object, { started: boolean; seq: number; startBytes: number; partial: boolean }>();
  const state = (connection: object) => {
    const current = utterances.get(connection) ?? { started: false, seq: 0, startBytes: 0, partial: false };
    utterances.set(connection, current);
    return current;
  };
  return startFakeStt(
    {
      keyOf: (upgrade) => header(upgrade, "authorization")?.replace(/^Bearer /, ""),
      onAudio: (connection, heard) => {
        const current = state(connection);
        if (!current.started) {
          sendJson(connection.socket, { message: "Error", type: "protocol_error", reason: "audio before start" });
          return;
        }
        current.seq++;
        sendJson(connection.socket, { message: "AudioAdded", seq_no: current.seq });
        if (!current.partial && connection.audioBytes - current.startBytes >= PARTIAL_AFTER_BYTES) {
          current.partial = true;
          sendJson(connection.socket, transcriptMessage("AddPartialTranscript", heard.split(" ")[0] ?? ""));
        }
      },
      onText: (connection, message, heard) => {
        const current = state(connection);
        const name = (message as { message?: string }).message;
        if (name === "StartRecognition") {
          current.started = true;
          sendJson(connection.socket, { message: "RecognitionStarted", id: "fake-session" });
        } else if (name === "ForceEndOfUtterance") {
          sendJson(connection.socket, transcriptMessage("AddTranscript", `${heard} `));
          sendJson(connection.socket, { message: "EndOfUtterance", metadata: { start_time: 1, end_time: 1 } });
          Object.assign(current, { startBytes: connection.audioBytes, partial: false });
        } else if (name === "EndOfStream") {
          sendJson(connection.socket, { message: "EndOfTranscript" });
          connection.socket.close(1000);
        }
        return undefined;
      },
    },
    options,
  );
}
