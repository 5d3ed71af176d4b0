import { describe, expect, it } from "vitest";
import { readSchemaText, schemaText } from "./schema-text.ts";

describe("the schema field's text", () => {
  it("round-trips a schema object, and reads empty text as no schema", () => {
    const schema = { type: "object", properties: { name: { type: "string" } } };
    expect(readSchemaText(schemaText(schema))).toEqual({ value: schema, json: true });
    expect(schemaText(null)).toBe("");
    expect(readSchemaText("  \n")).toEqual({ value: null, json: false });
  });

  it("keeps text that is not JSON as typed, with the parser's message", () => {
    const reading = readSchemaText('{"type": "object",');
    expect(reading.json).toBe(false);
    expect(reading.value).toBe('{"type": "object",');
    expect(reading.syntaxError).toBeTruthy();
    expect(schemaText(reading.value)).toBe('{"type": "object",');
  });
});
