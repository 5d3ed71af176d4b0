import type { AnalysisObjectSchema } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { dataIssues, jsonInAnswer } from "./structured-data.ts";

const schema: AnalysisObjectSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    party_size: { type: "integer" },
    budget: { type: "number" },
    outcome: { type: "string", enum: ["booked", "declined"] },
    newsletter: { type: "boolean" },
    dishes: { type: "array", items: { type: "string" } },
    address: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  required: ["name", "outcome"],
};

describe("extracted data against the user's schema", () => {
  it("accepts data that fits, with optional properties left out or null", () => {
    expect(dataIssues({ name: "Ada", outcome: "booked" }, schema)).toEqual([]);
    const full = {
      name: "Ada",
      party_size: 4,
      budget: 120.5,
      outcome: "declined",
      newsletter: false,
      dishes: ["soup", "tart"],
      address: { city: "Lyon" },
    };
    expect(dataIssues(full, schema)).toEqual([]);
    expect(dataIssues({ name: "Ada", outcome: "booked", party_size: null }, schema)).toEqual([]);
  });

  it("names every misfit with its path", () => {
    const data = {
      outcome: "maybe",
      party_size: 2.5,
      budget: "lots",
      newsletter: "yes",
      dishes: ["soup", 3],
      address: {},
      extra: 1,
    };
    expect(dataIssues(data, schema)).toEqual([
      "$.name is required",
      '$.outcome must be one of "booked", "declined"',
      "$.party_size must be an integer",
      "$.budget must be a number",
      "$.newsletter must be true or false",
      "$.dishes[1] must be a string",
      "$.address.city is required",
      "$.extra is not in the schema",
    ]);
    expect(dataIssues([], schema)).toEqual(["$ must be an object"]);
  });
});

describe("reading JSON out of a model's answer", () => {
  it("takes bare JSON, a fenced block, or the object inside a sentence", () => {
    expect(jsonInAnswer('{"a":1}')).toEqual({ a: 1 });
    expect(jsonInAnswer('```json\n{"a": 2}\n```')).toEqual({ a: 2 });
    expect(jsonInAnswer('Here it is: {"a": {"b": 3}} — done.')).toEqual({ a: { b: 3 } });
    expect(jsonInAnswer("no json here")).toBeUndefined();
  });
});
