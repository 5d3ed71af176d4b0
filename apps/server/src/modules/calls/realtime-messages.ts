import type { RealtimeServerMessage } from "@parley/contract";
import type { CallEvent } from "@parley/engine";
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
