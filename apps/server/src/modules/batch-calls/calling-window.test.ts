import { describe, expect, it } from "vitest";
import { isOpen, nextOpening, recipientZones } from "./calling-window.ts";

const weekdays9to17 = { days: [1, 2, 3, 4, 5], start: "09:00", end: "17:00", timezone: "recipient" as const };

describe("calling windows", () => {
  it("reads the zone from the contact, else every mainland zone of its number's country", () => {
    expect(recipientZones("+14155550100", "Europe/Paris", "UTC")).toEqual(["Europe/Paris"]);
    expect(recipientZones("+14155550100", null, "UTC")).toEqual(["America/New_York", "America/Los_Angeles"]);
    expect(recipientZones("+442071838750", null, "UTC")).toEqual(["Europe/London"]);
  });

  it("is open only when open in every zone, and finds the next opening to the minute", () => {
    // Monday 2026-11-23 15:00 UTC: 10:00 in New York, 07:00 in Los Angeles.
    const at = new Date("2026-11-23T15:00:00Z");
    expect(isOpen(weekdays9to17, ["America/New_York"], at)).toBe(true);
    expect(isOpen(weekdays9to17, ["America/New_York", "America/Los_Angeles"], at)).toBe(false);
    // 09:00 in Los Angeles is 17:00 UTC (12:00 in New York).
    expect(nextOpening(weekdays9to17, ["America/New_York", "America/Los_Angeles"], at)?.toISOString()).toBe(
      "2026-11-23T17:00:00.000Z",
    );
  });

  it("skips to the next allowed day", () => {
    // Friday 2026-11-27 18:00 in London: next is Monday 09:00.
    const at = new Date("2026-11-27T18:00:00Z");
    expect(nextOpening(weekdays9to17, ["Europe/London"], at)?.toISOString()).toBe("2026-11-30T09:00:00.000Z");
  });
});
