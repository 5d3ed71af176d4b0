import type { CallLog } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { rolledCallOf } from "./call-contribution.ts";

/** An ended browser call of one minute, as the call log answers it. */
function endedCall(overrides: Partial<CallLog> = {}): CallLog {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    agent_id: "00000000-0000-4000-8000-000000000002",
    agent_name: "Reception",
    channel: "web",
    direction: "inbound",
    status: "completed",
    started_at: "2026-11-29T10:15:00.000Z",
    ended_at: "2026-11-29T10:16:00.000Z",
    duration_seconds: 60,
    end_reason: "caller_hangup",
    cost: 0,
    cost_breakdown: null,
    events: [],
    turn_metrics: [],
    analysis: null,
    segments: null,
    batch_call_id: null,
    from_number: null,
    to_number: null,
    ...overrides,
  } as unknown as CallLog;
}

describe("rolledCallOf", () => {
  it("counts a squad's call under the member whose segment ended it, and one assistant's under none", () => {
    expect(rolledCallOf(endedCall()).key.squadMember).toBeNull();
    const segment = (member: string, from: string | null) => ({ member, from_member: from });
    const squadCall = endedCall({
      segments: [segment("receptionist", null), segment("billing", "receptionist")] as CallLog["segments"],
    });
    expect(rolledCallOf(squadCall).key.squadMember).toBe("billing");
  });
});
