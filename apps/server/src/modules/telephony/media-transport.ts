import type { RealtimeServerMessage } from "@parley/contract";
import type { CallEvent, StreamCodec } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import type { WebSocket } from "ws";
import type { CallTransport } from "../calls/runtime.ts";
import type { CallControl } from "./call-control.ts";

const OPEN = 1;
/** A mark every 10 frames (200 ms): fine enough to know what the caller heard, few enough messages. */
export const MARK_EVERY_FRAMES = 10;
const FRAME_MS = 20;

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A call's transport over a vendor media stream: the engine's 16 kHz PCM goes out through the
 * vendor's codec, with a mark every few frames so the vendor reports how far playout has got; a
 * barge-in clears what the vendor still has queued; transfer and DTMF go through the vendor's REST
 * API; the end of the call hangs the phone up (unless it was transferred) and closes the stream.
 * The browser's JSON messages (transcripts, state) have no place on a phone line and are dropped.
 */
export class MediaStreamTransport implements CallTransport {
  private framesSent = 0;
  private marksSent = 0;
  private lastPlayedMark = 0;
  /** A transfer in flight: the stream is closed only once the vendor has taken the call. */
  private transferring: Promise<void> | null = null;

  constructor(
    private readonly socket: WebSocket,
    private readonly codec: StreamCodec,
    private readonly calls: CallControl,
    private readonly log: FastifyBaseLogger,
  ) {}

  send(_message: RealtimeServerMessage): void {}

  sendAudio(pcm: Int16Array): void {
    for (const message of this.codec.encodeAudio(pcm)) this.write(message);
    this.framesSent += 1;
    if (this.framesSent % MARK_EVERY_FRAMES !== 0) return;
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
      void this.calls
        .sendDtmf(event.digits)
        .catch((error: unknown) => report(`Sending the digits ${event.digits} failed: ${describe(error)}`));
    }
  }

  /** The caller's side is gone (stop event, socket closed): the call ends without a hang-up request. */
  callerGone(): void {
    this.calls.markEnded();
  }

  close(code: number, reason: string): void {
    void this.closeLeg(code, reason);
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
