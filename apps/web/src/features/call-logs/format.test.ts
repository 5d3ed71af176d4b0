import { describe, expect, it } from "vitest";
import { formatDuration, formatMoney, formatOffset } from "./format.ts";

describe("call log formatting", () => {
  it("formats durations as m:ss", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(65.4)).toBe("1:05");
    expect(formatDuration(-3)).toBe("0:00");
  });
  it("formats offsets with tenths", () => {
    expect(formatOffset(61_250)).toBe("1:01.3");
  });
  it("keeps sub-cent costs visible", () => {
    expect(formatMoney(0.0123)).toBe("$0.0123");
    expect(formatMoney(12.5)).toBe("$12.50");
  });
});
