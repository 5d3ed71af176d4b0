import { describe, expect, it } from "vitest";
import { callLogsHref, zoneMidnight } from "./call-logs-link.ts";

describe("the call-log list over the same calls", () => {
  it("starts a day at midnight in the workspace's zone", () => {
    expect(zoneMidnight("2026-11-10", "UTC")).toBe("2026-11-10T00:00:00.000Z");
    expect(zoneMidnight("2026-11-10", "Europe/Paris")).toBe("2026-11-09T23:00:00.000Z");
    expect(zoneMidnight("2026-07-10", "Europe/Paris")).toBe("2026-07-09T22:00:00.000Z");
    expect(zoneMidnight("2026-11-10", "Asia/Kolkata")).toBe("2026-11-09T18:30:00.000Z");
  });

  it("passes the range, the assistant and the channel", () => {
    const href = callLogsHref(
      {
        from: "2026-11-01",
        to: "2026-11-30",
        bucket: "day",
        metrics: [],
        groupBy: "",
        assistantId: "a1",
        phoneNumber: "",
        campaignId: "",
        channel: "phone",
      },
      "UTC",
    );
    const query = new URL(href, "http://x").searchParams;
    expect(query.get("date_from")).toBe("2026-11-01T00:00:00.000Z");
    expect(query.get("date_to")).toBe("2026-12-01T00:00:00.000Z");
    expect(query.get("agent_id")).toBe("a1");
    expect(query.get("channel")).toBe("phone");
  });
});
