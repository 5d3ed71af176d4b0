// The "local" vendor as the cluster bench's server processes see it (cluster-node-preload.ts puts this
// module in place of packages/engine/src/providers/local/index.ts): a recogniser that hears the same
// line the moment the pipeline finalizes an utterance, and a voice that renders each word as a short
// tone at once. So a turn costs Parley's own work (VAD, end of turn, the call's pipeline, sockets,
// database) and nothing of a vendor's: what the bench compares across loads is Parley.
import { FakeTts, ScriptedStt } from "@parley/engine/testing/fake-providers";

/**
 * What every caller "says": a finished sentence, so the punctuation end-of-turn rule answers (100 ms
 * from the end of speech, the detector's pause included). A line ending on a number ("… for two.")
 * would wait the number rule's 500 ms for more digits, as it should for a caller reading one out:
 * that is the assistant's setting, not Parley's cost.
 */
export const HEARD_LINE = "I would like to book a table for two tonight.";
/** Each word of the reply as this much tone: "Sure, for what time?" is 0.6 s of audio. */
const MS_PER_WORD = 150;
/** Enough lines for any call of the bench (one per turn). */
const LINES_PER_CALL = 10_000;

export default {
  stt: () => new ScriptedStt(Array.from({ length: LINES_PER_CALL }, () => HEARD_LINE)),
  tts: () => new FakeTts({ msPerWord: MS_PER_WORD }),
  listVoices: async () => [{ id: "en-us", name: "English (US)" }],
  testConnection: async () => "Instant doubles for the cluster bench.",
};
