/**
 * How hard the clients hit the server: the peak of the offered load against the 1x baseline,
 * and how much of it was retries. Server measures: load is the server's, whoever sends it.
 */
import { defineMeasure, finiteOrNull } from './measure.js';
import type { RunView } from './view.js';

/** Per bucket: retries ÷ attempts at the server (ground truth); NaN below `minAttemptsForShare` attempts. */
export function retryShareSeries(v: RunView): Float64Array {
  const s = v.record.series;
  // Max with 1 so that minAttemptsForShare 0 still leaves an empty bucket without a share.
  const min = Math.max(1, v.settings.minAttemptsForShare);
  return Float64Array.from({ length: v.n }, (_, i) => (s.attempts[i] >= min ? s.retries[i] / s.attempts[i] : NaN));
}

/**
 * How many buckets, from the first, a peak may come from: all but a last bucket the horizon
 * cuts to under half the bucket width (unless it is the only one). A rate over a sliver is
 * noise: 8 attempts in the last 0.1 s of a 50/s run read as a peak of 1.6x where the whole
 * buckets peaked at 1.09x. From half a bucket on, it is rated by its real width.
 */
function peakCandidates(v: RunView): number {
  return v.n > 1 && v.widths[v.n - 1] < v.bucketS / 2 ? v.n - 1 : v.n;
}

/** The bucket of highest offered load (ties: the first); with a 0 baseline, of the most attempts per second; -1 when none. */
function peakBucket(v: RunView): number {
  const s = v.record.series;
  const load = (i: number) => (v.baseline.rate > 0 ? v.loadMultiple[i] : v.widths[i] > 0 ? s.attempts[i] / v.widths[i] : NaN);
  let peak = -1;
  for (let i = 0, n = peakCandidates(v); i < n; i++) {
    const x = load(i);
    if (Number.isFinite(x) && (peak < 0 || x > load(peak))) peak = i;
  }
  return peak;
}

/** The largest finite value among the first n; 0 when none is. */
function finiteMax(xs: Float64Array, n: number): number {
  let m = -Infinity;
  for (let i = 0; i < n; i++) if (Number.isFinite(xs[i]) && xs[i] > m) m = xs[i];
  return m === -Infinity ? 0 : m;
}

export const peakLoadMultiple = defineMeasure({
  key: 'peakLoadMultiple',
  cost: true,
  headline: true,
  label: 'peak load',
  doc: 'Highest per-bucket offered load: attempts reaching the server per second divided by the baseline rate (0 when there is no baseline), over the buckets (a last bucket the horizon cuts to under half the bucket width is left out; from half on it is rated by its real width).',
  unit: 'multiple',
  better: 'lower',
  aggregate: 'mean',
  scope: 'server',
  tie: { relative: 0.05 },
  compute: (v) => finiteMax(v.loadMultiple, peakCandidates(v)),
});

export const peakRetryShare = defineMeasure({
  key: 'peakRetryShare',
  cost: true,
  label: 'peak retry share',
  doc: 'Highest per-bucket share of attempts that were retries (ground truth), over buckets with enough attempts to make the ratio meaningful; 0 when none has.',
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  scope: 'server',
  range: { min: 0, max: 1 },
  compute: (v) => finiteMax(retryShareSeries(v), v.n),
});

export const retryShareAtPeak = defineMeasure({
  key: 'retryShareAtPeak',
  cost: true,
  headline: true,
  label: 'retries at peak',
  doc: 'Share of attempts that were retries (ground truth) in the bucket of peak offered load, the one peakLoadMultiple comes from: how much of the peak the retries made. null when that bucket has too few attempts for a meaningful ratio.',
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  scope: 'server',
  range: { min: 0, max: 1 },
  compute: (v) => {
    const peak = peakBucket(v);
    return peak >= 0 ? finiteOrNull(retryShareSeries(v)[peak]) : null;
  },
});

export const excessAttempts = defineMeasure({
  key: 'excessAttempts',
  cost: true,
  label: 'excess load',
  doc: 'Attempts the server received after the last trigger beyond its healthy load limit (the pre-fault load x (1 + loadExcess)), bucket by bucket: the extra work returning clients put on it. A wave every 30 s counts every time; the same clients spread out count once. 0 without triggers or a baseline.',
  unit: 'count',
  better: 'lower',
  aggregate: 'mean',
  scope: 'server',
  headline: true,
  tie: { relative: 0.05, absolute: 100 },
  compute: (v) => {
    const lastEnd = v.lastTriggerEndS;
    const limit = v.limits.maxLoadMultiple * v.baseline.rate; // attempts per second
    if (lastEnd === null || !(limit > 0)) return 0;
    const attempts = v.record.series.attempts;
    let excess = 0;
    for (let i = 0; i < v.n; i++) {
      const start = i * v.bucketS, end = start + v.widths[i];
      if (end <= lastEnd) continue;
      if (start >= lastEnd) {
        excess += Math.max(0, attempts[i] - limit * v.widths[i]);
        continue;
      }
      // The bucket holding the trigger's end counts from that moment on, with the attempts
      // sent after it, read from the per-second series: a share of the bucket's count put the
      // storm's attempts of the rest of the fault after it (the bucket [240, 300) of a fault
      // ending at 270 counted 1,239 excess attempts where 10 s buckets found none).
      excess += Math.max(0, v.fineSum(v.record.fine.attempts, lastEnd, end) - limit * (end - lastEnd));
    }
    return excess;
  },
});

