import { mulawDecode, mulawEncode } from "../../src/audio/mulaw.ts";
import { Resampler } from "../../src/audio/resample.ts";
import { isRecord } from "./double-server.ts";
import type { StreamCommand } from "./phone-leg.ts";

/**
 * The audio half of the JSON media streams (Twilio, Telnyx, Plivo): 8 kHz μ-law, base64 in a JSON
 * message. Caller audio is downsampled from the leg's 16 kHz; what Parley sends is decoded and
 * upsampled back to 16 kHz for the recordings the tests check.
 */
export class MulawCodec {
  private readonly down = new Resampler(16_000, 8_000);
  private readonly up = new Resampler(8_000, 16_000);

  /** A 16 kHz frame as base64 μ-law at 8 kHz. */
  encode(frame: Int16Array): string {
    return Buffer.from(mulawEncode(this.down.process(frame))).toString("base64");
  }

  /** Base64 μ-law at 8 kHz as 16 kHz PCM; null when the payload is not base64. */
  decode(payload: string): Int16Array | null {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) return null;
    const bytes = Buffer.from(payload, "base64");
    return this.up.process(mulawDecode(bytes));
  }
}

/** Parses a JSON text message into an object; null when it is not one. */
export function parseJsonMessage(data: Buffer, isBinary: boolean): Record<string, unknown> | null {
  if (isBinary) return null;
  try {
    const value: unknown = JSON.parse(data.toString("utf8"));
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** A nested object field of a message, or null. */
export function objectField(message: Record<string, unknown>, key: string): Record<string, unknown> | null {
  const value = message[key];
  return isRecord(value) ? value : null;
}

/**
 * The counters and the commands of the TwiML-style media streams (Twilio's, and Telnyx's, which
 * follows it): numbered messages, caller audio as numbered 20 ms μ-law chunks, and `media`, `mark`
 * and `clear` back from Parley.
 */
export class MulawMediaStream {
  private sequence = 0;
  private chunk = 0;
  private readonly codec = new MulawCodec();

  /** The next message's sequence number ("1" first). */
  next(): string {
    this.sequence++;
    return String(this.sequence);
  }

  /** A caller frame as the `media` object of a media message. */
  media(frame: Int16Array): Record<string, string> {
    this.chunk++;
    return {
      track: "inbound",
      chunk: String(this.chunk),
      timestamp: String((this.chunk - 1) * 20),
      payload: this.codec.encode(frame),
    };
  }

  /** What a message from Parley asks: play audio, report a mark once played, or clear the queue. */
  commands(message: Record<string, unknown>, raw: string): StreamCommand[] {
    switch (message.event) {
      case "media": {
        const payload = objectField(message, "media")?.payload;
        const pcm = typeof payload === "string" ? this.codec.decode(payload) : null;
        return pcm ? [{ type: "audio", pcm }] : [{ type: "invalid", reason: "media without a base64 payload", raw }];
      }
      case "mark": {
        const name = objectField(message, "mark")?.name;
        return typeof name === "string"
          ? [{ type: "mark", name }]
          : [{ type: "invalid", reason: "mark without a name", raw }];
      }
      case "clear":
        return [{ type: "clear" }];
      default:
        return [{ type: "invalid", reason: `unknown event ${String(message.event)}`, raw }];
    }
  }
}
