import { ProviderError } from "../provider-error.ts";
import type { AudioChunk } from "../types.ts";

/**
 * Turns a byte stream of 16-bit little-endian mono PCM into samples. A byte left over at the end of
 * one network chunk is joined to the next one, and a WAV header at the start (some vendors add one
 * even when asked for raw audio) is skipped, its sample rate taking precedence.
 */
export class PcmDecoder {
  private carry: number | null = null;
  private head: Uint8Array | null = new Uint8Array(0);

  constructor(public sampleRate: number) {}

  /** The samples completed by `bytes` (possibly none). */
  push(bytes: Uint8Array): Int16Array {
    let data = bytes;
    if (this.head) {
      const joined = concatBytes(this.head, bytes);
      const body = this.skipHeader(joined);
      if (body === null) {
        this.head = joined;
        return new Int16Array(0);
      }
      this.head = null;
      data = body;
    }
    return this.samples(data);
  }

  /** Decodes a whole buffer, including a possible header, in one go. */
  static decode(bytes: Uint8Array, sampleRate: number): AudioChunk {
    const decoder = new PcmDecoder(sampleRate);
    const pcm = decoder.push(bytes);
    return { pcm, sampleRate: decoder.sampleRate };
  }

  private samples(data: Uint8Array): Int16Array {
    const bytes = this.carry === null ? data : concatBytes(Uint8Array.of(this.carry), data);
    const whole = bytes.length - (bytes.length % 2);
    this.carry = whole < bytes.length ? (bytes[whole] ?? 0) : null;
    const out = new Int16Array(whole / 2);
    const view = new DataView(bytes.buffer, bytes.byteOffset, whole);
    for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
    return out;
  }

  /**
   * The bytes after a WAV header, the bytes themselves when there is no header, or null while the
   * start of the stream is too short to tell.
   */
  private skipHeader(bytes: Uint8Array): Uint8Array | null {
    if (bytes.length < 4) return null;
    if (ascii(bytes, 0) !== "RIFF") return bytes;
    if (bytes.length < 12) return null;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let offset = 12;
    while (offset + 8 <= bytes.length) {
      const id = ascii(bytes, offset);
      const size = view.getUint32(offset + 4, true);
      if (id === "data") return bytes.subarray(offset + 8);
      if (id === "fmt " && offset + 16 <= bytes.length) this.sampleRate = view.getUint32(offset + 12, true);
      offset += 8 + size + (size % 2);
    }
    return null;
  }
}

function ascii(bytes: Uint8Array, offset: number): string {
  return String.fromCharCode(...bytes.subarray(offset, offset + 4));
}

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** How long a synthesis stream may stay silent before it counts as stalled. */
export const STREAM_IDLE_MS = 10_000;

/**
 * Yields the PCM of a streamed response body as it arrives. A stalled stream (no bytes for
 * `idleMs`) fails with a retryable error; leaving the loop early cancels the body.
 */
export async function* streamPcmBody(
  provider: string,
  response: Response,
  sampleRate: number,
  signal?: AbortSignal,
  idleMs = STREAM_IDLE_MS,
): AsyncGenerator<AudioChunk> {
  if (!response.body) throw new ProviderError(provider, "response has no body", true);
  const reader = response.body.getReader();
  const decoder = new PcmDecoder(sampleRate);
  try {
    for (;;) {
      const { done, value } = await readWithin(provider, reader, idleMs, signal);
      if (done) return;
      const pcm = decoder.push(value);
      if (pcm.length > 0) yield { pcm, sampleRate: decoder.sampleRate };
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** One read of a body stream, failing with a retryable error when nothing arrives in time. */
export async function readWithin<T>(
  provider: string,
  reader: ReadableStreamDefaultReader<T>,
  idleMs: number,
  signal?: AbortSignal,
): Promise<{ done: true; value?: undefined } | { done: false; value: T }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ProviderError(provider, `audio stream stalled for ${idleMs} ms`, true)),
      idleMs,
    );
    // The caller stopped the synthesis (barge-in): end the read at once, with the caller's reason.
    onAbort = () => reject(signal?.reason);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return (await Promise.race([reader.read(), stopped])) as { done: true } | { done: false; value: T };
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    if (error instanceof ProviderError) throw error;
    throw new ProviderError(provider, `audio stream broke: ${(error as Error).message ?? error}`, true, undefined, {
      cause: error,
    });
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    clearTimeout(timer);
  }
}
