/**
 * Mergeable histograms for quantiles over any range: a bucket's count is summed across rollup rows,
 * and a quantile is read from the summed buckets, interpolated inside the bucket it falls in. Fixed
 * boundaries (not a sketch with a state) keep a rollup row a plain sum that SQL can add up, and keep
 * a quantile's error within its bucket's width: ±50 ms below a second of latency, ±5–15 s for
 * durations under 5 minutes (docs/analytics.md).
 *
 * Bucket i (0-based) holds values v with bounds[i-1] ≤ v < bounds[i] (bounds[-1] = 0); the last
 * bucket holds every value from the last bound up — PostgreSQL's width_bucket(v, bounds) + 1.
 */

/** Latency in ms: 50 ms steps to a second, then coarser. */
export const LATENCY_BOUNDS_MS = [
  50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 600, 700, 800, 900, 1000, 1200, 1400, 1600, 1800, 2000, 2500, 3000,
  4000, 5000, 7500, 10000,
] as const;

/** Call durations in seconds. */
export const DURATION_BOUNDS_S = [
  5, 10, 15, 20, 30, 45, 60, 90, 120, 150, 180, 240, 300, 420, 600, 900, 1200, 1800, 2700, 3600,
] as const;

export const bucketCount = (bounds: readonly number[]) => bounds.length + 1;

/** The bucket a value falls in. */
export function bucketOf(bounds: readonly number[], value: number): number {
  let i = 0;
  while (i < bounds.length && value >= (bounds[i] as number)) i += 1;
  return i;
}

/** A histogram of the values. */
export function histogramOf(bounds: readonly number[], values: readonly number[]): number[] {
  const counts = new Array<number>(bucketCount(bounds)).fill(0);
  for (const v of values) counts[bucketOf(bounds, v)] = (counts[bucketOf(bounds, v)] ?? 0) + 1;
  return counts;
}

/**
 * The q-quantile (0–1) of the histogram's values: the bucket where the rank falls, linearly inside
 * it; in the open last bucket, its lower bound (nothing says how far above it the values were).
 * Null for an empty histogram.
 */
export function quantileOf(bounds: readonly number[], counts: readonly number[], q: number): number | null {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < counts.length; i += 1) {
    const n = counts[i] ?? 0;
    if (n > 0 && below + n >= rank) {
      const lower = i === 0 ? 0 : (bounds[i - 1] as number);
      if (i >= bounds.length) return lower;
      const upper = bounds[i] as number;
      return lower + ((rank - below) / n) * (upper - lower);
    }
    below += n;
  }
  return bounds.at(-1) ?? null;
}
