import { randomInt } from "node:crypto";
import { createSocket, type Socket } from "node:dgram";
import { EventEmitter } from "node:events";
import { isIPv6 } from "node:net";
import { type G711Codec, g711Decode, g711Encode } from "./g711.ts";
import { parseDtmf, parseRtp, type RtpPacket, sequenceDelta, serializeDtmf, serializeRtp } from "./rtp-packet.ts";
import type { MediaAgreement } from "./sdp.ts";

/**
 * One call's RTP stream (RFC 3550): 20 ms G.711 frames sent on a wall-clock pacer, received through
 * a small reordering buffer, and RFC 4733 DTMF both ways.
 */

export const SAMPLE_RATE = 8000;
export const FRAME_SAMPLES = 160;
const FRAME_MS = 20;
/** Packets held for reordering before a gap is given up on (60 ms of audio). */
const JITTER_DEPTH = 3;
/** After a stall (a busy event loop) at most this many frames go out at once; the rest are dropped. */
const MAX_CATCH_UP = 5;
/** Audio queued beyond this (in samples) is dropped from the front: a producer far ahead of real time. */
const MAX_QUEUED = SAMPLE_RATE * 60;

export interface RtpSessionEvents {
  /** A frame of the caller's audio, 16-bit linear at 8 kHz. */
  audio: [pcm: Int16Array];
  /** A DTMF digit, once per RFC 4733 event. */
  dtmf: [digit: string];
}

export interface RtpPortRange {
  host: string;
  portMin: number;
  portMax: number;
}

/** Binds a UDP socket on a free even port in the range (odd ports are RTCP's by convention). */
async function bindInRange(range: RtpPortRange): Promise<Socket> {
  const evenMin = range.portMin + (range.portMin % 2);
  const slots = Math.floor((range.portMax - evenMin) / 2) + 1;
  if (slots <= 0) throw new Error("The RTP port range is empty");
  const first = randomInt(slots);
  const tries = Math.min(slots, 64);
  for (let i = 0; i < tries; i += 1) {
    const port = evenMin + ((first + i) % slots) * 2;
    const socket = createSocket({ type: isIPv6(range.host) ? "udp6" : "udp4" });
    const bound = await new Promise<boolean>((resolve) => {
      socket.once("error", () => resolve(false));
      socket.bind(port, range.host, () => resolve(true));
    });
    if (bound) return socket;
    socket.close();
  }
  throw new Error(`No free RTP port between ${range.portMin} and ${range.portMax}`);
}

export class RtpSession extends EventEmitter<RtpSessionEvents> {
  private agreement: MediaAgreement | null = null;
  private remote: { address: string; port: number } | null = null;
  private latched = false;
  private readonly ssrc = randomInt(0x7fffffff);
  private sequence = randomInt(0xffff);
  private timestamp = randomInt(0x7fffffff);
  private queue: Int16Array[] = [];
  private queued = 0;
  private dtmfOut: { payload: Buffer; marker: boolean }[] = [];
  /** The timestamp of the DTMF event being sent: set when its first packet goes out. */
  private dtmfTimestamp = 0;
  private pacer: NodeJS.Timeout | null = null;
  private pacerStart = 0;
  private framesSent = 0;
  private talkspurt = true;
  // Receive side.
  private expected: number | null = null;
  private remoteSsrc: number | null = null;
  private readonly held = new Map<number, RtpPacket>();
  private lastDtmfTimestamp: number | null = null;
  private closed = false;
  /** Packets received and sent, for tests and logs. */
  readonly stats = { received: 0, sent: 0, dtmfReceived: 0 };

  private constructor(private readonly socket: Socket) {
    super();
    socket.on("message", (data, info) => this.receive(data, info.address, info.port));
    socket.on("error", () => undefined);
  }

  static async open(range: RtpPortRange): Promise<RtpSession> {
    return new RtpSession(await bindInRange(range));
  }

  get port(): number {
    return this.socket.address().port;
  }

  get codec(): G711Codec | null {
    return this.agreement?.codec ?? null;
  }

  /** Sets the codec and the peer's address from the SDP exchange and starts the send clock. */
  configure(agreement: MediaAgreement): void {
    this.agreement = agreement;
    if (!this.latched) this.remote = { ...agreement.remote };
    if (!this.pacer) {
      this.pacerStart = performance.now();
      this.pacer = setInterval(() => this.tick(), FRAME_MS / 2);
      this.pacer.unref();
    }
  }

  /** Queues 8 kHz linear audio to be sent in 20 ms frames at real-time pace. */
  sendAudio(pcm: Int16Array): void {
    if (this.closed || pcm.length === 0) return;
    this.queue.push(pcm);
    this.queued += pcm.length;
    while (this.queued > MAX_QUEUED && this.queue.length > 1) this.queued -= this.queue.shift()?.length ?? 0;
  }

  /** Drops audio not yet sent (the caller interrupted). */
  clearAudio(): void {
    this.queue = [];
    this.queued = 0;
  }

  /** Samples queued and not yet sent. */
  get pendingSamples(): number {
    return this.queued;
  }

