import { randomUUID } from "node:crypto";
import { type ExpectationResult, type TestCaseOutcome, type TestResult, TestRun } from "@parley/contract";

/**
 * Test runs as the server answers them, built from a few facts per case, each checked against the
 * contract so a test cannot drift from what the API sends.
 */

export interface SampleCase {
  name: string;
  id?: string;
  /** One status per attempt. */
  attempts: TestResult["status"][];
  failures?: Pick<ExpectationResult, "type" | "label" | "reason">[];
  error?: string;
  callId?: string | null;
}

export const SUITE_ID = "0f0e0d0c-0b0a-4909-8807-060504030201";

export function sampleRun(
  cases: SampleCase[],
  overrides: Partial<
    Pick<TestRun, "id" | "status" | "suite_name" | "comparison" | "latency_p95_ms" | "cost" | "agent_version">
  > = {},
): TestRun {
  const repeat = Math.max(1, ...cases.map((c) => c.attempts.length));
  const withIds = cases.map((c) => ({ ...c, id: c.id ?? randomUUID() }));
  const results = withIds.flatMap((c) => c.attempts.map((status, i) => result(c, status, i + 1)));
  const outcomes = withIds.map(outcome);
  const count = (status: TestCaseOutcome["status"]) => outcomes.filter((o) => o.status === status).length;
  return TestRun.parse({
    id: overrides.id ?? randomUUID(),
    suite_id: SUITE_ID,
    suite_name: overrides.suite_name ?? "Bookings",
    agent_id: "11111111-2222-4333-8444-555555555555",
    status: overrides.status ?? runStatus(outcomes),
    trigger: "cli",
    repeat,
    agent_version: overrides.agent_version === undefined ? 3 : overrides.agent_version,
    totals: {
      cases: cases.length,
      passed: count("passed"),
      failed: count("failed"),
      flaky: count("flaky"),
      error: count("error"),
    },
    latency_p95_ms: overrides.latency_p95_ms ?? 840,
    cost: overrides.cost ?? 0.0123,
    created_at: "2026-11-29T09:00:00.000Z",
    started_at: "2026-11-29T09:00:01.000Z",
    finished_at: "2026-11-29T09:00:31.500Z",
    cases: outcomes,
    results,
    comparison: overrides.comparison ?? null,
  });
}

function result(c: SampleCase & { id: string }, status: TestResult["status"], attempt: number): TestResult {
  // A cancelled result never called (or its call was cut): no figures, as pending and running ones.
  const finished = status === "passed" || status === "failed" || status === "error";
  const failures = status === "failed" ? (c.failures ?? [{ type: "rubric", label: "Rubric", reason: "No." }]) : [];
  return {
    id: randomUUID(),
    case_id: c.id,
    case_name: c.name,
    attempt,
    status,
    call_id: c.callId === undefined ? (finished ? randomUUID() : null) : c.callId,
    agent_version: status === "pending" ? null : 3,
    error: status === "error" ? (c.error ?? "The judge could not answer") : null,
    caller_turns: [],
    call_events: [],
    expectations: [
      ...failures.map((f, index) => ({
        ...f,
        index,
        passed: false,
        evidence: { transcript: [], tool_calls: [], figures: {} },
      })),
      {
        index: failures.length,
        type: "end_reason" as const,
        label: "Ends as caller hang-up",
        passed: true,
        reason: "It did.",
        evidence: { transcript: [], tool_calls: [], figures: {} },
      },
    ],
    figures: finished
      ? {
          caller_turns: 2,
          duration_seconds: 12.5,
          latency_p50_ms: 700,
          latency_p95_ms: 840,
          longest_silence_ms: 900,
          cost: 0.006,
        }
      : null,
    started_at: finished ? "2026-11-29T09:00:02.000Z" : null,
    finished_at: finished ? "2026-11-29T09:00:14.500Z" : null,
  };
}

function outcome(c: SampleCase & { id: string }): TestCaseOutcome {
  const passed = c.attempts.filter((s) => s === "passed").length;
  return {
    case_id: c.id,
    case_name: c.name,
    status: outcomeStatus(c.attempts, passed),
    passed_attempts: passed,
    attempts: c.attempts.length,
  };
}

function outcomeStatus(attempts: TestResult["status"][], passed: number): TestCaseOutcome["status"] {
  if (attempts.includes("running")) return "running";
  if (attempts.includes("pending")) return "pending";
  if (attempts.includes("error")) return "error";
  if (attempts.includes("cancelled")) return "cancelled";
  if (passed === attempts.length) return "passed";
  return passed > 0 ? "flaky" : "failed";
}

function runStatus(outcomes: TestCaseOutcome[]): TestRun["status"] {
  const statuses = outcomes.map((o) => o.status);
  if (statuses.some((s) => s === "pending" || s === "running"))
    return statuses.includes("running") ? "running" : "queued";
  if (statuses.includes("cancelled")) return "cancelled";
  if (statuses.some((s) => s === "failed" || s === "flaky")) return "failed";
  if (statuses.includes("error")) return "error";
  return "passed";
}
