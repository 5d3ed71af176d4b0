import type { ToolCall } from "../providers/types.ts";

/** Why a call ended. */
export type EndReason =
  | "caller_hangup"
  | "assistant_ended"
  | "end_phrase"
  | "silence_timeout"
  | "max_duration"
  | "transferred"
  | "voicemail"
  | "removed"
  | "error"
  /** The fault policy gave up: the model, transcriber or voice failed past its retries and backups. */
  | "assistant_error"
  | "transcriber_error"
  | "voice_error";

/**
 * Everything that flows through the engine's pipelines is a typed frame (pipecat style).
 * System frames are handled ahead of queued data and an interruption discards queued data.
 */

/** Frames that jump the queue. */
export type SystemFrame =
  /** The caller barged in: drop queued data, abort in-flight work, silence the output. */
  { type: "interruption" } | { type: "end"; reason: EndReason };

/** Frames processed in order. `utterance` ties assistant text and audio to one spoken message. */
export type DataFrame =
  /** Caller audio; `receivedAt` (clock time) lets later stages count their own lag. */
  | { type: "audio_in"; pcm: Int16Array; receivedAt?: number }
  /**
   * Voice activity: the caller started or stopped speaking, as of the audio received at `receivedAt`.
   * A stop carries `speechEndedAt`: when the last voiced frame before the pause had arrived (clock time).
   */
  | { type: "vad"; speaking: boolean; receivedAt?: number; speechEndedAt?: number }
  | { type: "transcript"; text: string; final: boolean }
  | { type: "text_in"; text: string }
  | { type: "dtmf_in"; digit: string }
  | { type: "llm_text"; text: string; utterance: number }
  /** The end of one utterance's text: flush what is buffered. */
  | { type: "llm_end"; utterance: number }
  | { type: "tool_call"; call: ToolCall }
  | { type: "sentence"; text: string; utterance: number; sentence: number }
  /** Synthesized speech, already at the engine rate. */
  | { type: "tts_audio"; pcm: Int16Array; utterance: number; sentence: number }
  | { type: "audio_out"; pcm: Int16Array }
  | { type: "dtmf_out"; digits: string };

export type Frame = SystemFrame | DataFrame;
export type FrameType = Frame["type"];
export type FrameOf<T extends FrameType> = Extract<Frame, { type: T }>;

/** True for frames that bypass the data queue. */
export function isSystemFrame(frame: Frame): frame is SystemFrame {
  return frame.type === "interruption" || frame.type === "end";
}
