/**
 * The rate an arrival profile, as written, gives at a moment and on average. Pure arithmetic
 * over the format, so the loader can bound a run's size before anything is simulated, and
 * the model samples arrivals from the very same curve.
 */
import type { Arrivals } from './schema.js';

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
  }
}

/** Average rate over [0, horizon], used for sanity limits and as a fallback baseline. */
export function meanRate(a: Arrivals, horizon: number): number {
  if (a.kind === 'constant' || a.kind === 'diurnal') return a.kind === 'constant' ? a.rate : a.mean;
  const n = 1000;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += rateAt(a, ((i + 0.5) * horizon) / n);
  return sum / n;
}
