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

/** The bucket of highest offered load (ties: the first); with a 0 baseline, of the most attempts per second; -1 when none. */
function peakBucket(v: RunView): number {
  const s = v.record.series;
  const load = (i: number) => (v.baseline.rate > 0 ? v.loadMultiple[i] : v.widths[i] > 0 ? s.attempts[i] / v.widths[i] : NaN);
  let peak = -1;
  for (let i = 0; i < v.n; i++) {
    const x = load(i);
    if (Number.isFinite(x) && (peak < 0 || x > load(peak))) peak = i;
  }
  return peak;
}

function finiteMax(xs: Float64Array): number {
  let m = -Infinity;
  for (const x of xs) if (Number.isFinite(x) && x > m) m = x;
  return m === -Infinity ? 0 : m;
}

export const peakLoadMultiple = defineMeasure({
  key: 'peakLoadMultiple',
  headline: true,
  label: 'peak load',
  doc: 'Highest per-bucket offered load: attempts reaching the server per second divided by the baseline rate (0 when there is no baseline).',
  unit: 'multiple',
  better: 'lower',
  aggregate: 'mean',
  scope: 'server',
  tie: { relative: 0.05 },
  compute: (v) => finiteMax(v.loadMultiple),
});

export const peakRetryShare = defineMeasure({
  key: 'peakRetryShare',
  label: 'peak retry share',
  doc: 'Highest per-bucket share of attempts that were retries (ground truth), over buckets with enough attempts to make the ratio meaningful; 0 when none has.',
  unit: 'share',
  better: 'lower',
  aggregate: 'share',
  scope: 'server',
  range: { min: 0, max: 1 },
  compute: (v) => finiteMax(retryShareSeries(v)),
});

export const retryShareAtPeak = defineMeasure({
  key: 'retryShareAtPeak',
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
      // The bucket holding the trigger's end counts from that moment on.
      const start = i * v.bucketS, end = start + v.widths[i];
      if (end <= lastEnd) continue;
      const share = start >= lastEnd ? 1 : (end - lastEnd) / v.widths[i];
      excess += Math.max(0, attempts[i] * share - limit * v.widths[i] * share);
    }
    return excess;
  },
});
