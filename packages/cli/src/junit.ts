import type { TestResult, TestRun } from "@parley/contract";
import { runPageUrl } from "./report.ts";
import { element, renderDocument, type XmlElement } from "./xml.ts";

/**
 * A run as JUnit XML, the report format CI systems read: one <testsuite> named after the suite, one
 * <testcase> per call (per attempt when a case is repeated), failures with every failed expectation
 * and the call log's address, so a red build says which case failed, why, and where to listen.
 */
export function junitXml(run: TestRun, serverUrl: string): string {
  const results = run.results.map((result) => testcase(run, result, serverUrl));
  const count = (status: TestResult["status"][]) => run.results.filter((r) => status.includes(r.status)).length;
  const suite = element(
    "testsuite",
    {
      name: run.suite_name,
      tests: run.results.length,
      failures: count(["failed"]),
      errors: count(["error"]),
      skipped: count(["pending", "running", "cancelled"]),
      time: seconds(span(run.started_at, run.finished_at)),
      timestamp: run.started_at ?? run.created_at,
    },
    [
      element("properties", {}, [
        property("parley.suite_id", run.suite_id),
        property("parley.run_id", run.id),
        property("parley.run_status", run.status),
        property("parley.repeat", String(run.repeat)),
        property("parley.run_url", runPageUrl(serverUrl, run)),
      ]),
      ...results,
    ],
  );
  const totals = element(
    "testsuites",
    {
      name: run.suite_name,
      tests: suite.attributes.tests ?? 0,
      failures: suite.attributes.failures ?? 0,
      errors: suite.attributes.errors ?? 0,
      time: suite.attributes.time ?? 0,
    },
    [suite],
  );
  return renderDocument(totals);
}

function testcase(run: TestRun, result: TestResult, serverUrl: string): XmlElement {
  const name = run.repeat > 1 ? `${result.case_name} (attempt ${result.attempt} of ${run.repeat})` : result.case_name;
  const time = result.figures?.duration_seconds ?? span(result.started_at, result.finished_at);
  return element("testcase", { name, classname: run.suite_name, time: seconds(time) }, [
    ...verdict(result),
    ...systemOut(result, serverUrl),
  ]);
}

/** Nothing for a pass; <failure>, <error> or <skipped> otherwise. */
function verdict(result: TestResult): XmlElement[] {
  switch (result.status) {
    case "passed":
      return [];
    case "failed": {
      const failed = result.expectations.filter((e) => !e.passed);
      const first = failed[0];
      const body = failed.map((e) => `${e.label}: ${e.reason}`).join("\n");
      return [
        element("failure", { message: first?.label ?? "The case failed", type: first?.type ?? "failed" }, [
          body || "The case failed without a failed expectation.",
        ]),
      ];
    }
    case "error": {
      const reason = result.error ?? "The call could not be made or judged.";
      return [element("error", { message: reason, type: "error" }, [reason])];
    }
    case "cancelled":
      return [element("skipped", { message: "Cancelled before it finished" })];
    case "pending":
    case "running":
      return [element("skipped", { message: "Not finished when the CLI stopped waiting" })];
  }
}

function systemOut(result: TestResult, serverUrl: string): XmlElement[] {
  if (result.call_id === null) return [];
  const lines = [`Call: ${result.call_id}`, `Call log: ${callLogUrl(serverUrl, result.call_id)}`];
  const figures = result.figures;
  if (figures) {
    lines.push(
      `Caller turns: ${figures.caller_turns}; p95 latency: ${figures.latency_p95_ms ?? "—"} ms; cost: $${figures.cost.toFixed(4)}`,
    );
  }
  return [element("system-out", {}, [lines.join("\n")])];
}

/** The web app's call-logs page with the call open (it keeps the open call in `?call=`). */
export function callLogUrl(serverUrl: string, callId: string): string {
  return `${serverUrl}/call-logs?${new URLSearchParams({ call: callId })}`;
}

function property(name: string, value: string): XmlElement {
  return element("property", { name, value });
}

function span(from: string | null, to: string | null): number {
  if (from === null || to === null) return 0;
  return Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);
}

function seconds(value: number): string {
  return Number.isFinite(value) ? value.toFixed(3) : "0.000";
}
