import type { CallerBehaviours, ScriptLine } from "@parley/contract";
import type { Clock } from "../clock/clock.ts";
import type { LlmProvider, TtsProvider } from "../providers/types.ts";

/**
 * A test suite's simulated caller (issue 29): the other end of a test call, built from the
 * engine's own parts — a model that plays the caller (or a fixed script), a voice, and ears that
 * judge from the audio when the assistant has finished. It talks to the assistant's call session
 * only as audio and keys, through a `Line` (a browser's 16 kHz PCM or a phone's 8 kHz μ-law with
 * noise and loss), so transcription, end-of-turn, barge-in and voices all run as on a real call.
 *
 * Turns count from 1, the caller's first. Turn 1 starts once the assistant's first message has been
 * heard to its end (or `interrupt_after_ms` into it when the caller interrupts the greeting), or at
 * once when the assistant waits for the caller; turn k+1 once the assistant's reply to turn k has
 * been heard to its end. "Heard to its end": audible assistant audio, then ASSISTANT_DONE_SILENCE_MS
 * of silence. A line's `wait_ms` runs from that moment.
 */

/** What the caller plays: the case's caller fields the engine needs (contract `SimulatedCaller`). */
export interface CallerPlan {
  mode: "persona" | "script";
  persona: string;
  script: ScriptLine[];
  maxTurns: number;
  behaviours: CallerBehaviours;
  /** The language the caller speaks (the assistant's), for its model's instructions. */
  language: string;
}

export interface SimulatedCallerOptions {
  plan: CallerPlan;
  /** The caller's voice. */
  tts: TtsProvider;
  /** The caller's model: required in persona mode, unused in script mode. */
  llm: LlmProvider | null;
  /** The assistant speaks first (its first message): turn 1 waits for it, or interrupts it. */
  assistantSpeaksFirst: boolean;
  clock?: Clock;
}

/** One turn of the caller as it went, for a result's evidence; times are ms since start(). */
export interface CallerTurnRecord {
  turn: number;
  /** What the caller said ("" for a silent or keys-only turn). */
  text: string;
  dtmf: string;
  silent: boolean;
  /** Started while the assistant was still audible (interrupting the greeting, speaking over). */
  interrupted: boolean;
  startedAtMs: number;
  /** The caller's last audible frame of this turn; null when it said nothing. */
  speechEndedAtMs: number | null;
}

export type CallerEnd =
  /** The script was said, or the caller's model said its goal was met, and the last reply heard. */
  | "finished"
  /** `maxTurns` turns were taken and the last reply heard. */
  | "max_turns"
  /** The other side ended the call first (`stop()`). */
  | "stopped"
  /** The caller could not go on: its model or voice failed (`error` says how). */
  | "failed";

export interface CallerReport {
  end: CallerEnd;
  turns: CallerTurnRecord[];
  /** Why the caller failed, when `end` is "failed". */
  error: string | null;
}

export interface SimulatedCaller {
  /** Starts the caller's clock: its audio flows (silence between its lines) from now on. */
  start(): void;
  /** 20 ms of the assistant's audio as it reached the caller over the line (16-bit PCM, 16 kHz). */
  hearAudio(pcm: Int16Array): void;
  /** The assistant's words, as the call's transcript has them (each final assistant line). */
  hearWords(text: string): void;
  /** The call ended from the other side; the caller stops talking and `done` resolves. */
  stop(): void;
  /** The caller's audio: a 20 ms frame (16-bit PCM, 16 kHz) every 20 ms, silence included. */
  onAudio(listener: (pcm: Int16Array) => void): void;
  /** A key the caller pressed (one digit each, spaced as a person presses them). */
  onDtmf(listener: (digit: string) => void): void;
  /** The caller hangs up: its part is done (its `done` resolves right after). */
  onHangup(listener: () => void): void;
  readonly done: Promise<CallerReport>;
}

/** How the line treats audio each way; `seed` makes loss and noise repeatable. */
export interface LineOptions {
  profile: "browser" | "phone";
  /** Noise added at the caller's end, dBFS (phone only); null: none. */
  noiseDbfs: number | null;
  /** Share of 20 ms packets lost each way, 0–30 (phone only). */
  packetLossPercent: number;
  seed: string;
}

/** The line between the caller and the assistant: 20 ms 16 kHz frames in, what the far end receives out. */
export interface Line {
  /** 16000 (browser) or 8000 (phone): the session's `lineRate`. */
  readonly lineRate: number;
  toAssistant(pcm: Int16Array): Int16Array;
  toCaller(pcm: Int16Array): Int16Array;
}

/**
 * Watches both directions of a test call as the caller hears them: the longest stretch with
 * neither side audible, and each wait from the caller's last sound to the assistant's first.
 */
export interface LineMeter {
  caller(pcm: Int16Array): void;
  assistant(pcm: Int16Array): void;
  report(): { longestSilenceMs: number | null; waitsMs: number[] };
}
