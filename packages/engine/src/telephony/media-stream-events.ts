import { isRecord, objectField, stringField } from "./form.ts";
import type { MulawStreamAudio } from "./mulaw-audio.ts";
import type { StreamEvent } from "./types.ts";

/**
 * The JSON media-stream messages two of the vendors spell alike — `connected`, `media` (base64
 * μ-law of the caller's track), `dtmf`, `mark`, `stop` — read once here; each vendor's codec reads
 * only its own `start`.
 */

/** One text frame as a JSON object; null for binary frames and anything unreadable. */
export function streamMessage(data: string | Buffer, isBinary: boolean): Record<string, unknown> | null {
  if (isBinary) return null;
  try {
    const message: unknown = JSON.parse(data.toString());
    return isRecord(message) ? message : null;
  } catch {
    return null;
  }
}

export function sharedStreamEvents(message: Record<string, unknown>, audio: MulawStreamAudio): StreamEvent[] {
  switch (message.event) {
    case "connected":
      return [{ type: "connected" }];
    case "media": {
      const media = objectField(message, "media");
      // Only the caller's side: any other track would be Parley's own voice coming back.
      const track = stringField(media, "track");
      if (track && track !== "inbound") return [];
      const payload = stringField(media, "payload");
      return payload ? [{ type: "audio", pcm: audio.decode(payload) }] : [];
    }
    case "dtmf": {
      const digit = stringField(objectField(message, "dtmf"), "digit");
      return digit ? [{ type: "dtmf", digit }] : [];
    }
    case "mark":
      return [{ type: "mark", name: stringField(objectField(message, "mark"), "name") }];
    case "stop":
      return [{ type: "stop" }];
    default:
      return [];
  }
}
