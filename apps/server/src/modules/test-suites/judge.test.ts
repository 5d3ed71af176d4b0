import type { CallLog } from "@parley/contract";
import type { LlmChunk, LlmProvider } from "@parley/engine";
import { describe, expect, it } from "vitest";
import { createJudge, JudgeError, judgeMessages, lazyJudge, parseVerdict } from "./judge.ts";

const call = {
  transcript: [
    { role: "assistant", text: "Hello, this is the bistro.", at_ms: 0 },
    { role: "user", text: "A table for two.", at_ms: 2000 },
  ],
  tool_calls: [{ name: "book", arguments: '{"people":2}', result: "ok", ok: true, duration_ms: 5, at_ms: 2500 }],
  end_reason: "caller_hangup",
} as CallLog;

const model = (answer: string | Error): LlmProvider => ({
  id: "scripted",
  model: "scripted",
  async *chat(): AsyncIterable<LlmChunk> {
    if (answer instanceof Error) throw answer;
    yield { type: "text", text: answer };
  },
});

describe("parseVerdict", () => {
  it("reads the JSON object asked for", () => {
    expect(parseVerdict('{"pass": true, "reason": "It booked the table."}')).toEqual({
      pass: true,
      reason: "It booked the table.",
    });
  });

  it("reads the object inside a json fence, with words around it", () => {
    expect(parseVerdict('Here is my verdict:\n```json\n{"pass": false, "reason": "No date asked."}\n```')).toEqual({
      pass: false,
      reason: "No date asked.",
    });
  });

  it("reads text that starts PASS or FAIL, then the reason", () => {
    expect(parseVerdict("FAIL: the assistant never confirmed.")).toEqual({
      pass: false,
      reason: "the assistant never confirmed.",
    });
    expect(parseVerdict("**PASS** It confirmed.")).toEqual({ pass: true, reason: "It confirmed." });
    expect(parseVerdict("PASS")).toEqual({ pass: true, reason: "The judge answered PASS without a reason." });
  });

  it("finds no verdict in anything else", () => {
    expect(parseVerdict("I think it went well overall.")).toBeNull();
    expect(parseVerdict('{"verdict": "pass"}')).toBeNull();
    expect(parseVerdict("")).toBeNull();
  });
});

describe("the judge", () => {
  it("asks at temperature 0 with the rubric, the transcript, the tool calls and the end", async () => {
    const [system, user] = judgeMessages("Confirms the booking", call);
    expect(system?.content).toContain('{"pass": true or false');
    expect(user?.content).toContain("Rubric:\nConfirms the booking");
    expect(user?.content).toContain("Assistant: Hello, this is the bistro.\nCaller: A table for two.");
    expect(user?.content).toContain('- book({"people":2}) → ok');
    expect(user?.content).toContain("The call ended as: caller_hangup");
  });

  it("fails with the reason when the model fails or answers no verdict", async () => {
    await expect(createJudge(model(new Error("connection refused")))("r", call)).rejects.toThrow(
      /The judge model \(scripted\) failed: connection refused/,
    );
    await expect(createJudge(model("Looks fine to me."))("r", call)).rejects.toThrow(
      new JudgeError("The judge model (scripted) answered no pass/fail verdict: Looks fine to me."),
    );
  });

  it("builds its model once, on the first rubric", async () => {
    let built = 0;
    const judge = lazyJudge(async () => {
      built += 1;
      return model('{"pass": true, "reason": "ok"}');
    });
    expect(built).toBe(0);
    await judge("a", call);
    await judge("b", call);
    expect(built).toBe(1);
    const broken = lazyJudge(async () => {
      throw new Error("invalid configuration: model");
    });
    await expect(broken("a", call)).rejects.toThrow(
      "The judge model could not be set up: invalid configuration: model",
    );
  });
});
