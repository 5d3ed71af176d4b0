import { describe, expect, it } from "vitest";
import {
  AnalysisSettings,
  AssistantFields,
  analysisSchemaIssues,
  isAnalysisSchema,
  StructuredDataPlan,
  UpdateAssistantBody,
  verdictPassed,
} from "./index.ts";

const booking = {
  type: "object",
  properties: {
    name: { type: "string", description: "The caller's full name" },
    party_size: { type: "integer" },
    outcome: { type: "string", enum: ["booked", "declined", "callback"] },
    wants_newsletter: { type: "boolean" },
    dishes: { type: "array", items: { type: "string" } },
    address: { type: "object", properties: { city: { type: "string" }, zip: { type: "string" } }, required: ["city"] },
  },
  required: ["name", "outcome"],
};

const paths = (schema: unknown) => analysisSchemaIssues(schema).map((i) => i.path.join("."));

describe("the structured-data schema subset", () => {
  it("accepts an object of typed properties with enums, arrays, nested objects and required", () => {
    expect(analysisSchemaIssues(booking)).toEqual([]);
    expect(isAnalysisSchema(booking)).toBe(true);
  });

  it("needs an object at the root with at least one property", () => {
    expect(paths({ type: "string" })).toEqual([""]);
    expect(paths([])).toEqual([""]);
    expect(paths(null)).toEqual([""]);
    expect(paths({ type: "object" })).toEqual(["properties"]);
    expect(paths({ type: "object", properties: {} })).toEqual(["properties"]);
  });

  it("names each bad property at its path", () => {
    const schema = {
      type: "object",
      properties: {
        when: { type: "date" },
        "bad name": { type: "string" },
        list: { type: "array" },
        count: { type: "number", enum: ["1"] },
        note: { type: "string", format: "email" },
        inner: { type: "object", properties: { x: { type: "string", items: { type: "string" } } } },
      },
      required: ["missing"],
    };
    expect(paths(schema)).toEqual([
      "properties.when.type",
      "properties.bad name",
      "properties.list.items",
      "properties.count.enum",
      "properties.note.format",
      "properties.inner.properties.x.items",
      "required",
    ]);
  });

  it("refuses empty or repeated enum values", () => {
    const withEnum = (values: unknown) => ({ type: "object", properties: { a: { type: "string", enum: values } } });
    expect(isAnalysisSchema(withEnum([]))).toBe(false);
    expect(isAnalysisSchema(withEnum(["a", "a"]))).toBe(false);
    expect(isAnalysisSchema(withEnum(["a", ""]))).toBe(false);
    expect(isAnalysisSchema(withEnum(["a", "b"]))).toBe(true);
  });

  it("limits nesting to four levels below the root", () => {
    const nest = (levels: number): Record<string, unknown> =>
      levels === 0 ? { type: "string" } : { type: "object", properties: { next: nest(levels - 1) } };
    expect(isAnalysisSchema({ type: "object", properties: { a: nest(3) } })).toBe(true);
    expect(isAnalysisSchema({ type: "object", properties: { a: nest(4) } })).toBe(false);
    const arrays = { type: "array", items: { type: "array", items: { type: "array", items: { type: "string" } } } };
    expect(isAnalysisSchema({ type: "object", properties: { a: arrays } })).toBe(true);
    const deeper = { type: "array", items: arrays };
    expect(isAnalysisSchema({ type: "object", properties: { a: deeper } })).toBe(false);
  });
});

describe("analysis settings", () => {
  it("are off by default, so an assistant saved without them analyses nothing", () => {
    const fields = AssistantFields.parse({ name: "Front desk" });
    expect(fields.analysis).toEqual({
      summary: { enabled: false, prompt: "" },
      success_evaluation: { enabled: false, rubric: "", scale: "pass_fail" },
      structured_data: { enabled: false, schema: null, prompt: "" },
    });
  });

  it("need a schema when extraction is on, and report its problems at their path", () => {
    const missing = StructuredDataPlan.safeParse({ enabled: true });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]?.path).toEqual(["schema"]);
    const bad = AnalysisSettings.safeParse({
      structured_data: { enabled: true, schema: { type: "object", properties: { a: { type: "x" } } } },
    });
    expect(bad.error?.issues.map((i) => i.path.join("."))).toEqual(["structured_data.schema.properties.a.type"]);
    expect(AnalysisSettings.safeParse({ structured_data: { enabled: true, schema: booking } }).success).toBe(true);
  });

  it("may be updated alone without filling in other assistant fields", () => {
    const patch = UpdateAssistantBody.parse({ analysis: { summary: { enabled: true } } });
    expect(Object.keys(patch)).toEqual(["analysis"]);
    expect(patch.analysis?.summary).toEqual({ enabled: true, prompt: "" });
  });
});

describe("verdicts as a yes/no", () => {
  it("pass on pass, on 6 or more, and on excellent or good", () => {
    expect(verdictPassed({ scale: "pass_fail", verdict: "pass" })).toBe(true);
    expect(verdictPassed({ scale: "pass_fail", verdict: "fail" })).toBe(false);
    expect(verdictPassed({ scale: "numeric_1_10", verdict: 6 })).toBe(true);
    expect(verdictPassed({ scale: "numeric_1_10", verdict: 5 })).toBe(false);
    expect(verdictPassed({ scale: "descriptive", verdict: "good" })).toBe(true);
    expect(verdictPassed({ scale: "descriptive", verdict: "fair" })).toBe(false);
  });
});
