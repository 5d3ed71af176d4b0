import { describe, expect, it } from "vitest";
import { normalCdf, percentile, twoProportionPValue } from "./experiment-stats.ts";

describe("experiment statistics", () => {
  it("takes nearest-rank percentiles", () => {
    const values = [120, 80, 100, 400, 90, 110, 95, 105, 85, 1000];
    expect(percentile(values, 50)).toBe(100);
    expect(percentile(values, 95)).toBe(1000);
    expect(percentile([], 50)).toBeNull();
  });

  it("matches the normal table", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 6);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 3);
    expect(normalCdf(-1.645)).toBeCloseTo(0.05, 3);
  });

  it("gives a two-proportion p-value as a statistics package does", () => {
    // 60/100 vs 75/100: z = 2.2646, p = 0.0235 (pooled two-sided test).
    expect(twoProportionPValue({ successes: 60, trials: 100 }, { successes: 75, trials: 100 })).toBeCloseTo(0.0235, 3);
    expect(twoProportionPValue({ successes: 50, trials: 100 }, { successes: 50, trials: 100 })).toBeCloseTo(1, 6);
    expect(twoProportionPValue({ successes: 5, trials: 5 }, { successes: 9, trials: 9 })).toBe(1);
    expect(twoProportionPValue({ successes: 0, trials: 0 }, { successes: 3, trials: 4 })).toBeNull();
  });
});
