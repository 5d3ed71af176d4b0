import type { CallLog, Expectation, TurnMetricsEntry } from "@parley/contract";
import type { CallerReport, CallerTurnRecord } from "@parley/engine";
import { describe, expect, it } from "vitest";
import { type CallRecordings, callFigures, judgeExpectations, percentile } from "./expectations.ts";
import type { Judge } from "./judge.ts";

const turn = (n: number, fields: Partial<CallerTurnRecord> = {}): CallerTurnRecord => ({
  turn: n,
  text: "Hello.",
  dtmf: "",
  silent: false,
  interrupted: false,
  startedAtMs: n * 1000,
  speechEndedAtMs: n * 1000 + 500,
  ...fields,
});

const metrics = (n: number, ms: number | null): TurnMetricsEntry => ({
  turn: n,
  stt_ms: null,
  llm_ttft_ms: null,
  tts_ttfb_ms: null,
  voice_to_voice_ms: ms,
  engine_overhead_ms: null,
});

function recordings(log: Partial<CallLog> = {}, caller: Partial<CallerReport> = {}): CallRecordings {
  return {
    log: {
      transcript: [
        { role: "assistant", text: "Hello.", at_ms: 0 },
        { role: "user", text: "Table for two.", at_ms: 1500 },
      ],
      tool_calls: [],
      turn_metrics: [metrics(1, 1840), metrics(2, 2130), metrics(3, null)],
      events: [],
      end_reason: "caller_hangup",
      duration_seconds: 12.5,
      cost: 0.02,
      workflow: null,
      ...log,
    } as CallLog,
    caller: { end: "finished", turns: [turn(1), turn(2)], error: null, ...caller },
    meter: { longestSilenceMs: 2400, waitsMs: [1800, 2100] },
  };
}

const noJudge: Judge = async () => {
  throw new Error("no rubric here");
};

const judge = (expectation: Expectation, call = recordings()) =>
  judgeExpectations([expectation], call, noJudge).then((results) => results[0]);

describe("expectations", () => {
  it("latency: p95 of the heard replies against the limit, each turn's wait in the evidence", async () => {
    const failed = await judge({ type: "latency", p95_ms: 1500 });
    expect(failed).toMatchObject({
      index: 0,
      type: "latency",
      label: "p95 latency under 1500 ms",
      passed: false,
      reason: "p95 2130 ms ≥ 1500 ms (turns: 1840, 2130 ms).",
      evidence: { figures: { turn_1_voice_to_voice_ms: 1840, turn_2_voice_to_voice_ms: 2130, p95_ms: 2130 } },
    });
    expect((await judge({ type: "latency", p95_ms: 3000 }))?.passed).toBe(true);
    const silent = await judge({ type: "latency", p95_ms: 3000 }, recordings({ turn_metrics: [] }));
    expect(silent).toMatchObject({ passed: false, reason: expect.stringMatching(/No reply was heard/) });
  });

  it("max_turns counts the caller's turns that spoke or pressed keys", async () => {
    const turns = [turn(1), turn(2, { text: "", silent: true }), turn(3, { text: "", dtmf: "2" }), turn(4)];
    const call = recordings({}, { turns });
    expect(await judge({ type: "max_turns", turns: 3 }, call)).toMatchObject({
      label: "Over within 3 caller turns",
      passed: true,
      reason: "3 caller turns ≤ 3.",
      evidence: { figures: { turns: 3, limit: 3 } },
    });
    expect((await judge({ type: "max_turns", turns: 2 }, call))?.reason).toBe("3 caller turns > 2.");
  });

  it("max_silence reads the line meter", async () => {
    expect(await judge({ type: "max_silence", seconds: 3 })).toMatchObject({
      label: "No silence over 3 s",
      passed: true,
      reason: "Longest silence 2.4 s ≤ 3 s.",
    });
    expect((await judge({ type: "max_silence", seconds: 2 }))?.passed).toBe(false);
  });

  it("tool_called checks the arguments against the schema", async () => {
    const call = recordings({
      tool_calls: [
        { name: "lookup_order", arguments: '{"order_id": 42}', result: "{}", ok: true, duration_ms: 3, at_ms: 10 },
      ],
    });
    const schema = { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] };
    const result = await judge({ type: "tool_called", name: "lookup_order", arguments_schema: schema }, call);
    expect(result).toMatchObject({ label: "Calls lookup_order with matching arguments", passed: false });
    expect(result?.reason).toMatch(/no call's arguments match the schema \(\/order_id must be string\)/);
    expect(result?.evidence.tool_calls).toHaveLength(1);
    const numeric = { ...schema, properties: { order_id: { type: "integer" } } };
    expect((await judge({ type: "tool_called", name: "lookup_order", arguments_schema: numeric }, call))?.passed).toBe(
      true,
    );
    const never = await judge({ type: "tool_called", name: "refund", arguments_schema: null }, call);
    expect(never).toMatchObject({
      label: "Calls refund",
      passed: false,
      reason: "refund was never called (tools called: lookup_order).",
    });
  });

  it("variables_collected reads the workflow's variables, values compared without case", async () => {
    const workflow = {
      workflow_id: "w",
      version: 1,
      path: [],
      variables: { date: "2026-12-01", party_size: 4, name: null },
    };
    const call = recordings({ workflow });
    const ok = await judge(
      {
        type: "variables_collected",
        variables: [
          { name: "date", value: "2026-12-01" },
          { name: "party_size", value: null },
        ],
      },
      call,
    );
    expect(ok).toMatchObject({
      label: "Collects date, party_size",
      passed: true,
      reason: "Collected date = 2026-12-01, party_size = 4.",
    });
    const missing = await judge(
      {
        type: "variables_collected",
        variables: [
          { name: "name", value: null },
          { name: "party_size", value: "2" },
        ],
      },
      call,
    );
    expect(missing?.reason).toBe('name was not collected; party_size was "4", expected "2".');
  });

  it("outcome and end reason read how the call ended", async () => {
    const transferred = recordings({
      end_reason: "transferred",
      events: [{ type: "transfer", destination: { name: "Sales", number: "+15550100" }, at_ms: 9000 }],
    });
    expect(await judge({ type: "outcome", outcome: "transfer" }, transferred)).toMatchObject({
      label: "Reaches a transfer",
      passed: true,
      reason: "The call was transferred to Sales (+15550100).",
    });
    expect((await judge({ type: "outcome", outcome: "end_call" }))?.reason).toBe(
      "The call ended as caller_hangup, not by the assistant.",
    );
    // A tool timeout is the reported reason; the assistant still ended the call.
    const ended = recordings({
      end_reason: "tool_timeout",
      events: [{ type: "ended", reason: "assistant_ended", at_ms: 1 }],
    });
    expect((await judge({ type: "outcome", outcome: "end_call" }, ended))?.passed).toBe(true);
    expect(await judge({ type: "end_reason", reasons: ["caller_hangup", "assistant_ended"] })).toMatchObject({
      label: "Ends as caller_hangup or assistant_ended",
      passed: true,
    });
  });

  it("figures: turns from the caller, latency from the log, silence from the meter", () => {
    expect(callFigures(recordings())).toEqual({
      caller_turns: 2,
      duration_seconds: 12.5,
      latency_p50_ms: 1840,
      latency_p95_ms: 2130,
      longest_silence_ms: 2400,
      cost: 0.02,
    });
    expect(percentile([], 0.95)).toBeNull();
    expect(percentile([5, 1, 3, 2, 4], 0.5)).toBe(3);
  });
});
