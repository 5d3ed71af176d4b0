import { type FakeSttOptions, startFakeStt } from "./fake-stt.ts";
import { type FakeWsServer, header, sendJson } from "./ws-server.ts";

/** Audio (bytes) after which the fake sends its first partial turn: 100 ms at 16 kHz. */
const PARTIAL_AFTER_BYTES = 3_200;

function turn(order: number, transcript: string, words: string[], flags: { end: boolean; formatted: boolean }) {
  return {
    type: "Turn",
    turn_order: order,
    turn_is_formatted: flags.formatted,
    end_of_turn: flags.end,
    transcript,
    end_of_turn_confidence: flags.end ? 0.9 : 0.01,
    words: words.map((text, i) => ({
      start: i * 100,
      end: i * 100 + 80,
      text,
      confidence: 0.9,
      word_is_final: flags.end,
    })),
    utterance: "",
  };
}

/**
 * A fake of AssemblyAI Universal Streaming v3: the raw key in `Authorization`, `Begin` on connect,
 * partial `Turn`s while binary audio flows, an end-of-turn `Turn` (raw, then formatted) on
 * `ForceEndpoint`, and `Termination` then a normal close on `Terminate`.
 */
export function startFakeAssemblyAiStreaming(options: FakeSttOptions): Promise<FakeWsServer> {
  const turns = new WeakMap<object, { order: number; startBytes: number; partialSent: boolean }>();
  const state = (connection: object) => {
    const current = turns.get(connection) ?? { order: 0, startBytes: 0, partialSent: false };
    turns.set(connection, current);
    return current;
  };
  return startFakeStt(
    {
      keyOf: (upgrade) => header(upgrade, "authorization"),
      onConnection: (connection) =>
        sendJson(connection.socket, { type: "Begin", id: "fake-session", expires_at: 1_900_000_000 }),
      onAudio: (connection, heard) => {
        const current = state(connection);
        if (!current.partialSent && connection.audioBytes - current.startBytes >= PARTIAL_AFTER_BYTES) {
          current.partialSent = true;
          const first = heard.split(" ")[0] ?? "";
          sendJson(connection.socket, turn(current.order, "", [first], { end: false, formatted: false }));
        }
      },
      onText: (connection, message, heard) => {
        const type = (message as { type?: string }).type;
        const current = state(connection);
        if (type === "ForceEndpoint") {
          const words = heard.split(" ");
          sendJson(connection.socket, turn(current.order, heard.toLowerCase(), words, { end: true, formatted: false }));
          sendJson(connection.socket, turn(current.order, heard, words, { end: true, formatted: true }));
          turns.set(connection, { order: current.order + 1, startBytes: connection.audioBytes, partialSent: false });
        } else if (type === "Terminate") {
          sendJson(connection.socket, { type: "Termination", audio_duration_seconds: 1, session_duration_seconds: 1 });
          connection.socket.close(1000);
        }
        return undefined;
      },
    },
    options,
  );
}
