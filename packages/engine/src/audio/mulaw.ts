/** G.711 μ-law, the 8-bit telephone encoding (telephony media streams, most SIP trunks). */

const BIAS = 0x84;
const CLIP = 32635;

const decodeTable = new Int16Array(256);
for (let i = 0; i < 256; i++) {
  const u = ~i & 0xff;
  const sign = u & 0x80;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + BIAS) << exponent) - BIAS;
  decodeTable[i] = sign ? -magnitude : magnitude;
}

function encodeSample(sample: number): number {
  const sign = sample < 0 ? 0x80 : 0;
  let magnitude = Math.min(CLIP, Math.abs(sample)) + BIAS;
  let exponent = 7;
  for (let mask = 0x4000; (magnitude & mask) === 0 && exponent > 0; mask >>= 1) exponent--;
  const mantissa = (magnitude >> (exponent + 3)) & 0x0f;
  magnitude = ~(sign | (exponent << 4) | mantissa) & 0xff;
  return magnitude;
}

/** Encodes 16-bit PCM as μ-law bytes. */
export function mulawEncode(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = encodeSample(pcm[i] as number);
  return out;
}

/** Decodes μ-law bytes to 16-bit PCM. */
export function mulawDecode(bytes: Uint8Array): Int16Array {
  return mulawDecodeInto(bytes, new Int16Array(bytes.length));
}

/** Decodes μ-law bytes into `out` (at least as long), for a caller that reuses its arrays. */
export function mulawDecodeInto(bytes: Uint8Array, out: Int16Array): Int16Array {
  for (let i = 0; i < bytes.length; i++) out[i] = decodeTable[bytes[i] as number] as number;
  return out;
}
