import type { RealtimeServerMessage } from "@parley/contract";
import type { CallEvent, StreamCodec } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "ws";
import { lateFrameWatch, silenceFilter } from "../calls/realtime-messages.ts";
import type { CallTransport, LiveCall } from "../calls/runtime.ts";
import type { CallControl } from "./call-control.ts";

const OPEN = 1;
/** A mark every 10 frames (200 ms): fine enough to know what the caller heard, few enough messages. */
export const MARK_EVERY_FRAMES = 10;
const FRAME_MS = 20;
/**
 * A new stream (or one reconnected after DTMF) carries its first second whole, silence included:
 * the far end sees it live before the assistant next speaks.
 */
const WHOLE_FRAMES = 1000 / FRAME_MS;
/** After DTMF that replaces the call's markup, a stream that ends within this window is expected to come back. */
const RESUME_WINDOW_MS = 10_000;
/** How long a call waits for its stream to reconnect before it counts the caller gone. */
const RESUME_WAIT_MS = 10_000;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A call's transport over a vendor media stream: the engine's 16 kHz PCM goes out through the
 * vendor's codec, with a mark every few frames so the vendor reports how far playout has got; a
 * barge-in clears what the vendor still has queued; transfer and DTMF go through the vendor's REST
 * API; the end of the call hangs the phone up (unless it was transferred) and closes the stream.
 * A vendor that plays DTMF by replacing the call's markup reconnects the stream: the new socket is
 * attached in place of the old. The browser's JSON messages (transcripts, state) have no place on
 * a phone line and are dropped.
 */
