import type { WorkflowVariable } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { describeVariableCondition, variableConditionHolds } from "./conditions.ts";
import { parseJsonObject } from "./model-requests.ts";
import { coerceValue, initialValues } from "./values.ts";

const v = (type: WorkflowVariable["type"], enum_values?: string[]): WorkflowVariable => ({
  name: "x",
  type,
  description: "",
  ...(enum_values ? { enum_values } : {}),
});

describe("workflow values: typed coercion", () => {
  it("reads numbers as people and models write them", () => {
    expect(coerceValue(v("number"), "1,250")).toBe(1250);
    expect(coerceValue(v("number"), "$ 40.5")).toBe(40.5);
    expect(coerceValue(v("number"), 3)).toBe(3);
    expect(coerceValue(v("number"), "three")).toBeNull();
    expect(coerceValue(v("number"), Number.NaN)).toBeNull();
  });

  it("reads yes and no as booleans", () => {
    expect(coerceValue(v("boolean"), "Yes")).toBe(true);
    expect(coerceValue(v("boolean"), "false")).toBe(false);
    expect(coerceValue(v("boolean"), 0)).toBe(false);
    expect(coerceValue(v("boolean"), "maybe")).toBeNull();
  });

  it("writes dates YYYY-MM-DD and refuses impossible ones", () => {
    expect(coerceValue(v("date"), "2026-03-05")).toBe("2026-03-05");
    expect(coerceValue(v("date"), "2026-03-05T10:00:00Z")).toBe("2026-03-05");
    expect(coerceValue(v("date"), "March 5, 2026")).toBe("2026-03-05");
    expect(coerceValue(v("date"), "2026-02-30")).toBeNull();
    expect(coerceValue(v("date"), "soon")).toBeNull();
  });

  it("spells enum values as declared and refuses others", () => {
    const plan = v("enum", ["Basic", "Premium"]);
    expect(coerceValue(plan, " premium ")).toBe("Premium");
    expect(coerceValue(plan, "gold")).toBeNull();
  });

  it("keeps text trimmed and treats empty text as no value", () => {
    expect(coerceValue(v("string"), "  Ann ")).toBe("Ann");
    expect(coerceValue(v("string"), "   ")).toBeNull();
    expect(coerceValue(v("string"), { a: 1 })).toBeNull();
  });

  it("starts every declared variable unset unless the call seeds it", () => {
    const vars = [
      { ...v("number"), name: "age" },
      { ...v("string"), name: "city" },
    ];
    expect(initialValues(vars, { age: "42", other: "x" })).toEqual({ age: 42, city: null });
  });
});

describe("workflow conditions on variables", () => {
  const declared = new Map<string, WorkflowVariable>([
    ["age", { ...v("number"), name: "age" }],
    ["day", { ...v("date"), name: "day" }],
    ["note", { ...v("string"), name: "note" }],
    ["vip", { ...v("boolean"), name: "vip" }],
  ]);
  const values = { age: 30, day: "2026-03-05", note: "Wants a Refund", vip: true, empty: null };
  const holds = (
    variable: string,
    operator: Parameters<typeof variableConditionHolds>[0]["operator"],
    value?: string,
  ) => variableConditionHolds({ kind: "variable", variable, operator, value }, values, declared);

  it("compares numbers as numbers and dates in calendar order", () => {
    expect(holds("age", "gt", "9")).toBe(true);
    expect(holds("age", "lte", "30")).toBe(true);
    expect(holds("age", "eq", "30.0")).toBe(true);
    expect(holds("day", "lt", "2026-04-01")).toBe(true);
    expect(holds("day", "gte", "2026-03-06")).toBe(false);
  });

  it("matches text without case and booleans by their words", () => {
    expect(holds("note", "contains", "refund")).toBe(true);
    expect(holds("note", "eq", "wants a refund")).toBe(true);
    expect(holds("vip", "eq", "true")).toBe(true);
    expect(holds("vip", "neq", "true")).toBe(false);
  });

  it("lets a variable without a value match only is_not_set", () => {
    expect(holds("empty", "is_not_set")).toBe(true);
    expect(holds("empty", "is_set")).toBe(false);
    expect(holds("empty", "neq", "x")).toBe(false);
    expect(holds("missing", "eq", "")).toBe(false);
  });

  it("describes a condition for the path", () => {
    expect(describeVariableCondition({ kind: "variable", variable: "age", operator: "gte", value: "18" })).toBe(
      'age ≥ "18"',
    );
    expect(describeVariableCondition({ kind: "variable", variable: "age", operator: "is_set" })).toBe("age is set");
  });
});

describe("model answers", () => {
  it("reads the JSON object out of fences and prose", () => {
    expect(parseJsonObject('Sure:\n```json\n{"choice": 2, "reason": "x"}\n```')).toEqual({ choice: 2, reason: "x" });
    expect(parseJsonObject("no json")).toBeNull();
    expect(parseJsonObject("[1, 2]")).toBeNull();
  });
});
