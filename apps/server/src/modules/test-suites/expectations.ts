import type {
  CallLog,
  Expectation,
  ExpectationEvidence,
  ExpectationResult,
  TestCallFigures,
  ToolCallEntry,
  TranscriptEntry,
} from "@parley/contract";
import type { CallerReport } from "@parley/engine";
import type { ValidateFunction } from "ajv/dist/2020.js";
import { compileArgumentsSchema } from "./arguments-schema.ts";
import type { Judge } from "./judge.ts";

/** What a test call left to judge: its final log, the caller's own account and the line meter's. */
export interface CallRecordings {
  log: CallLog;
  caller: CallerReport;
  meter: { longestSilenceMs: number | null; waitsMs: number[] };
}

type Verdict = Omit<ExpectationResult, "index" | "type">;
type Of<T extends Expectation["type"]> = Extract<Expectation, { type: T }>;
type Figures = ExpectationEvidence["figures"];

const evidence = (parts: Partial<ExpectationEvidence>): ExpectationEvidence => ({
  transcript: parts.transcript ?? [],
  tool_calls: parts.tool_calls ?? [],
  figures: parts.figures ?? {},
});

/** Nearest-rank percentile (p95 of two turns is the slower one); null for no values. */
export function percentile(values: number[], share: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? null;
}

/** Each turn's caller wait whose reply was heard, in turn order. */
const heardWaits = (log: CallLog) =>
  log.turn_metrics.flatMap((m) => (m.voice_to_voice_ms === null ? [] : [{ turn: m.turn, ms: m.voice_to_voice_ms }]));

/** The caller's turns that did something: spoke, or pressed keys. */
const activeTurns = (caller: CallerReport) => caller.turns.filter((t) => (t.text !== "" && !t.silent) || t.dtmf !== "");

/** How the call itself ended: its `ended` event when the reported reason is a fault outcome instead. */
function endedAs(log: CallLog): string | null {
  const ended = log.events.find((e) => e.type === "ended");
  return ended?.type === "ended" ? ended.reason : log.end_reason;
}

/** The figures of one test call for its result. */
export function callFigures({ log, caller, meter }: CallRecordings): TestCallFigures {
  const waits = heardWaits(log).map((w) => w.ms);
  return {
    caller_turns: caller.turns.length,
    duration_seconds: log.duration_seconds,
    latency_p50_ms: percentile(waits, 0.5),
    latency_p95_ms: percentile(waits, 0.95),
    longest_silence_ms: meter.longestSilenceMs,
    cost: log.cost,
  };
}

const rubricLabel = (rubric: string) => `Rubric: ${rubric.length > 60 ? `${rubric.slice(0, 60).trimEnd()}…` : rubric}`;

async function rubric(e: Of<"rubric">, { log }: CallRecordings, judge: Judge): Promise<Verdict> {
  const verdict = await judge(e.rubric, log);
  return {
    label: rubricLabel(e.rubric),
    passed: verdict.pass,
    reason: verdict.reason,
    evidence: evidence({ transcript: log.transcript }),
  };
}

/** Why a tool call's arguments do not match the schema; null when they do. */
function argumentsProblem(call: ToolCallEntry, validate: ValidateFunction) {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments || "{}");
  } catch {
    return "its arguments are not JSON";
  }
  if (validate(args)) return null;
  const [first] = validate.errors ?? [];
  return first ? `${first.instancePath || "the arguments"} ${first.message ?? "do not match"}` : "they do not match";
}

