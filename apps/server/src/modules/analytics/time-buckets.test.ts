import { describe, expect, it } from "vitest";
import { bucketStart, bucketsBetween } from "./time-buckets.ts";

describe("time buckets", () => {
  it("starts a week on its Monday and a month on its first day, as date_trunc does", () => {
    expect(bucketStart("2026-11-29", "week")).toBe("2026-11-23");
    expect(bucketStart("2026-11-23", "week")).toBe("2026-11-23");
    expect(bucketStart("2026-11-29", "month")).toBe("2026-11-01");
  });

  it("lists every bucket a range touches, the partial ones at its ends included", () => {
    expect(bucketsBetween("2026-11-29", "2026-12-02", "day")).toEqual([
      "2026-11-29",
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
    ]);
    expect(bucketsBetween("2026-11-29", "2026-12-08", "week")).toEqual(["2026-11-23", "2026-11-30", "2026-12-07"]);
    expect(bucketsBetween("2026-10-31", "2026-12-01", "month")).toEqual(["2026-10-01", "2026-11-01", "2026-12-01"]);
  });
});