  /** Sends a digit as RFC 4733 events: one packet per 20 ms, then the end packet three times. */
  sendDtmf(digit: string, durationMs = 100): void {
    if (this.agreement?.dtmfPayloadType == null) return;
    const steps = Math.max(1, Math.round(durationMs / FRAME_MS));
    for (let i = 1; i <= steps; i += 1) {
      const end = i === steps;
      const payload = serializeDtmf({ digit, end, volume: 10, duration: i * FRAME_SAMPLES });
      for (let r = 0; r < (end ? 3 : 1); r += 1) this.dtmfOut.push({ payload, marker: i === 1 && r === 0 });
    }
  }

  private takeFrame(): Int16Array | null {
    if (this.queued === 0) return null;
    const frame = new Int16Array(FRAME_SAMPLES);
    let filled = 0;
    while (filled < FRAME_SAMPLES && this.queue.length > 0) {
      const head = this.queue[0] as Int16Array;
      const n = Math.min(FRAME_SAMPLES - filled, head.length);
      frame.set(head.subarray(0, n), filled);
      filled += n;
      if (n === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(n);
    }
    this.queued -= filled;
    return frame;
  }

  private tick(): void {
    const due = Math.floor((performance.now() - this.pacerStart) / FRAME_MS) - this.framesSent;
    if (due <= 0) return;
    if (due > MAX_CATCH_UP) this.framesSent += due - MAX_CATCH_UP;
    for (let i = 0; i < Math.min(due, MAX_CATCH_UP); i += 1) this.sendFrame();
  }

  private sendFrame(): void {
    this.framesSent += 1;
    const agreement = this.agreement;
    if (!agreement) return;
    // A DTMF event's packets all carry its start timestamp; the clock still moves 20 ms per packet.
    const dtmf = this.dtmfOut.shift();
    if (dtmf && agreement.dtmfPayloadType !== null) {
      if (dtmf.marker) this.dtmfTimestamp = this.timestamp;
      this.emitPacket(agreement.dtmfPayloadType, dtmf.payload, dtmf.marker, this.dtmfTimestamp);
      this.timestamp = (this.timestamp + FRAME_SAMPLES) >>> 0;
      return;
    }
    const frame = this.takeFrame();
    if (frame) {
      this.emitPacket(agreement.payloadType, g711Encode(agreement.codec, frame), this.talkspurt, this.timestamp);
      this.talkspurt = false;
    } else {
      // Silence is not sent (the peer plays comfort noise); the next audio starts a talkspurt.
      this.talkspurt = true;
    }
    this.timestamp = (this.timestamp + FRAME_SAMPLES) >>> 0;
  }

  private emitPacket(payloadType: number, payload: Buffer, marker: boolean, timestamp: number): void {
    const remote = this.remote;
    if (!remote || this.closed) return;
    const bytes = serializeRtp({ marker, payloadType, sequence: this.sequence, timestamp, ssrc: this.ssrc, payload });
    this.sequence = (this.sequence + 1) & 0xffff;
    this.stats.sent += 1;
    this.socket.send(bytes, remote.port, remote.address);
  }

  private receive(data: Buffer, address: string, port: number): void {
    const packet = parseRtp(data);
    const agreement = this.agreement;
    if (!packet || !agreement || this.closed) return;
    // Symmetric RTP: answer where the peer's media really comes from (NAT rewrites its SDP address);
    // after that, packets from anywhere else are not the peer's and are dropped (no injected audio
    // or digits).
    if (!this.latched) {
      this.latched = true;
      this.remote = { address, port };
    } else if (this.remote?.address !== address || this.remote.port !== port) {
      return;
    }
    this.stats.received += 1;
    if (packet.payloadType === agreement.dtmfPayloadType) {
      this.receiveDtmf(packet);
      return;
    }
    if (packet.payloadType !== agreement.payloadType) return;
    if (packet.ssrc !== this.remoteSsrc) {
      this.remoteSsrc = packet.ssrc;
      this.expected = null;
      this.held.clear();
    }
    this.expected ??= packet.sequence;
    if (sequenceDelta(this.expected, packet.sequence) < 0) return; // late or duplicate
    this.held.set(packet.sequence, packet);
    this.drain();
  }

  private drain(): void {
    for (;;) {
      const expected = this.expected;
      if (expected === null) return;
      const next = this.held.get(expected);
      if (next) {
        this.held.delete(expected);
        this.expected = (expected + 1) & 0xffff;
        this.emit("audio", g711Decode(this.agreement?.codec ?? "PCMU", next.payload));
        continue;
      }
      if (this.held.size < JITTER_DEPTH) return;
      // A packet is lost: skip to the oldest one held.
      let oldest = expected;
      let best = Number.POSITIVE_INFINITY;
      for (const seq of this.held.keys()) {
        const d = sequenceDelta(expected, seq);
        if (d < best) {
          best = d;
          oldest = seq;
        }
      }
      this.expected = oldest;
    }
  }

  private receiveDtmf(packet: RtpPacket): void {
    const event = parseDtmf(packet.payload);
    if (!event) return;
    // The end packet is repeated (RFC 4733 §2.5.1.4): one digit per event timestamp.
    if (!event.end || packet.timestamp === this.lastDtmfTimestamp) return;
    this.lastDtmfTimestamp = packet.timestamp;
    this.stats.dtmfReceived += 1;
    this.emit("dtmf", event.digit);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.pacer) clearInterval(this.pacer);
    this.pacer = null;
    this.removeAllListeners();
    this.socket.close();
  }
}
