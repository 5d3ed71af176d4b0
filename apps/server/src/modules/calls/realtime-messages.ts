import type { RealtimeServerMessage } from "@parley/contract";
import type { CallEvent } from "@parley/engine";
import { noteAudioDeadlineMiss } from "../../lib/admission-probe.ts";
import { toTurnMetricsEntry } from "./call-timeline.ts";

/**
 * What the caller's socket hears of an engine event; null for the ones that stay on the server
 * (fallbacks, transfers, keypad echoes, full tool results).
 */
export function toServerMessage(event: CallEvent): RealtimeServerMessage | null {
  switch (event.type) {
    case "state":
      return { type: "state", state: event.state };
    case "transcript":
      return { type: "transcript", role: event.role, text: event.text, final: event.final, at_ms: event.atMs };
    case "tool_call":
      return { type: "tool_call", name: event.name, ok: event.ok };
    case "turn_metrics":
      return { type: "turn_metrics", ...toTurnMetricsEntry(event.metrics) };
    case "interruption":
      return { type: "interruption", heard_text: event.heardText };
    case "error":
      return { type: "error", message: event.message };
    case "fault":
      return { type: "fault", stage: event.stage, provider: event.provider, kind: event.kind, action: event.action };
    case "handoff":
      return { type: "handoff", from: event.from, to: event.to, reason: event.reason };
    case "end":
      return { type: "end", reason: event.reason };
    default:
      return null;
  }
}

/**
 * Caller audio off the wire: 16-bit little-endian PCM, copied so the samples are aligned (a
 * message may start at an odd offset of the socket's buffer). A byte copy, not a read per sample:
 * this runs 50 times a second per call, and Node runs little-endian.
 */
export function pcmFromBytes(bytes: Buffer): Int16Array {
  const even = bytes.byteLength - (bytes.byteLength % 2);
  const pcm = new Int16Array(even / 2);
  new Uint8Array(pcm.buffer).set(bytes.subarray(0, even));
  return pcm;
}

/** Assistant audio onto the wire (the samples' own bytes; Node runs little-endian). */
export function bytesFromPcm(pcm: Int16Array): Buffer {
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
}

/**
 * A frame of exact zeros: what the engine's playout sends while the assistant is quiet (no
 * ambience). The caller's player schedules each frame after the last and plays nothing between
 * frames, so such frames need no socket write — most of a call's outgoing frames are these.
 */
export function isDigitalSilence(pcm: Int16Array): boolean {
  for (let i = 0; i < pcm.length; i += 1) if (pcm[i] !== 0) return false;
  return true;
}

/**
 * While the assistant is quiet, one silent frame in this many still goes out (every 200 ms): the
 * caller's side, and any proxy between, sees a live stream, and one that stalled shows as a stretch
 * without frames well inside a second — at 5 writes a second instead of 50.
 */
export const QUIET_KEEPALIVE_FRAMES = 10;

/**
 * Frame by frame, whether an outgoing frame is written: sound always; the assistant's silence
 * (exact zeros) only as a keepalive every QUIET_KEEPALIVE_FRAMES frames, and — with
 * `firstAfterSound` — as the first silent frame after sound, which on a phone stream carries the
 * resampler's tail of that sound.
 */
export function silenceFilter(options: { firstAfterSound: boolean }): (pcm: Int16Array) => boolean {
  let quietRun = 0;
  return (pcm) => {
    if (!isDigitalSilence(pcm)) {
      quietRun = 0;
      return true;
    }
    quietRun += 1;
    if (quietRun === 1 && options.firstAfterSound) return true;
    return quietRun % QUIET_KEEPALIVE_FRAMES === 0;
  };
}

/** The playout hands over a frame every 20 ms; one this much later than that was a deadline missed. */
const LATE_FRAME_MS = 20 + 40;

/**
 * Watches the pacing of a call's outgoing frames (silence included: the playout hands over every
 * frame, written or not) and reports each one handed over more than 40 ms past its time — the
 * caller heard a gap — to admission control, which then stops taking new calls.
 */
export function lateFrameWatch(
  onLate: () => void = noteAudioDeadlineMiss,
  clock: () => number = () => performance.now(),
): () => void {
  let last = 0;
  return () => {
    const now = clock();
    if (last > 0 && now - last > LATE_FRAME_MS) onLate();
    last = now;
  };
}
