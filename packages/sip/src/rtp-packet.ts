/** RTP packets (RFC 3550 §5.1) and RFC 4733 telephone-event payloads. */

export interface RtpPacket {
  marker: boolean;
  payloadType: number;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

export function parseRtp(data: Buffer): RtpPacket | null {
  if (data.length < 12) return null;
  const first = data[0] ?? 0;
  if (first >> 6 !== 2) return null;
  const csrcCount = first & 0x0f;
  const hasExtension = (first & 0x10) !== 0;
  const hasPadding = (first & 0x20) !== 0;
  let offset = 12 + csrcCount * 4;
  if (hasExtension) {
    if (data.length < offset + 4) return null;
    offset += 4 + data.readUInt16BE(offset + 2) * 4;
  }
  let end = data.length;
  if (hasPadding) end -= data[data.length - 1] ?? 0;
  if (offset > end) return null;
  const second = data[1] ?? 0;
  return {
    marker: (second & 0x80) !== 0,
    payloadType: second & 0x7f,
    sequence: data.readUInt16BE(2),
    timestamp: data.readUInt32BE(4),
    ssrc: data.readUInt32BE(8),
    payload: data.subarray(offset, end),
  };
}

export function serializeRtp(packet: RtpPacket): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = (packet.marker ? 0x80 : 0) | (packet.payloadType & 0x7f);
  header.writeUInt16BE(packet.sequence & 0xffff, 2);
  header.writeUInt32BE(packet.timestamp >>> 0, 4);
  header.writeUInt32BE(packet.ssrc >>> 0, 8);
  return Buffer.concat([header, packet.payload]);
}

/** RFC 4733 §3.2 events 0–15: the DTMF digits. */
export const DTMF_EVENTS = "0123456789*#ABCD";

export interface DtmfEvent {
  digit: string;
  end: boolean;
  volume: number;
  /** In timestamp units (samples at 8 kHz). */
  duration: number;
}

export function parseDtmf(payload: Buffer): DtmfEvent | null {
  if (payload.length < 4) return null;
  const digit = DTMF_EVENTS[payload[0] ?? 255];
  if (digit === undefined) return null;
  const flags = payload[1] ?? 0;
  return { digit, end: (flags & 0x80) !== 0, volume: flags & 0x3f, duration: payload.readUInt16BE(2) };
}

export function serializeDtmf(event: DtmfEvent): Buffer {
  const payload = Buffer.alloc(4);
  payload[0] = DTMF_EVENTS.indexOf(event.digit);
  payload[1] = (event.end ? 0x80 : 0) | (event.volume & 0x3f);
  payload.writeUInt16BE(Math.min(0xffff, event.duration), 2);
  return payload;
}

/** Sequence number distance a→b modulo 2^16, in −32768..32767. */
export function sequenceDelta(from: number, to: number): number {
  const d = (to - from) & 0xffff;
  return d >= 0x8000 ? d - 0x10000 : d;
}
