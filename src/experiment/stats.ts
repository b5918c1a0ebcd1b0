/**
 * The small statistics an experiment needs across seeds: mean and a 95% confidence
 * interval from Student's t (seeds are few, so the normal 1.96 would be too narrow).
 */

// t quantiles at 0.975 for 1..30 degrees of freedom; beyond 30 the normal value is close enough.
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
  2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export function tQuantile975(df: number): number {
  if (df < 1) return NaN;
  return df <= 30 ? T975[df - 1] : 1.96;
}

export interface Estimate {
  mean: number;
  /** 95% interval [lo, hi]; equal to [mean, mean] with a single observation. */
  ci95: [number, number];
}

export function estimate(xs: readonly number[]): Estimate {
  const n = xs.length;
  if (n === 0) return { mean: NaN, ci95: [NaN, NaN] };
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { mean, ci95: [mean, mean] };
  const variance = xs.reduce((a, x) => a + (x - mean) * (x - mean), 0) / (n - 1);
  const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
  return { mean, ci95: [mean - half, mean + half] };
}
