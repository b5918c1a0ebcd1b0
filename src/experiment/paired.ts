/**
 * Is one variant better than another on one objective, beyond seed noise? Every variant runs
 * the same seeds, and a seed names the random streams (arrivals, service times, faults), so
 * seed 7 of one variant meets the same arrivals as seed 7 of another: the difference between
 * the two is the policy's, and its spread across seeds is far smaller than the spread of
 * either variant's own values. The comparison is therefore paired, seed by seed, as `diff`
 * and any careful A/B reading would do: the mean of the per-seed differences against its
 * Student t interval. Two variants differ on an objective when
 *
 * 1. their means differ by more than the measure's tie tolerance (src/measures/measure.ts:
 *    a difference nobody would act on, such as 8 s of recovery, is a tie however sure), and
 * 2. with two or more seeds in common, the 95% t interval of the paired differences leaves
 *    out 0 (the difference is the policy's, not the seeds'; PAIRED_CONFIDENCE).
 *
 * With one seed there is nothing to judge noise by: the tolerance alone decides, and the
 * ranking says so (RankedPoint.pairedSeeds). When the two ran different seeds (an
 * interrupted run, a failed seed), the pairs are the seeds in common and the paired mean must
 * point the same way as the means the reader sees, or it is a tie. No value is worse than
 * any value only where the measure says null is the worst outcome (nullIsWorst: recovery time,
 * never recovered); elsewhere null is "nothing to measure" (no trigger, no action ended) and
 * sets no variant above another.
 */
import { tieLimit, tieTolerance, type MeasureDescriptor } from '../measures/measure.js';
import type { PointAggregate } from './aggregate.js';
import { meanAndVariance, tQuantile } from './stats.js';

/**
 * The confidence of the paired interval: 95%, so that a pair with no real difference is
 * found different on an objective in at most 5% of comparisons. An experiment that adds
 * seeds where they decide something looks several times, and judges each look at a higher
 * confidence so that the 5% holds over all its looks (src/experiment/adaptive-seeds.ts).
 */
export const PAIRED_CONFIDENCE = 0.95;

/** Which of two variants is better on one objective: 'a', 'b', or neither beyond tolerance and seed noise. */
export type Side = 'a' | 'b' | null;

/** The per-seed values of a measure at a point, by seed (a fraction's yes/no as 1/0). */
function bySeed(m: MeasureDescriptor, p: PointAggregate): Map<number, number | null> {
  const out = new Map<number, number | null>();
  for (const s of p.perSeed) {
    const x = s.measures[m.key] ?? null;
    out.set(s.seed, x === null || m.aggregate !== 'fraction' ? x : x >= 0.5 ? 1 : 0);
  }
  return out;
}

/** The seeds both points ran, in order. */
export function commonSeeds(a: PointAggregate, b: PointAggregate): number[] {
  const theirs = new Set(b.perSeed.map((s) => s.seed));
  return a.perSeed.map((s) => s.seed).filter((s) => theirs.has(s));
}

/**
 * Are two values of a measure a tie? Within the larger of its absolute and relative
 * tolerance (tieTolerance: its own, else its unit's default; "10 s or 5%": 156 s and 166 s
 * tie, 20 min and 21 min do not); with a tolerance of 0, equal as summary.json writes them
 * (6 significant digits). No value ties only with no value.
 */
export function tied(m: MeasureDescriptor, a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  const { relative, absolute } = tieTolerance(m);
  if (relative === 0 && absolute === 0) return Number(a.toPrecision(6)) === Number(b.toPrecision(6));
  return Math.abs(a - b) <= tieLimit(m, a, b) + 1e-12;
}

/** Which way `x` beats `y` on the measure: 'a' when x is better; null when equal. */
function direction(m: MeasureDescriptor, x: number, y: number): Side {
  if (x === y) return null;
  const lower = x < y;
  return (m.better === 'higher' ? !lower : lower) ? 'a' : 'b';
}

/**
 * The paired comparison of `a` and `b` on `m` at one point (see the header). Reads the means
 * the aggregation kept (`measures[key].value`) and the per-seed values (`perSeed`).
 */
export function compareOn(m: MeasureDescriptor, a: PointAggregate, b: PointAggregate, confidence = PAIRED_CONFIDENCE): Side {
  return judge(m, a, b, confidence).side;
}

/**
 * The comparison with what decided it: `side` as compareOn gives it, and `leaning`, the side
 * the means favour beyond the tie tolerance when the paired seeds cannot tell it from noise
 * (null otherwise): "back 16 s sooner on average, within seed noise over 3 seeds".
 */
export function judge(m: MeasureDescriptor, a: PointAggregate, b: PointAggregate, confidence = PAIRED_CONFIDENCE): { side: Side; leaning: Side } {
  const side = decided(m, a, b, confidence);
  if (side !== null) return { side, leaning: null };
  const x = a.measures[m.key]?.value ?? null;
  const y = b.measures[m.key]?.value ?? null;
  const beyondTolerance = x !== null && y !== null && !tied(m, x, y);
  return { side: null, leaning: beyondTolerance ? direction(m, x, y) : null };
}

function decided(m: MeasureDescriptor, a: PointAggregate, b: PointAggregate, confidence: number): Side {
  const x = a.measures[m.key]?.value ?? null;
  const y = b.measures[m.key]?.value ?? null;
  if (x === null || y === null) return x === y || !m.nullIsWorst ? null : x === null ? 'b' : 'a';
  if (tied(m, x, y)) return null;
  const side = direction(m, x, y);
  const seeds = commonSeeds(a, b);
  if (seeds.length < 2) return side;
  const sameSeeds = seeds.length === a.perSeed.length && seeds.length === b.perSeed.length;
  const xs = bySeed(m, a), ys = bySeed(m, b);
  const d: number[] = [];
  for (const s of seeds) {
    const u = xs.get(s) ?? null, v = ys.get(s) ?? null;
    // A seed without a value on one side (a run that never recovered) cannot be differenced:
    // the means, which are null unless every seed had one, were not null, so this is a
    // measure whose per-seed values may be missing where its mean is not; go by the means.
    if (u === null || v === null) return side;
    d.push(u - v);
  }
  const { mean, variance } = meanAndVariance(d);
  const half = variance === 0 ? 0 : tQuantile(1 - (1 - confidence) / 2, d.length - 1) * Math.sqrt(variance / d.length);
  const paired = mean !== 0 && Math.abs(mean) > half ? direction(m, mean, 0) : null;
  // Over other seeds than the means' own, the pairs may point the other way: no verdict then.
  return sameSeeds || paired === side ? paired : null;
}
