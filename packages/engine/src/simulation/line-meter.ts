import { rms } from "../audio/pcm.ts";
import type { Clock } from "../clock/clock.ts";
import { systemClock } from "../clock/system-clock.ts";
import { AUDIBLE_RMS, FRAME_MS } from "../constants.ts";
import type { LineMeter } from "./types.ts";

/**
 * How long the assistant must have been quiet before its sound counts as a new reply. Word gaps in
 * a reply are shorter; a reply after the caller spoke always follows a longer quiet (the caller's
 * own speech), so an assistant talking on over the caller is not counted as having answered.
 */
const REPLY_ONSET_QUIET_MS = 200;

/**
 * A test call's timing as the caller experiences it, from each side's frames as they are handed
 * over (time from the clock, "audible" as the engine's turn metrics judge it, so the waits match
 * the call log's voice-to-voice figures). Feed it each side's audio before the line's noise.
 */
export function createLineMeter(clock: Clock = systemClock): LineMeter {
  let lastAudibleAt: number | null = null;
  let longestSilenceMs: number | null = null;
  let callerLastAudibleAt: number | null = null;
  let assistantLastAudibleAt: number | null = null;
  const waitsMs: number[] = [];

  const audible = (at: number) => {
    const gap = lastAudibleAt === null ? 0 : Math.max(0, at - lastAudibleAt - FRAME_MS);
    longestSilenceMs = Math.max(longestSilenceMs ?? 0, gap);
    lastAudibleAt = Math.max(lastAudibleAt ?? at, at);
  };

  return {
    caller(pcm) {
      if (rms(pcm) < AUDIBLE_RMS) return;
      const at = clock.now();
      audible(at);
      callerLastAudibleAt = at;
    },
    assistant(pcm) {
      if (rms(pcm) < AUDIBLE_RMS) return;
      const at = clock.now();
      audible(at);
      const quietBefore = assistantLastAudibleAt === null ? Number.POSITIVE_INFINITY : at - assistantLastAudibleAt;
      // A wait: the caller spoke since the assistant's last sound, has stopped, and the assistant starts anew.
      const callerSpokeSince =
        callerLastAudibleAt !== null &&
        (assistantLastAudibleAt === null || callerLastAudibleAt > assistantLastAudibleAt);
      if (callerSpokeSince && callerLastAudibleAt !== null && callerLastAudibleAt < at) {
        if (quietBefore >= REPLY_ONSET_QUIET_MS) waitsMs.push(at - callerLastAudibleAt);
      }
      assistantLastAudibleAt = at;
    },
    report: () => ({ longestSilenceMs, waitsMs: [...waitsMs] }),
  };
}