export class MediaStreamTransport implements CallTransport {
  private framesSent = 0;
  /** Sound, the first silent frame after it (the resampler's tail of that sound) and a keepalive. */
  private readonly worthWriting = silenceFilter({ firstAfterSound: true });
  /** Until this frame count every frame is written, silence too (see sendAudio). */
  private wholeUntil = WHOLE_FRAMES;
  /** Reports frames handed over past their time to admission control. */
  private readonly paced = lateFrameWatch();
  /** A frame was written since the last mark: only then is a mark worth sending. */
  private writtenSinceMark = false;
  private marksSent = 0;
  private lastPlayedMark = 0;
  /** A transfer in flight: the stream is closed only once the vendor has taken the call. */
  private transferring: Promise<void> | null = null;
  private live: LiveCall | null = null;
  private resumeUntil = 0;
  private resumeTimer: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private socket: WebSocket,
    private codec: StreamCodec,
    private readonly calls: CallControl,
    private readonly log: FastifyBaseLogger,
    /** Called once when the call has ended and the transport is closed. */
    private readonly onClosed: () => void = () => {},
  ) {}

  /** The caller's line as the vendor's stream carries it (8000 for μ-law). */
  get lineRate(): number | undefined {
    return this.codec.lineRate;
  }

  setLive(live: LiveCall): void {
    this.live = live;
  }

  /** Caller audio from `from`; only the current stream's counts (an old one may still be draining). */
  pushAudio(from: WebSocket, pcm: Int16Array): void {
    if (from === this.socket) this.live?.pushAudio(pcm);
  }

  pushDtmf(from: WebSocket, digit: string): void {
    if (from === this.socket) this.live?.pushDtmf(digit);
  }

  /** The call's stream reconnected on a new socket (after its markup was replaced). */
  attach(socket: WebSocket, codec: StreamCodec): void {
    const old = this.socket;
    this.socket = socket;
    this.codec = codec;
    this.wholeUntil = this.framesSent + WHOLE_FRAMES;
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    this.resumeTimer = null;
    if (old.readyState === OPEN) old.close(1000, "Stream resumed");
  }

  /** The stream on `socket` ended (its stop message, or the socket closed). */
  streamEnded(socket: WebSocket): void {
    if (socket !== this.socket || this.ended || this.resumeTimer) return;
    if (Date.now() < this.resumeUntil) {
      this.resumeTimer = setTimeout(() => this.callerGone(), RESUME_WAIT_MS);
      this.resumeTimer.unref();
      return;
    }
    this.callerGone();
  }

  send(_message: RealtimeServerMessage): void {}

  sendAudio(pcm: Int16Array): void {
    // The codec sees every frame (its resampler and framing keep their timing), but the assistant's
    // silence is written only as a keepalive: the vendor plays nothing between media messages, and
    // a JSON message and a socket write per 20 ms of silence were most of a phone call's cost. The
    // first silent frame after speech still goes out, as it carries the resampler's tail of that
    // speech, and so does a stream's first second.
    this.paced();
    const write = this.worthWriting(pcm) || this.framesSent < this.wholeUntil;
    if (write) {
      const messages = this.codec.encodeAudio(pcm);
      for (const message of messages) this.write(message);
      if (messages.length > 0) this.writtenSinceMark = true;
    } else if (this.codec.skipAudio) {
      // Silence that is not sent needs no μ-law, base64 or JSON: only the codec's timing moves on.
      this.codec.skipAudio(pcm);
    } else {
      this.codec.encodeAudio(pcm);
    }
    this.framesSent += 1;
    if (this.framesSent % MARK_EVERY_FRAMES !== 0 || !this.writtenSinceMark) return;
    this.writtenSinceMark = false;
    const mark = this.codec.encodeMark(`parley-${this.marksSent + 1}`);
    if (mark === null) return;
    this.marksSent += 1;
    this.write(mark);
  }

  /** The vendor played out up to this mark. */
  onMark(name: string): void {
    const n = Number(name.replace(/^parley-/, ""));
    if (Number.isInteger(n) && n > this.lastPlayedMark) this.lastPlayedMark = n;
  }

  /** Assistant audio sent but not yet played at the vendor (to within one mark), in ms. */
  unplayedMs(): number {
    return Math.max(0, this.marksSent - this.lastPlayedMark) * MARK_EVERY_FRAMES * FRAME_MS;
  }

  control(event: CallEvent, report: (problem: string) => void): void {
    if (event.type === "interruption") {
      const clear = this.codec.encodeClear();
      if (clear !== null) this.write(clear);
      // Whatever was queued is dropped: nothing before this point will be reported played.
      this.lastPlayedMark = this.marksSent;
    } else if (event.type === "transfer") {
      this.transferring = this.calls
        .transfer(event.destination.number)
        .catch((error: unknown) => report(`The transfer to ${event.destination.number} failed: ${describe(error)}`));
    } else if (event.type === "dtmf_out") {
      const expectResume = () => {
        this.resumeUntil = Date.now() + RESUME_WINDOW_MS;
      };
      void this.calls
        .sendDtmf(event.digits, expectResume)
        .catch((error: unknown) => report(`Sending the digits ${event.digits} failed: ${describe(error)}`));
    }
  }

  close(code: number, reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.onClosed();
    if (this.resumeTimer) clearTimeout(this.resumeTimer);
    void this.closeLeg(code, reason);
  }

  /** The carrier says the call is over: whatever ends it here sends no hang-up request. */
  carrierEnded(): void {
    this.calls.markEnded();
  }

  /** The caller's side is gone: the call ends without a hang-up request. */
  private callerGone(): void {
    this.calls.markEnded();
    void this.live?.hangup("caller_hangup");
  }

  private async closeLeg(code: number, reason: string): Promise<void> {
    if (this.transferring) await this.transferring;
    await this.calls.hangup();
    if (this.socket.readyState === OPEN) this.socket.close(code, reason.slice(0, 120));
  }

  private write(message: string | Buffer): void {
    if (this.socket.readyState !== OPEN) return;
    this.socket.send(message, { binary: typeof message !== "string" }, (error) => {
      if (error) this.log.debug({ err: error }, "media stream send failed");
    });
  }
}
