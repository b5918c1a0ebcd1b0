/**
 * The rate an arrival profile, as written, gives at a moment and on average. Pure arithmetic
 * over the format, so the loader can bound a run's size before anything is simulated, and
 * the model samples arrivals from the very same curve.
 */
import type { Arrivals } from './schema.js';
import { distributionMean, validateDistribution } from '../engine/distributions.js';
import { toDistributionSpec } from './distribution-spec.js';
import { traceMeanRate, traceRateAt, tracePlay } from './trace/trace-data.js';

export function rateAt(a: Arrivals, t: number): number {
  switch (a.kind) {
    case 'constant':
      return a.rate;
    case 'steps': {
      let r = 0;
      for (const s of a.steps) if (t >= s.at) r = s.rate;
      return r;
    }
    case 'ramp':
      if (t <= a.start) return a.from;
      if (t >= a.end) return a.to;
      return a.from + ((a.to - a.from) * (t - a.start)) / (a.end - a.start);
    case 'diurnal':
      return a.mean * (1 + a.amplitude * Math.cos((2 * Math.PI * (t - a.peakAt)) / a.period));
    case 'closed':
      return closedRateBound(a);
    case 'after':
      // Started by another population's successes, not by a profile of its own (populationRates).
      return 0;
    case 'trace':
      return traceRateAt(tracePlay(a), t);
  }
}

/**
 * The most actions per second a closed population can start: N / Z, what the interactive
 * response time law N / (R + Z) gives when answers take no time. What it really starts is
 * lower by the response time; the bound is what sizing and baselines need.
 */
export function closedRateBound(a: Extract<Arrivals, { kind: 'closed' }>): number {
  const spec = toDistributionSpec(a.thinkTime);
  // A think time that is no distribution (an exponential of mean 0 s) bounds nothing: the
  // semantic checks refuse it where it is written, and sizing reads this before them.
  if (validateDistribution(spec) !== null) return Infinity;
  const z = distributionMean(spec);
  return z > 0 ? a.users / z : Infinity;
}

/** Average rate over [0, horizon], used for sanity limits and as a fallback baseline. */
export function meanRate(a: Arrivals, horizon: number): number {
  if (a.kind === 'constant' || a.kind === 'diurnal') return a.kind === 'constant' ? a.rate : a.mean;
  if (a.kind === 'closed') return closedRateBound(a);
  // Exact for a trace: sampling 1000 moments would miss a per-second trace's bursts.
  if (a.kind === 'trace') return traceMeanRate(tracePlay(a), horizon);
  const n = 1000;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += rateAt(a, ((i + 0.5) * horizon) / n);
  return sum / n;
}

/**
 * Every population's average rate over [0, horizon]: its own profile's, or for a journey's
 * step (kind after) the most its previous step can start: that step's rate times `repeat`
 * (every previous action succeeding). For sizing and sanity limits, which want an upper bound.
 */
export function populationRates(clients: Record<string, { arrivals: Arrivals }>, horizon: number): Map<string, number> {
  const out = new Map<string, number>();
  const rate = (name: string, seen: Set<string>): number => {
    const known = out.get(name);
    if (known !== undefined) return known;
    const a = clients[name]?.arrivals;
    if (a === undefined || seen.has(name)) return 0; // a missing or circular step is refused by the semantic checks
    seen.add(name);
    const r = a.kind === 'after' ? rate(a.population, seen) * a.repeat : meanRate(a, horizon);
    out.set(name, r);
    return r;
  };
  for (const name of Object.keys(clients)) rate(name, new Set());
  return out;
}
