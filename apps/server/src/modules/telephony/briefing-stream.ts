import { randomBytes } from "node:crypto";
import type { StreamCodec, StreamEvent } from "@parley/engine";
import type { WebSocket } from "ws";

const OPEN = 1;
/** Parley's engine frames: 20 ms of 16 kHz PCM. */
const FRAME_SAMPLES = 320;
const END_MARK = "parley-briefing-end";
/** Beyond the briefing's own length, how long playout may lag before Parley stops waiting for it. */
const PLAYOUT_SLACK_MS = 10_000;

/** The parameter of a briefing leg's stream start: an unguessable id of the transfer waiting for it. */
export const BRIEFING_PARAMETER = "briefing";

/**
 * The human's side of a warm transfer while the assistant briefs them: a vendor media stream that
 * only carries Parley's audio out (what the human says is not listened to) and reports playout by
 * marks, so the human is connected to the caller only once the briefing has been heard.
 */
export class BriefingStream {
  private ended = false;
  private readonly endWaiters = new Set<() => void>();
  private readonly markWaiters = new Map<string, () => void>();

  constructor(
    private readonly socket: WebSocket,
    private readonly codec: StreamCodec,
    /** The human's call, as the stream's start message names it. */
    readonly providerCallId: string,
  ) {}

  /** A decoded message of this stream (after its start). */
  onEvent(event: StreamEvent): void {
    if (event.type === "mark") {
      this.markWaiters.get(event.name)?.();
      this.markWaiters.delete(event.name);
    } else if (event.type === "stop") {
      this.onEnded();
    }
  }

  /** The stream stopped or its socket closed. */
  onEnded(): void {
    if (this.ended) return;
    this.ended = true;
    for (const wake of this.endWaiters) wake();
    for (const wake of this.markWaiters.values()) wake();
    this.endWaiters.clear();
    this.markWaiters.clear();
  }

  get isOpen(): boolean {
    return !this.ended && this.socket.readyState === OPEN;
  }

  /**
   * Sends the audio in 20 ms frames, then a mark, and resolves once the vendor has played up to it
   * (or the stream ended, or playout took far longer than the audio). Vendors without marks are
   * waited for by the audio's length. True when the briefing was played out on an open stream.
   */
  async play(pcm: Int16Array): Promise<boolean> {
    if (!this.isOpen) return false;
    for (let start = 0; start < pcm.length; start += FRAME_SAMPLES) {
      for (const message of this.codec.encodeAudio(pcm.subarray(start, start + FRAME_SAMPLES))) this.write(message);
    }
    const audioMs = Math.ceil(pcm.length / 16);
    const mark = this.codec.encodeMark(END_MARK);
    const played = new Promise<void>((resolve) => {
      if (mark === null) return;
      this.markWaiters.set(END_MARK, resolve);
    });
    if (mark !== null) this.write(mark);
    const waitMs = mark === null ? audioMs : audioMs + PLAYOUT_SLACK_MS;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
    });
    await Promise.race([played, timeout]);
    clearTimeout(timer);
    return !this.ended;
  }

  close(): void {
    this.onEnded();
    if (this.socket.readyState === OPEN) this.socket.close(1000, "Briefing done");
  }

  private write(message: string | Buffer): void {
    if (this.socket.readyState !== OPEN) return;
    this.socket.send(message, { binary: typeof message !== "string" });
  }
}

/** Transfers waiting for their human's stream, by briefing id (this process only). */
const waiting = new Map<string, (stream: BriefingStream) => void>();

/** A briefing leg's stream that has not started yet: its id for the markup and a promise of the stream. */
export interface ExpectedBriefing {
  id: string;
  stream: Promise<BriefingStream>;
  /** Forget the id (the human never answered): a late stream is refused. */
  cancel(): void;
}

export function expectBriefingStream(): ExpectedBriefing {
  const id = randomBytes(24).toString("base64url");
  const stream = new Promise<BriefingStream>((resolve) => waiting.set(id, resolve));
  return { id, stream, cancel: () => waiting.delete(id) };
}

/**
 * For the stream route: when a start message carries a briefing id a transfer waits for, the
 * socket becomes that transfer's briefing stream (hand its later events to `onEvent`); null for
 * every other stream, which the route admits as usual (by its grant).
 */
export function claimBriefingStream(
  socket: WebSocket,
  codec: StreamCodec,
  start: Extract<StreamEvent, { type: "start" }>,
): BriefingStream | null {
  const id = start.parameters[BRIEFING_PARAMETER];
  if (!id) return null;
  const resolve = waiting.get(id);
  if (!resolve) return null;
  waiting.delete(id);
  const stream = new BriefingStream(socket, codec, start.providerCallId);
  resolve(stream);
  return stream;
}
