import { describe, expect, it } from "vitest";
import { firstIfEmpty } from "./provider-options.ts";

describe("auto-selecting a fetched option", () => {
  const options = [
    { value: "gpt-4o", label: "GPT-4o" },
    { value: "gpt-4o-mini", label: "GPT-4o mini" },
  ];

  it("keeps a custom model the list does not know", () => {
    expect(firstIfEmpty("llama3.2:3b", options)).toBeNull();
  });

  it("fills an empty field with the first option", () => {
    expect(firstIfEmpty(undefined, options)).toBe("gpt-4o");
    expect(firstIfEmpty("  ", options)).toBe("gpt-4o");
    expect(firstIfEmpty("", [])).toBeNull();
  });
});
