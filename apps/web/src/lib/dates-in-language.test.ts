import { describe, expect, it } from "vitest";
import { datesIn } from "./dates-in-language.ts";

describe("dates in the interface language", () => {
  it("write a German call's start the German way, whatever the browser's locale", () => {
    const german = datesIn("de");
    const expected = new Intl.DateTimeFormat("de", { dateStyle: "medium", timeStyle: "short" }).format(
      new Date("2026-11-28T18:34:00Z"),
    );
    expect(german.moment("2026-11-28T18:34:00Z")).toBe(expected);
    expect(german.moment("2026-11-28T18:34:00Z")).toMatch(/^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
  });

  it("name billing months and days in UTC", () => {
    expect(datesIn("de").period("2026-03")).toBe("März 2026");
    expect(datesIn("en").day("2026-03-01")).toBe("Mar 1");
  });
});
