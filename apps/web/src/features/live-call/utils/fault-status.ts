import type { RealtimeServerMessage } from "@parley/contract";

export type FaultMessage = Extract<RealtimeServerMessage, { type: "fault" }>;

/** The live panel's line about a failing stage: the locale key of its text, and of the stage it names. */
export interface FaultStatus {
  key: string;
  stageKey?: string;
  /** The call cannot go on (the assistant is saying goodbye or transferring): the line stays until the call ends. */
  final: boolean;
}

/**
 * What the live panel says about a fault the call reported, instead of "Thinking" while nothing
 * is heard: the stage that failed and what the call is doing about it (retrying, moving to a
 * backup) or, when it gave up, that the assistant could not go on.
 */
export function faultStatus(fault: Pick<FaultMessage, "stage" | "kind" | "action">): FaultStatus {
  if (fault.action === "gave_up") return { key: "fault.gaveUp", stageKey: `fault.stages.${fault.stage}`, final: true };
  // A tool's failure is told the same whatever the call did: the model hears the error and goes on.
  if (fault.stage === "tool")
    return { key: fault.kind === "timeout" ? "fault.tool.timeout" : "fault.tool.failed", final: false };
  // "recovered" means a recovery line was spoken while the same stage tries again.
  const action = fault.action === "fallback" ? "fallback" : fault.action === "skipped" ? "skipped" : "retried";
  return { key: `fault.${fault.stage}.${action}`, final: false };
}

/** Every status key the panel can show, for the locale check. */
export const FAULT_STATUS_KEYS = [
  "fault.gaveUp",
  "fault.tool.timeout",
  "fault.tool.failed",
  ...(["llm", "stt", "tts"] as const).flatMap((stage) =>
    (["retried", "fallback", "skipped"] as const).map((action) => `fault.${stage}.${action}`),
  ),
  ...(["llm", "stt", "tts", "tool"] as const).map((stage) => `fault.stages.${stage}`),
];
