import type { TestCaseOutcome, TestResult, TestRun } from "@parley/contract";

/** What the CLI prints about a run: a line per case as it finishes, then the summary. */

const FINAL_CASE_STATUSES: readonly TestCaseOutcome["status"][] = ["passed", "failed", "flaky", "error", "cancelled"];

export function startedLine(run: TestRun): string {
  const calls = run.results.length;
  const repeat = run.repeat > 1 ? `, each ${run.repeat} times` : "";
  const version = run.agent_version === null ? "" : ` on assistant version ${run.agent_version}`;
  return `Running "${run.suite_name}" (run ${run.id})${version}: ${run.cases.length} ${plural(run.cases.length, "case")}${repeat}, ${calls} ${plural(calls, "call")}`;
}

/**
 * Remembers which cases it has printed and, given each newer state of the run, returns the lines of
 * the cases that finished since: each case is printed once, in the order the server lists them.
 */
export function createProgress(): (run: TestRun) => string[] {
  const printed = new Set<string>();
  return (run) => {
    const lines: string[] = [];
    for (const outcome of run.cases) {
      const key = caseKey(outcome);
      if (printed.has(key) || !FINAL_CASE_STATUSES.includes(outcome.status)) continue;
      printed.add(key);
      lines.push(...caseLines(outcome, resultsOf(run, outcome)));
    }
    return lines;
  };
}

/** "✔ Books a table (2/2)", or the mark, the name and why it did not pass, one failed expectation per line. */
export function caseLines(outcome: TestCaseOutcome, results: readonly TestResult[]): string[] {
  const tally = `(${outcome.passed_attempts}/${outcome.attempts})`;
  switch (outcome.status) {
    case "passed":
      return [`✔ ${outcome.case_name} ${tally}`];
    case "failed":
    case "flaky":
      return failureLines(outcome, results, tally);
    case "error": {
      const reason = results.find((r) => r.status === "error")?.error ?? "the call could not be made or judged";
      return [`✘ ${outcome.case_name} — error: ${reason}`];
    }
    case "cancelled":
      return [`– ${outcome.case_name} — cancelled`];
    case "pending":
    case "running":
      return [];
  }
}

function failureLines(outcome: TestCaseOutcome, results: readonly TestResult[], tally: string): string[] {
  const failed = results.find((r) => r.status === "failed");
  const reasons = (failed?.expectations ?? []).filter((e) => !e.passed).map((e) => `${e.label}: ${e.reason}`);
  // A flaky case's tally is the news (it passed sometimes); a plain failure shows its reasons only.
  const mark = outcome.status === "flaky" ? `⚠ ${outcome.case_name} ${tally} flaky` : `✘ ${outcome.case_name}`;
  const [first = "failed", ...more] = reasons;
  return [`${mark} — ${first}`, ...more.map((reason) => `    ${reason}`)];
}

function resultsOf(run: TestRun, outcome: TestCaseOutcome): TestResult[] {
  return run.results.filter((r) =>
    outcome.case_id === null ? r.case_id === null && r.case_name === outcome.case_name : r.case_id === outcome.case_id,
  );
}

function caseKey(outcome: TestCaseOutcome): string {
  return outcome.case_id ?? `name:${outcome.case_name}`;
}

/** The run's page in the web app, where each expectation's evidence and the recordings are. */
export function runPageUrl(serverUrl: string, run: TestRun): string {
  return `${serverUrl}/assistants/${encodeURIComponent(run.agent_id)}/tests/${encodeURIComponent(run.suite_id)}/runs/${encodeURIComponent(run.id)}`;
}

/** The closing lines: the verdict and counts, latency and cost, what changed since the previous run, and where to read more. */
export function summaryLines(run: TestRun, serverUrl: string): string[] {
  const { totals } = run;
  const lines = [
    "",
    `${run.status === "passed" ? "✔" : "✘"} Run ${run.status}: ${totals.cases} ${plural(totals.cases, "case")} — ${totals.passed} passed, ${totals.failed} failed, ${totals.flaky} flaky, ${totals.error} ${plural(totals.error, "error")}`,
    `  p95 latency ${run.latency_p95_ms === null ? "—" : `${Math.round(run.latency_p95_ms)} ms`} · cost $${run.cost.toFixed(4)}`,
  ];
  const comparison = run.comparison;
  if (comparison) {
    const names = (list: { case_name: string }[]) => (list.length ? list.map((c) => c.case_name).join(", ") : "none");
    lines.push(
      `  Since run ${comparison.previous_run_id}: newly failing: ${names(comparison.newly_failing)}; newly passing: ${names(comparison.newly_passing)}`,
    );
    const deltas = [
      comparison.latency_p95_delta_ms === null
        ? null
        : `p95 latency ${signed(Math.round(comparison.latency_p95_delta_ms))} ms`,
      comparison.cost_per_call_delta === null ? null : `cost per call ${signedMoney(comparison.cost_per_call_delta)}`,
    ].filter((d) => d !== null);
    if (deltas.length > 0) lines.push(`  ${deltas.join(" · ")}`);
  }
  lines.push(`  Details: ${runPageUrl(serverUrl, run)}`);
  return lines;
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

function signedMoney(n: number): string {
  return `${n < 0 ? "-" : "+"}$${Math.abs(n).toFixed(4)}`;
}
