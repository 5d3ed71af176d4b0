import { mulawDecode, mulawEncode } from "../../src/audio/mulaw.ts";
import { Resampler } from "../../src/audio/resample.ts";
import { isRecord } from "./double-server.ts";

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
