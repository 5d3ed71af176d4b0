import { type FakeSttOptions, startFakeStt } from "./fake-stt.ts";
import { type FakeWsServer, header, sendJson } from "./ws-server.ts";

/**
 * A fake of OpenAI Realtime transcription (`/v1/realtime?intent=transcription`): bearer key,
 * `session.created` on connect, `session.updated` echoing a transcription `session.update`, base64
 * audio through `input_audio_buffer.append`, and on `input_audio_buffer.commit` the committed event,
 * two transcription deltas and the completed transcript. An empty commit gets the documented error.
 */
export function startFakeOpenAiRealtime(options: FakeSttOptions): Promise<FakeWsServer> {
  const buffers = new WeakMap<object, { bytes: number; items: number }>();
  const state = (connection: object) => {
    const current = buffers.get(connection) ?? { bytes: 0, items: 0 };
    buffers.set(connection, current);
    return current;
  };
  return startFakeStt(
    {
      keyOf: (upgrade) => header(upgrade, "authorization")?.replace(/^Bearer /, ""),
      onConnection: (connection) =>
        sendJson(connection.socket, { type: "session.created", session: { type: "transcription" } }),
      onText: (connection, message, heard) => {
        const event = message as { type?: string; audio?: string; session?: unknown };
        const current = state(connection);
        if (event.type === "session.update") {
          sendJson(connection.socket, { type: "session.updated", session: event.session });
        } else if (event.type === "input_audio_buffer.append") {
          const bytes = Buffer.from(event.audio ?? "", "base64").length;
          current.bytes += bytes;
          return bytes;
        } else if (event.type === "input_audio_buffer.commit") {
          if (current.bytes < 4_800) {
            const error = { type: "invalid_request_error", code: "input_audio_buffer_commit_empty", message: "empty" };
            sendJson(connection.socket, { type: "error", error });
            return undefined;
          }
          const itemId = `item_${++current.items}`;
          current.bytes = 0;
          const [first, ...rest] = heard.split(" ");
          sendJson(connection.socket, { type: "input_audio_buffer.committed", item_id: itemId });
          sendJson(connection.socket, {
            type: "conversation.item.input_audio_transcription.delta",
            item_id: itemId,
            delta: first,
          });
          sendJson(connection.socket, {
            type: "conversation.item.input_audio_transcription.delta",
            item_id: itemId,
            delta: ` ${rest.join(" ")}`,
          });
          sendJson(connection.socket, {
            type: "conversation.item.input_audio_transcription.completed",
            item_id: itemId,
            transcript: heard,
          });
        }
        return undefined;
      },
    },
    options,
  );
}
