import type { TestCase } from "@parley/contract";
import { describe, expect, it } from "vitest";
import {
  blankExpectation,
  type CaseForm,
  caseBodyOf,
  caseFormOf,
  DEFAULT_VOICE,
  FORM_TEXTS,
  formPathOf,
  KEPT_VOICE,
} from "./case-form.ts";

const saved: TestCase = {
  id: "c1",
  suite_id: "s1",
  created_at: "2026-11-29T08:00:00Z",
  updated_at: "2026-11-29T08:00:00Z",
  name: "Books a table",
  caller: {
    mode: "script",
    persona: "",
    script: [
      { text: "A table for two, please.", wait_ms: 400 },
      { text: "", wait_ms: 0 },
    ],
    voice: { provider: "local", config: { model: "espeak-ng", voice: "fr", speed: 1, sampleRate: 16000 } },
    model: null,
    max_turns: 6,
    profile: "phone",
    phone_line: { noise_dbfs: -45, packet_loss_percent: 2 },
    behaviours: {
      interrupts_greeting: true,
      speaks_over_turns: [2, 4],
      interrupt_after_ms: 700,
      pause_mid_sentence_ms: null,
      dtmf: [{ turn: 1, digits: "2" }],
      silent_turns: [],
    },
  },
  expectations: [
    { type: "tool_called", name: "book", arguments_schema: { type: "object", required: ["party"] } },
    { type: "latency", p95_ms: 1500 },
    { type: "end_reason", reasons: ["caller_hangup", "assistant_ended"] },
  ],
  variables: { first_name: "Ada" },
};

const edit = (change: (form: CaseForm) => void) => {
  const form = caseFormOf(saved);
  change(form);
  return caseBodyOf(form, saved);
};

describe("the case editor's values", () => {
  it("come back as the same body they were read from", () => {
    const { body, problems } = caseBodyOf(caseFormOf(saved), saved);
    expect(problems).toEqual([]);
    expect(body).toMatchObject({
      name: "Books a table",
      caller: {
        script: saved.caller.script,
        voice: { provider: "local", config: { voice: "fr" } },
        phone_line: { noise_dbfs: -45, packet_loss_percent: 2 },
        behaviours: { speaks_over_turns: [2, 4], pause_mid_sentence_ms: null, dtmf: [{ turn: 1, digits: "2" }] },
      },
      expectations: saved.expectations,
      variables: { first_name: "Ada" },
    });
  });

  it("show numbers and turn lists as text to type in", () => {
    const form = caseFormOf(saved);
    expect(form.caller.behaviours.speaks_over_turns).toBe("2, 4");
    expect(form.caller.phone_line.noise_dbfs).toBe("-45");
    expect(form.caller.behaviours.pause_mid_sentence_ms).toBe("");
    expect(form.expectations[0]).toMatchObject({
      type: "tool_called",
      arguments_schema: expect.stringContaining('"party"'),
    });
  });

  it("start a new case as a one-line script that expects the caller to hang up", () => {
    const form = caseFormOf(null);
    expect(form.caller.mode).toBe("script");
    expect(form.caller.script).toHaveLength(1);
    expect(form.expectations).toEqual([{ type: "end_reason", reasons: ["caller_hangup"] }]);
    expect(form.caller.voice).toBe(DEFAULT_VOICE);
  });

  it("keep a voice of another provider that the editor does not offer", () => {
    const other = {
      ...saved,
      caller: { ...saved.caller, voice: { provider: "cartesia", config: { model: "m", voice: "v" } } },
    };
    const form = caseFormOf(other as TestCase);
    expect(form.caller.voice).toBe(KEPT_VOICE);
    expect(caseBodyOf(form, other as TestCase).body?.caller.voice).toEqual(other.caller.voice);
  });

  it("say where a typed number, a turn list or a tool's JSON schema is wrong", () => {
    const { problems } = edit((form) => {
      form.caller.script = [{ text: "Hello", wait_ms: "soon" }];
      form.caller.behaviours.silent_turns = "2, three";
      form.expectations[0] = { type: "tool_called", name: "book", arguments_schema: "{ not json" };
    });
    expect(problems).toContainEqual({ path: "caller.script.0.wait_ms", message: FORM_TEXTS.number });
    expect(problems).toContainEqual({ path: "caller.behaviours.silent_turns", message: FORM_TEXTS.turns });
    expect(problems.find((p) => p.path === "expectations.0.arguments_schema")?.message).toMatch(
      /^This is not valid JSON: /,
    );
  });

  it("put the contract's own complaints on the field they are about", () => {
    const { problems } = edit((form) => {
      form.caller.mode = "persona";
      form.name = " ";
      form.expectations.push(blankExpectation("rubric"));
    });
    expect(problems).toContainEqual({ path: "name", message: "Name is required" });
    expect(problems).toContainEqual({ path: "caller.persona", message: "Describe the caller and what they want" });
    expect(problems).toContainEqual({ path: "expectations.3.rubric", message: "Write the rubric" });
  });

  it("refuse a case without expectations", () => {
    const { problems } = edit((form) => {
      form.expectations = [];
    });
    expect(problems).toEqual([{ path: "expectations", message: "Add at least one expectation" }]);
  });
});

describe("a server's field path", () => {
  it("lands on the field that holds it in the form", () => {
    expect(formPathOf("caller.behaviours.speaks_over_turns.1")).toBe("caller.behaviours.speaks_over_turns");
    expect(formPathOf("caller.voice.config.voice")).toBe("caller.voice");
    expect(formPathOf("variables.first_name")).toBe("variables");
    expect(formPathOf("expectations.2.arguments_schema.type")).toBe("expectations.2.arguments_schema");
    expect(formPathOf("caller.script.0.text")).toBe("caller.script.0.text");
  });
});
