/**
 * Histogram buckets (upper bounds `le` and cumulative counts, as Prometheus keeps them) become
 * the knots of a piecewise-linear inverse CDF here, whatever file they came from (a Prometheus
 * query's JSON or a CSV), so both formats refuse the same slips in the same words.
 *
 * Within a bucket the values are spread uniformly (the inverse CDF is a straight line from the
 * bucket's lower bound to its upper one), which is what Prometheus' histogram_quantile assumes;
 * the lowest bucket starts at 0 (durations are not negative). The +Inf bucket has no upper
 * bound to interpolate to: it is dropped when it holds nothing more than the last finite
 * bucket, spread up to `max` when the scenario gives one, and refused otherwise.
 */
import { seconds } from './trace-steps.js';
import type { Knots } from './latency-data.js';

export interface Bucket {
  /** Upper bound in seconds (Infinity for +Inf). */
  le: number;
  /** Observations at or below le (cumulative). */
  count: number;
  /** The bound as the file writes it (in its unit), for messages. */
  text?: string;
}

export type BucketsOut = Knots | { at: number; message: string };

/** `buckets` in increasing le (the readers check or sort them); `at` in a failure is the bucket's index (-1: the whole histogram). */
export function knotsFromBuckets(buckets: Bucket[], max: number | undefined): BucketsOut {
  if (buckets.length === 0) return { at: -1, message: 'no buckets' };
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i];
    if (b.le < 0) return { at: i, message: `the bucket le=${leText(b)} is below 0: durations are 0 or more` };
    if (i > 0 && b.count < buckets[i - 1].count) {
      return { at: i, message: `the buckets are not cumulative: le=${leText(b)} counts ${b.count}, fewer than le=${leText(buckets[i - 1])} below it (${buckets[i - 1].count}); each bucket counts the observations at or below its bound, so counts never decrease (per-bucket counts? add them up)` };
    }
  }
  let bs = buckets;
  const top = bs[bs.length - 1];
  if (top.le === Infinity) {
    const below = bs.length > 1 ? bs[bs.length - 2] : { le: 0, count: 0 };
    if (top.count > below.count) {
      if (max === undefined) {
        const share = (100 * (top.count - below.count)) / top.count;
        return { at: bs.length - 1, message: `${top.count - below.count} observations (${Number(share.toPrecision(3))}%) are above the largest bound, le=${leText(below)}, in the +Inf bucket, which has no upper bound to spread them to: give max (the largest duration you believe, e.g. max: 30s, above ${seconds(below.le)}), or export buckets that reach the slowest requests` };
      }
      if (!(max > below.le)) return { at: bs.length - 1, message: `max (${seconds(max)}) must be above the largest finite bound, le=${leText(below)} (${seconds(below.le)}): the +Inf bucket's observations are spread between the two` };
      bs = [...bs.slice(0, -1), { le: max, count: top.count }];
    } else {
      bs = bs.slice(0, -1);
    }
  }
  const total = bs.length > 0 ? bs[bs.length - 1].count : 0;
  if (!(total > 0)) return { at: -1, message: 'the histogram holds no observations (every bucket counts 0): export a range when the service was answering' };
  // Knots: (0, 0), then (count / total, le) for each bucket. Leading knots at probability 0 and
  // trailing ones at 1 are dropped but the last and first of them (empty buckets at either
  // end bound nothing), and so are the middle ones of three or more at one probability (a run
  // of empty buckets is one jump, from its first bound to its last).
  const probs: number[] = [0];
  const values: number[] = [0];
  for (const b of bs) {
    const p = b.count === total ? 1 : b.count / total;
    const n = probs.length;
    if (n >= 2 && probs[n - 1] === p && probs[n - 2] === p) values[n - 1] = b.le;
    else if (p === 0 && probs[n - 1] === 0) values[n - 1] = b.le;
    else { probs.push(p); values.push(b.le); }
    if (p === 1) break;
  }
  return { probs, values, observations: total };
}

/** A bound as the file writes it, or as Prometheus would. */
function leText(b: Bucket): string {
  return b.text ?? (b.le === Infinity ? '+Inf' : String(b.le));
}

/** A bucket bound as written: a number or +Inf (Prometheus writes "+Inf"); NaN when it is neither. */
export function parseLe(text: string): number {
  const t = text.trim();
  if (/^\+?inf(inity)?$/i.test(t)) return Infinity;
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t) ? Number(t) : NaN;
}
