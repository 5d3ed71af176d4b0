import { describe, expect, it } from "vitest";
import { bucketOf, histogramOf, LATENCY_BOUNDS_MS, quantileOf } from "./histograms.ts";

describe("histograms", () => {
  it("puts a value on a bound into the bucket above it, as width_bucket does", () => {
    expect(bucketOf([100, 200], 50)).toBe(0);
    expect(bucketOf([100, 200], 100)).toBe(1);
    expect(bucketOf([100, 200], 250)).toBe(2);
  });

  it("reads quantiles within a bucket's width of the exact ones", () => {
    const values = Array.from({ length: 1000 }, (_, i) => 200 + i);
    const counts = histogramOf(LATENCY_BOUNDS_MS, values);
    expect(Math.abs((quantileOf(LATENCY_BOUNDS_MS, counts, 0.5) ?? 0) - 700)).toBeLessThanOrEqual(100);
    expect(Math.abs((quantileOf(LATENCY_BOUNDS_MS, counts, 0.95) ?? 0) - 1150)).toBeLessThanOrEqual(200);
    expect(quantileOf(LATENCY_BOUNDS_MS, histogramOf(LATENCY_BOUNDS_MS, []), 0.5)).toBeNull();
  });

  it("merges by adding counts", () => {
    const a = histogramOf([10], [1, 2, 30]);
    const b = histogramOf([10], [40]);
    expect(a.map((n, i) => n + (b[i] ?? 0))).toEqual([2, 2]);
  });
});
