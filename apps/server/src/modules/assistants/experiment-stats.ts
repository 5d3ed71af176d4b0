/** Figures of experiment results: percentiles and the two-proportion z-test on success rates. */

/** The nearest-rank percentile (0–100) of the values; null for none. */
export function percentile(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}

/** The standard normal CDF (Abramowitz & Stegun 7.1.26 erf, error below 1.5e-7: ample for a p-value). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/**
 * Two-sided p-value of a two-proportion z-test (pooled): how likely a difference in success rate at
 * least this large is if both variants succeed equally often. Null when a side has no judged calls.
 */
export function twoProportionPValue(
  a: { successes: number; trials: number },
  b: { successes: number; trials: number },
): number | null {
  if (a.trials === 0 || b.trials === 0) return null;
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  // Both all successes or all failures: no difference to test.
  if (se === 0) return 1;
  const z = (b.successes / b.trials - a.successes / a.trials) / se;
  return 2 * (1 - normalCdf(Math.abs(z)));
}
