import type { TestCaseOutcome, TestResultStatus, TestRunStatus } from "@parley/contract";

/** Any status a chip shows: a run's, a case's over its attempts, or one call's. */
export type OutcomeStatus = TestRunStatus | TestResultStatus | TestCaseOutcome["status"];

export type OutcomeColour = "default" | "info" | "primary" | "success" | "warning" | "error";

const COLOURS: Record<OutcomeStatus, OutcomeColour> = {
  queued: "info",
  pending: "default",
  running: "primary",
  passed: "success",
  failed: "error",
  flaky: "warning",
  error: "warning",
  cancelled: "default",
};

/** The chip colour of a status; the words carry the meaning, the colour only helps. */
export const outcomeColour = (status: OutcomeStatus): OutcomeColour => COLOURS[status];

/** Whether a status is still moving (a spinner shows beside it). */
export const outcomeIsLive = (status: OutcomeStatus) =>
  status === "queued" || status === "pending" || status === "running";

/** "2/3": attempts that passed of those made; null for a case called once, whose status says it all. */
export const attemptsText = (outcome: Pick<TestCaseOutcome, "passed_attempts" | "attempts">) =>
  outcome.attempts > 1 ? `${outcome.passed_attempts}/${outcome.attempts}` : null;

/** A duration in ms as people read it: "850 ms", "1.4 s". */
export function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** USD with enough digits for a test call's cents. */
export const formatCost = (usd: number) => `$${usd.toFixed(usd !== 0 && Math.abs(usd) < 0.01 ? 4 : 2)}`;

/** A change with its sign ("+120 ms", "−$0.0040"); zero is "±0". */
export function formatDelta(delta: number | null, format: (value: number) => string): string | null {
  if (delta === null) return null;
  if (delta === 0) return `±${format(0)}`;
  return `${delta > 0 ? "+" : "−"}${format(Math.abs(delta))}`;
}

/** Whether a change is for the worse (slower, dearer): the comparison colours it so. */
export const deltaTone = (delta: number | null): "error" | "success" | "text.secondary" =>
  delta === null || delta === 0 ? "text.secondary" : delta > 0 ? "error" : "success";

/**
 * A left-to-right figure ("+2.5 s", "$0.01") set inside a sentence: isolated, so a right-to-left
 * sentence keeps its sign, number and unit in their order.
 */
export const isolated = (text: string) => `\u2066${text}\u2069`;
