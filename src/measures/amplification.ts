/**
 * Amplification: how many attempts each finished user action took, read from the users'
 * histogram (actions still in flight at the horizon are not counted). Mean, 99th percentile
 * and maximum are three measures of one distribution, which the report also draws whole.
 */
import { defineMeasure } from './measure.js';

export interface AttemptsPerActionStats {
  mean: number;
  /** Smallest k such that at least 99% of finished actions took k attempts or fewer. */
  p99: number;
  max: number;
}

/** The statistics of a histogram hist[k] = finished actions that took k attempts; zeros when none finished. */
export function attemptsPerActionStats(hist: readonly number[]): AttemptsPerActionStats {
  let total = 0, weighted = 0, max = 0;
  for (let k = 0; k < hist.length; k++) {
    const c = hist[k];
    if (!(c > 0)) continue;
    total += c;
    weighted += k * c;
    max = k;
  }
  if (total === 0) return { mean: 0, p99: 0, max: 0 };
  // Nearest rank in exact integer arithmetic (counts are integers), so the boundary case
  // "exactly 99% took k or fewer" never depends on how 0.99 rounds in binary.
  const rank = Math.ceil((99 * total) / 100);
  let cum = 0, p99 = max;
  for (let k = 0; k < hist.length; k++) {
    cum += hist[k] > 0 ? hist[k] : 0;
    if (cum >= rank) { p99 = k; break; }
  }
  return { mean: weighted / total, p99, max };
}

export const attemptsPerAction = defineMeasure({
  key: 'attemptsPerAction',
  cost: true,
  headline: true,
  label: 'attempts per action',
  doc: 'Amplification: the mean number of attempts each finished user action took (1 when nothing retried; below 1 when a client refused tries itself, a throttle or a breaker, since those are not attempts); 0 when no action finished.',
  unit: 'number',
  better: 'lower',
  aggregate: 'mean',
  scope: 'users',
  perPopulation: true,
  tie: { relative: 0.05 },
  compute: (v) => attemptsPerActionStats(v.histogram).mean,
});

export const attemptsPerActionP99 = defineMeasure({
  key: 'attemptsPerActionP99',
  cost: true,
  label: 'attempts per action, p99',
  doc: 'The smallest number of attempts that 99% of finished user actions stayed within; 0 when no action finished.',
  unit: 'number',
  better: 'lower',
  aggregate: 'mean',
  scope: 'users',
  compute: (v) => attemptsPerActionStats(v.histogram).p99,
});

export const attemptsPerActionMax = defineMeasure({
  key: 'attemptsPerActionMax',
  cost: true,
  label: 'attempts per action, max',
  doc: 'The most attempts any finished user action took (across seeds: the largest); 0 when no action finished.',
  unit: 'number',
  better: 'lower',
  aggregate: 'max',
  scope: 'users',
  compute: (v) => attemptsPerActionStats(v.histogram).max,
});
