import type { CallLog } from "@parley/contract";

const STAGES = { llm: "language model", stt: "transcriber", tts: "voice", tool: "tool" } as const;
const ACTIONS = {
  retried: "it was retried",
  fallback: "a backup provider took over",
  recovered: "the caller heard a recovery line and the reply was asked again",
  skipped: "that part was skipped",
  gave_up: "the call could not go on and was ended",
} as const;

/**
 * The call's fault outcome in a sentence or two for the post-call analysis (so a call the
 * assistant could not finish is not judged on its words alone); null when nothing failed.
 */
export function faultOutcome(call: Pick<CallLog, "end_reason" | "events">): string | null {
  const faults = call.events.filter((e) => e.type === "fault");
  if (faults.length === 0) return null;
  const lines = faults.map(
    (f) => `the ${STAGES[f.stage]} (${f.provider}) failed (${f.kind.replace("_", " ")}) and ${ACTIONS[f.action]}`,
  );
  return `${lines.join("; ")}. The call's end reason is ${call.end_reason ?? "unknown"}.`;
}
