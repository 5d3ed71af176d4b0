/** G.711 μ-law (PCMU) and A-law (PCMA) at 8 kHz (ITU-T G.711). */

const BIAS = 0x84;
const CLIP = 32635;

function encodeMulawSample(sample: number): number {
  let s = sample;
  const sign = s < 0 ? 0x80 : 0;
  if (s < 0) s = -s;
  if (s > CLIP) s = CLIP;
  s += BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (s & mask) === 0 && exponent > 0; mask >>= 1) exponent -= 1;
  const mantissa = (s >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

function decodeMulawSample(byte: number): number {
  const u = ~byte & 0xff;
  const sign = u & 0x80;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + BIAS) << exponent) - BIAS;
  return sign ? -magnitude : magnitude;
}

function encodeAlawSample(sample: number): number {
  let s = sample >> 3;
  let mask = 0xd5;
  if (s < 0) {
    mask = 0x55;
    s = -s - 1;
  }
  const ends = [0x1f, 0x3f, 0x7f, 0xff, 0x1ff, 0x3ff, 0x7ff, 0xfff];
  let segment = ends.findIndex((end) => s <= end);
  if (segment < 0) segment = 8;
  if (segment >= 8) return 0x7f ^ mask;
  const value = segment < 2 ? (s >> 1) & 0x0f : (s >> segment) & 0x0f;
  return ((segment << 4) | value) ^ mask;
}

function decodeAlawSample(byte: number): number {
  const a = byte ^ 0x55;
  const segment = (a & 0x70) >> 4;
  let t = (a & 0x0f) << 4;
  if (segment === 0) t += 8;
  else if (segment === 1) t += 0x108;
  else t = (t + 0x108) << (segment - 1);
  return a & 0x80 ? t : -t;
}

const MULAW_DECODE = Int16Array.from({ length: 256 }, (_, i) => decodeMulawSample(i));
const ALAW_DECODE = Int16Array.from({ length: 256 }, (_, i) => decodeAlawSample(i));

export type G711Codec = "PCMU" | "PCMA";

/** Encodes 16-bit linear samples to G.711 bytes. */
export function g711Encode(codec: G711Codec, pcm: Int16Array): Buffer {
  const out = Buffer.alloc(pcm.length);
  const encode = codec === "PCMU" ? encodeMulawSample : encodeAlawSample;
  for (let i = 0; i < pcm.length; i += 1) out[i] = encode(pcm[i] ?? 0);
  return out;
}

/** Decodes G.711 bytes to 16-bit linear samples. */
export function g711Decode(codec: G711Codec, bytes: Uint8Array): Int16Array {
  const table = codec === "PCMU" ? MULAW_DECODE : ALAW_DECODE;
  const out = new Int16Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) out[i] = table[bytes[i] ?? 0] ?? 0;
  return out;
}
