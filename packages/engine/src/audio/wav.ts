/** RIFF/WAVE files of 16-bit PCM, mono or multi-channel (interleaved). */

export interface WavAudio {
  sampleRate: number;
  /** One array per channel, all the same length. */
  channels: Int16Array[];
}

/** Bytes of the header `wavHeader` writes; the samples follow it. */
export const WAV_HEADER_BYTES = 44;

/** The 44-byte header of a 16-bit PCM WAV holding `dataBytes` of interleaved samples. */
export function wavHeader(sampleRate: number, count: number, dataBytes: number): Buffer {
  const out = Buffer.alloc(WAV_HEADER_BYTES);
  writeHeader(out, sampleRate, count, dataBytes);
  return out;
}

/** Writes a 16-bit PCM WAV; shorter channels are padded with silence. */
export function encodeWav(audio: WavAudio): Buffer {
  const { sampleRate, channels } = audio;
  const count = channels.length;
  if (count < 1) throw new Error("A WAV file needs at least one channel");
  const frames = Math.max(...channels.map((c) => c.length));
  const dataBytes = frames * count * 2;
  const out = Buffer.alloc(44 + dataBytes);
  writeHeader(out, sampleRate, count, dataBytes);
  let offset = 44;
  for (let i = 0; i < frames; i++) {
    for (const channel of channels) {
      out.writeInt16LE(channel[i] ?? 0, offset);
      offset += 2;
    }
  }
  return out;
}

function writeHeader(out: Buffer, sampleRate: number, count: number, dataBytes: number): void {
  out.write("RIFF", 0, "ascii");
  out.writeUInt32LE(36 + dataBytes, 4);
  out.write("WAVE", 8, "ascii");
  out.write("fmt ", 12, "ascii");
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(count, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * count * 2, 28);
  out.writeUInt16LE(count * 2, 32);
  out.writeUInt16LE(16, 34);
  out.write("data", 36, "ascii");
  out.writeUInt32LE(dataBytes, 40);
}

/** Reads a 16-bit PCM WAV (plain or WAVE_FORMAT_EXTENSIBLE), skipping unknown chunks. */
export function decodeWav(bytes: Uint8Array): WavAudio {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 12 || buf.toString("ascii", 0, 4) !== "RIFF" || buf.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("Not a WAV file");
  }
  let format: { count: number; sampleRate: number; bits: number; tag: number } | null = null;
  let offset = 12;
  while (offset + 8 <= buf.length) {
    const id = buf.toString("ascii", offset, offset + 4);
    // Streaming writers leave the size at 0 or 0xffffffff; read to the end then.
    const declared = buf.readUInt32LE(offset + 4);
    const size = declared === 0 || declared === 0xffffffff ? buf.length - offset - 8 : declared;
    const body = offset + 8;
    if (id === "fmt ") {
      format = {
        tag: buf.readUInt16LE(body),
        count: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        bits: buf.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      if (!format) throw new Error("WAV data chunk before its format chunk");
      return readSamples(buf.subarray(body, Math.min(buf.length, body + size)), format);
    }
    offset = body + size + (size % 2);
  }
  throw new Error("WAV file has no data chunk");
}

function readSamples(data: Buffer, format: { count: number; sampleRate: number; bits: number; tag: number }): WavAudio {
  if ((format.tag !== 1 && format.tag !== 0xfffe) || format.bits !== 16) {
    throw new Error(`Unsupported WAV encoding (format ${format.tag}, ${format.bits} bits); 16-bit PCM expected`);
  }
  const frames = Math.floor(data.length / (2 * format.count));
  const channels = Array.from({ length: format.count }, () => new Int16Array(frames));
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < format.count; c++) {
      (channels[c] as Int16Array)[i] = data.readInt16LE((i * format.count + c) * 2);
    }
  }
  return { sampleRate: format.sampleRate, channels };
}
