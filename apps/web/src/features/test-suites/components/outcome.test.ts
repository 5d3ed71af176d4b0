import { describe, expect, it } from "vitest";
import { attemptsText, deltaTone, formatCost, formatDelta, formatMs, outcomeColour, outcomeIsLive } from "./outcome.ts";

describe("outcome chips", () => {
  it("colour a flaky case apart from a failed one, and a passed one green", () => {
    expect(outcomeColour("passed")).toBe("success");
    expect(outcomeColour("failed")).toBe("error");
    expect(outcomeColour("flaky")).toBe("warning");
    expect(outcomeColour("cancelled")).toBe("default");
  });

  it("count a queued, pending or running status as still moving", () => {
    expect(["queued", "pending", "running"].every((s) => outcomeIsLive(s as "queued"))).toBe(true);
    expect(outcomeIsLive("error")).toBe(false);
  });

  it("say attempts as passed/made only when a case was called more than once", () => {
    expect(attemptsText({ passed_attempts: 2, attempts: 3 })).toBe("2/3");
    expect(attemptsText({ passed_attempts: 1, attempts: 1 })).toBeNull();
  });
});

describe("run figures", () => {
  it("write latencies in ms below a second and in seconds above", () => {
    expect(formatMs(850)).toBe("850 ms");
    expect(formatMs(1420)).toBe("1.4 s");
    expect(formatMs(null)).toBe("—");
  });

  it("write a test call's cost with the digits its cents need", () => {
    expect(formatCost(0.0042)).toBe("$0.0042");
    expect(formatCost(1.5)).toBe("$1.50");
    expect(formatCost(0)).toBe("$0.00");
  });

  it("sign a delta and colour a slower or dearer run as worse", () => {
    expect(formatDelta(120, formatMs)).toBe("+120 ms");
    expect(formatDelta(-0.004, formatCost)).toBe("−$0.0040");
    expect(formatDelta(0, formatMs)).toBe("±0 ms");
    expect(formatDelta(null, formatMs)).toBeNull();
    expect(deltaTone(5)).toBe("error");
    expect(deltaTone(-5)).toBe("success");
  });
});
