import type { BatchCall } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { callsUnderWay } from "./use-calls-under-way.ts";

const campaign = (status: BatchCall["status"], inProgress: number) =>
  ({ status, progress: { in_progress: inProgress } }) as BatchCall;

describe("callsUnderWay", () => {
  it("holds for a stopped or finished campaign with a call still on the line", () => {
    expect(callsUnderWay(campaign("cancelled", 1))).toBe(true);
    expect(callsUnderWay(campaign("completed", 2))).toBe(true);
  });

  it("leaves live campaigns to their own poll, and idle ones alone", () => {
    expect(callsUnderWay(campaign("running", 1))).toBe(false);
    expect(callsUnderWay(campaign("cancelled", 0))).toBe(false);
  });
});