function toolCalled(e: Of<"tool_called">, { log }: CallRecordings): Verdict {
  const label = `Calls ${e.name}${e.arguments_schema ? " with matching arguments" : ""}`;
  const calls = log.tool_calls.filter((c) => c.name === e.name);
  if (calls.length === 0) {
    const others = [...new Set(log.tool_calls.map((c) => c.name))];
    const seen = others.length > 0 ? `tools called: ${others.join(", ")}` : "no tool was called";
    const reason = `${e.name} was never called (${seen}).`;
    return { label, passed: false, reason, evidence: evidence({ tool_calls: log.tool_calls }) };
  }
  const times = `${calls.length} time${calls.length === 1 ? "" : "s"}`;
  if (!e.arguments_schema) {
    return { label, passed: true, reason: `${e.name} was called ${times}.`, evidence: evidence({ tool_calls: calls }) };
  }
  // The API refuses a schema that does not compile; one saved before that rule fails here with why.
  const validate = compileArgumentsSchema(e.arguments_schema);
  if ("error" in validate) {
    const reason = `The arguments schema is not valid JSON Schema: ${validate.error}`;
    return { label, passed: false, reason, evidence: evidence({ tool_calls: calls }) };
  }
  const problems = calls.map((c) => argumentsProblem(c, validate));
  const matching = problems.indexOf(null);
  if (matching >= 0) {
    const reason = `${e.name} was called ${times}; call ${matching + 1}'s arguments match the schema.`;
    return { label, passed: true, reason, evidence: evidence({ tool_calls: calls }) };
  }
  const reason = `${e.name} was called ${times} but no call's arguments match the schema (${problems[0]}).`;
  return { label, passed: false, reason, evidence: evidence({ tool_calls: calls }) };
}

const sameValue = (got: unknown, want: string) => String(got).trim().toLowerCase() === want.trim().toLowerCase();

function variablesCollected(e: Of<"variables_collected">, { log }: CallRecordings): Verdict {
  const label = `Collects ${e.variables.map((v) => v.name).join(", ")}`;
  const values = log.workflow?.variables;
  if (!values) {
    const reason = "The call ran no workflow, so no variables were collected.";
    return { label, passed: false, reason, evidence: evidence({}) };
  }
  const figures: Figures = {};
  const problems: string[] = [];
  for (const want of e.variables) {
    const got = values[want.name];
    const collected = got !== undefined && got !== null && got !== "";
    figures[want.name] = collected ? (typeof got === "boolean" ? String(got) : got) : null;
    if (!collected) problems.push(`${want.name} was not collected`);
    else if (want.value !== null && !sameValue(got, want.value))
      problems.push(`${want.name} was "${String(got)}", expected "${want.value}"`);
  }
  const collected = e.variables.map((v) => `${v.name} = ${String(figures[v.name])}`).join(", ");
  const reason = problems.length === 0 ? `Collected ${collected}.` : `${problems.join("; ")}.`;
  return { label, passed: problems.length === 0, reason, evidence: evidence({ figures }) };
}

function outcome(e: Of<"outcome">, { log }: CallRecordings): Verdict {
  const ended = endedAs(log);
  const lastWords = log.transcript.filter((l) => l.role === "assistant").slice(-1);
  if (e.outcome === "transfer") {
    const transfer = log.events.find((ev) => ev.type === "transfer");
    const destination = transfer?.type === "transfer" ? transfer.destination : null;
    const passed = destination !== null || ended === "transferred";
    const figures: Figures = { end_reason: ended, transfer_to: destination?.number ?? null };
    const reason = destination
      ? `The call was transferred to ${destination.name} (${destination.number}).`
      : passed
        ? "The call ended as transferred."
        : `The call ended as ${ended ?? "unknown"} without a transfer.`;
    return { label: "Reaches a transfer", passed, reason, evidence: evidence({ transcript: lastWords, figures }) };
  }
  const passed = ended === "assistant_ended" || ended === "end_phrase";
  const reason = passed
    ? `The assistant ended the call (${ended}).`
    : `The call ended as ${ended ?? "unknown"}, not by the assistant.`;
  const figures: Figures = { end_reason: ended };
  return {
    label: "The assistant ends the call",
    passed,
    reason,
    evidence: evidence({ transcript: lastWords, figures }),
  };
}

