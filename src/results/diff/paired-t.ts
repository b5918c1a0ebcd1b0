/**
 * The paired t test on per-seed values: base and head ran the same seeds, and a seed names
 * the random streams (arrivals, service times, faults), so seed k of the head meets what seed
 * k of the base met. The difference seed by seed is then the change's own, and its spread is
 * usually far smaller than either side's: a change that Welch's test (which ignores the
 * pairing) calls noise at 3 seeds is often plain seed by seed. `diff` uses it whenever both
 * sides hold the same seeds with a value on every one; otherwise Welch's test (welch.ts).
 */
import { meanAndVariance, tQuantile, tTwoSided } from '../../experiment/stats.js';
import type { WelchResult } from './welch.js';

/**
 * The test of head against base, seed by seed (`base[i]` and `head[i]` from the same seed),
 * or null with fewer than two pairs. The result has Welch's shape: the mean difference
 * (head minus base), its 95% interval, the two-sided p value and the degrees of freedom (n - 1;
 * Infinity when every seed moved by the same amount).
 */
export function pairedT(base: readonly number[], head: readonly number[]): WelchResult | null {
  const n = Math.min(base.length, head.length);
  if (n < 2 || base.length !== head.length) return null;
  const d = head.map((x, i) => x - base[i]);
  const { mean, variance } = meanAndVariance(d);
  if (variance === 0) return { delta: mean, lo: mean, hi: mean, p: mean === 0 ? 1 : 0, df: Infinity };
  const se = Math.sqrt(variance / n);
  const half = tQuantile(0.975, n - 1) * se;
  return { delta: mean, lo: mean - half, hi: mean + half, p: tTwoSided(mean / se, n - 1), df: n - 1 };
}
