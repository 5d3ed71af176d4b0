import { describe, expect, it } from "vitest";
import { analyticsCsv } from "./analytics-csv.ts";

describe("analytics CSV", () => {
  it("writes a row per bucket and group with ids and labels, a total row, and quotes formula-like labels", () => {
    const csv = analyticsCsv({
      from: "2026-11-01",
      to: "2026-11-30",
      bucket: "month",
      time_zone: "UTC",
      metrics: ["calls", "success_rate"],
      group_by: ["assistant"],
      rows: [
        {
          bucket: "2026-11-01",
          keys: { assistant: { value: "a1", label: "=HYPERLINK(x)" } },
          values: { calls: 3, success_rate: null },
        },
      ],
      totals: { calls: 3, success_rate: null },
      currency: "USD",
    });
    expect(csv.split("\r\n")).toEqual([
      "bucket,assistant,assistant_label,calls,success_rate",
      "2026-11-01,a1,'=HYPERLINK(x),3,",
      "total,,,3,",
      "",
    ]);
  });
});
