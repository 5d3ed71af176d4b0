import { describe, expect, it } from "vitest";
import { outcomeOfLog } from "./telephony-dial-port.ts";

const ended = (end_reason: string) => outcomeOfLog({ status: "failed", end_reason, duration_seconds: 0 });

describe("a campaign call's outcome from its log", () => {
  it("reads a SIP trunk's refusal by its status, as carriers' reasons are read", () => {
    expect(ended("SIP 486 Busy Here")).toBe("busy");
    expect(ended("SIP 480 Temporarily Unavailable")).toBe("no-answer");
    expect(ended("SIP 408 Request Timeout")).toBe("no-answer");
    expect(ended("SIP 503 Service Unavailable")).toBe("failed");
  });
});
