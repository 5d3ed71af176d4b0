import { describe, expect, it } from "vitest";
import { eventKey, formatDuration, formatMoney, formatOffset } from "./format.ts";

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
  it("names an interruption heard before any word of the reply on its own", () => {
    expect(eventKey({ type: "interruption", heard_text: "" })).toBe("events.interruptionUnheard");
    expect(eventKey({ type: "interruption", heard_text: " " })).toBe("events.interruptionUnheard");
    expect(eventKey({ type: "interruption", heard_text: "Hello there" })).toBe("events.interruption");
    expect(eventKey({ type: "dtmf" })).toBe("events.dtmf");
  });
});
