import { describe, expect, it } from "vitest";
import { sipEndReason, sipOutcomeOf } from "./failure-reason.ts";

describe("a SIP call's end reason", () => {
  it("carries the final status and the far end's reason phrase", () => {
    expect(sipEndReason(503, "Service Unavailable")).toBe("SIP 503 Service Unavailable");
    expect(sipEndReason(404, "")).toBe("SIP 404");
  });

  it("keeps a carrier's phrase to plain words, which the web can look up as a key", () => {
    expect(sipEndReason(503, "Trunk: capacity.exceeded\r\n")).toBe("SIP 503 Trunk capacity exceeded");
    expect(sipEndReason(480, "x".repeat(100))).toBe(`SIP 480 ${"x".repeat(60)}`);
  });

  it("reads as a campaign outcome", () => {
    expect(sipOutcomeOf("SIP 486 Busy Here")).toBe("busy");
    expect(sipOutcomeOf("SIP 408 Request Timeout")).toBe("no-answer");
    expect(sipOutcomeOf("SIP 503 Service Unavailable")).toBe("failed");
    expect(sipOutcomeOf("caller_hangup")).toBeNull();
  });
});
