/**
 * Welch's t test on per-seed values: is the change between two experiments larger than the
 * seeds' own spread? `diff` flags a change "beyond seed noise" only when this test says so
 * (docs/diff.md says why this test and not overlapping intervals).
 *
 * Welch's form, not Student's pooled one, because a change of policy changes the spread too
 * (a variant that recovers in 2 minutes on every seed against one that recovers anywhere
 * from 5 to 40): the two samples are not assumed to share a variance. The t distribution is
 * the project's own (src/experiment/stats.ts), exact for fractional degrees of freedom.
 */
import { meanAndVariance, tQuantile, tTwoSided } from '../../experiment/stats.js';

export interface WelchResult {
  /** Mean of `head` minus mean of `base`. */
  delta: number;
  /** 95% interval of the difference of means. */
  lo: number;
  hi: number;
  /** Two-sided p value; 0 when neither side varies and the means differ, 1 when they are equal. */
  p: number;
  /** Welch–Satterthwaite degrees of freedom (Infinity when neither side varies). */
  df: number;
}

/**
 * The test of head against base, or null when a side has fewer than two values (one seed
 * says nothing about the spread, so no change can be told from noise).
 */
export function welch(base: readonly number[], head: readonly number[]): WelchResult | null {
  if (base.length < 2 || head.length < 2) return null;
  const a = meanAndVariance(base), b = meanAndVariance(head);
  const delta = b.mean - a.mean;
  const va = a.variance / base.length, vb = b.variance / head.length;
  const se2 = va + vb;
  if (se2 === 0) {
    // Every seed agrees on each side: any difference is the policy's, not the seeds'.
    return { delta, lo: delta, hi: delta, p: delta === 0 ? 1 : 0, df: Infinity };
  }
  const df = (se2 * se2) / ((va * va) / (base.length - 1) + (vb * vb) / (head.length - 1));
  const se = Math.sqrt(se2);
  const t = delta / se;
  const p = tTwoSided(t, df);
  const half = tQuantile(0.975, df) * se;
  return { delta, lo: delta - half, hi: delta + half, p, df };
}
