import { describe, expect, it } from "vitest";
import { languageName } from "./languages.ts";

describe("language names", () => {
  it("name a code in the interface language", () => {
    expect(languageName("fr", "en")).toBe("French");
    expect(languageName("de", "es")).toBe("alemán");
  });

  it("fall back to the code itself", () => {
    expect(languageName("not a code", "en")).toBe("not a code");
  });
});