function endReason(e: Of<"end_reason">, { log }: CallRecordings): Verdict {
  const label = `Ends as ${e.reasons.join(" or ")}`;
  const reason = log.end_reason ?? "unknown";
  const passed = e.reasons.some((r) => r === log.end_reason);
  const ended = endedAs(log);
  const figures: Figures = { end_reason: log.end_reason, ...(ended !== log.end_reason ? { ended: ended } : {}) };
  const why = passed ? `The call ended as ${reason}.` : `The call ended as ${reason}, not ${e.reasons.join(" or ")}.`;
  return { label, passed, reason: why, evidence: evidence({ figures }) };
}

function maxTurns(e: Of<"max_turns">, { log, caller }: CallRecordings): Verdict {
  const turns = activeTurns(caller).length;
  const label = `Over within ${e.turns} caller turn${e.turns === 1 ? "" : "s"}`;
  const passed = turns <= e.turns;
  const reason = `${turns} caller turn${turns === 1 ? "" : "s"} ${passed ? "≤" : ">"} ${e.turns}.`;
  const said: TranscriptEntry[] = log.transcript.filter((l) => l.role === "user");
  return { label, passed, reason, evidence: evidence({ transcript: said, figures: { turns, limit: e.turns } }) };
}

function latency(e: Of<"latency">, { log }: CallRecordings): Verdict {
  const label = `p95 latency under ${e.p95_ms} ms`;
  const waits = heardWaits(log);
  const p95 = percentile(
    waits.map((w) => w.ms),
    0.95,
  );
  const figures: Figures = Object.fromEntries(waits.map((w) => [`turn_${w.turn}_voice_to_voice_ms`, w.ms]));
  figures.p95_ms = p95;
  if (p95 === null) {
    const reason = "No reply was heard after the caller spoke, so there is no latency to measure.";
    return { label, passed: false, reason, evidence: evidence({ figures }) };
  }
  const passed = p95 < e.p95_ms;
  const turns = waits.map((w) => Math.round(w.ms)).join(", ");
  const reason = `p95 ${Math.round(p95)} ms ${passed ? "<" : "≥"} ${e.p95_ms} ms (turns: ${turns} ms).`;
  return { label, passed, reason, evidence: evidence({ figures }) };
}

function maxSilence(e: Of<"max_silence">, { meter }: CallRecordings): Verdict {
  const label = `No silence over ${e.seconds} s`;
  const longest = meter.longestSilenceMs;
  const figures: Figures = { longest_silence_ms: longest, limit_ms: e.seconds * 1000 };
  if (longest === null) {
    const reason = "Nothing was heard on the line, so the call was silence from start to end.";
    return { label, passed: false, reason, evidence: evidence({ figures }) };
  }
  const passed = longest <= e.seconds * 1000;
  const reason = `Longest silence ${(longest / 1000).toFixed(1)} s ${passed ? "≤" : ">"} ${e.seconds} s.`;
  return { label, passed, reason, evidence: evidence({ figures }) };
}

function judgeOne(e: Expectation, call: CallRecordings, judge: Judge): Verdict | Promise<Verdict> {
  switch (e.type) {
    case "rubric":
      return rubric(e, call, judge);
    case "tool_called":
      return toolCalled(e, call);
    case "variables_collected":
      return variablesCollected(e, call);
    case "outcome":
      return outcome(e, call);
    case "end_reason":
      return endReason(e, call);
    case "max_turns":
      return maxTurns(e, call);
    case "latency":
      return latency(e, call);
    case "max_silence":
      return maxSilence(e, call);
  }
}

/**
 * Every expectation of a case judged against its call, in order, each with the evidence it read and
 * a sentence saying why. Rubrics go to `judge` one after another; a judge that cannot answer
 * rejects (JudgeError) and the result is an error, not a failure.
 */
export async function judgeExpectations(
  expectations: Expectation[],
  call: CallRecordings,
  judge: Judge,
): Promise<ExpectationResult[]> {
  const results: ExpectationResult[] = [];
  for (const [index, e] of expectations.entries()) {
    results.push({ index, type: e.type, ...(await judgeOne(e, call, judge)) });
  }
  return results;
}
