/**
 * How close a calibration came, per observed series: the NRMSE at the start and at the fit,
 * the seed noise no fit can beat (one run's distance from the mean of many, read from the
 * incidents drawn at the fit), the stretches where the observed series lies beyond every
 * fitted run, and the curves to draw. Apart from the search: it reads vectors, runs nothing.
 */
import type { Targets } from './targets.js';
import type { ObservedKind as SeriesKind } from '../../scenario/observed-schema.js';

export interface SeriesCurve {
  times: number[];
  observed: number[];
  start: number[];
  fitted: number[];
  /** The fitted runs' spread: mean ± 2 standard deviations of one seed (empty without intervals). */
  low: number[];
  high: number[];
}

export interface SeriesFit {
  name: string;
  column: string;
  unit: string;
  intervals: number;
  nrmseStart: number;
  nrmseFitted: number;
  /** What one seed's run differs from the seeds' mean by, as an NRMSE: no fit can be much closer than this. Null without intervals. */
  nrmseNoise: number | null;
  /** Stretches of two or more intervals where the observed series lies beyond 3 standard deviations of the fitted runs. */
  misses: Array<{ fromS: number; toS: number; observedAbove: boolean }>;
  curve: SeriesCurve;
}

/** The unit of the curves' numbers: the simulated column's chart unit, whatever the file was written in. */
const CHART_UNIT: Record<SeriesKind, string> = { count: 'per second', rate: 'per second', share: 'ratio', ms: 'ms', level: 'level' };

/** Per observed series: how close the start and the fit come, the noise floor, and where the fit misses. */
export function seriesFits(targets: Targets, startMean: Float64Array, fitted: Float64Array, noise: Float64Array[] | undefined, seeds: number): SeriesFit[] {
  return targets.list.map((t) => {
    const n = t.intervals.length;
    const at = (k: number) => t.offset + k;
    const w = (k: number) => targets.weight[at(k)];
    const distance = (v: Float64Array) => Math.sqrt(t.intervals.reduce((s, _, k) => s + (v[at(k)] - targets.observed[at(k)]) ** 2, 0));
    const sd = new Float64Array(n);
    let noiseSq = 0;
    if (noise) {
      for (let k = 0; k < n; k++) {
        const xs = noise.map((r) => r[at(k)]).filter(Number.isFinite);
        const m = xs.reduce((s, x) => s + x, 0) / Math.max(1, xs.length);
        const varOne = xs.length > 1 ? xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1) : 0;
        sd[k] = Math.sqrt(varOne);
        noiseSq += varOne;
      }
    }
    // Where the observed lies beyond 3 standard deviations of a fitted run (at least 1% of the series' scale).
    const misses: SeriesFit['misses'] = [];
    if (noise) {
      let runStart = -1, runSign = 0;
      const close = (end: number) => {
        if (runStart >= 0 && end - runStart >= 2) {
          const j0 = t.intervals[runStart], j1 = t.intervals[end - 1];
          misses.push({ fromS: t.series.startS + j0 * t.series.stepS, toS: t.series.startS + (j1 + 1) * t.series.stepS, observedAbove: runSign > 0 });
        }
        runStart = -1; runSign = 0;
      };
      for (let k = 0; k < n; k++) {
        const diff = targets.observed[at(k)] - fitted[at(k)];
        const bound = 3 * Math.max(sd[k], 0.01 * w(k) * t.scale) * Math.sqrt(1 + 1 / seeds);
        const sign = Math.abs(diff) > bound ? Math.sign(diff) : 0;
        const adjacent = k > 0 && t.intervals[k] === t.intervals[k - 1] + 1;
        if (sign !== 0 && sign === runSign && adjacent) continue;
        close(k);
        if (sign !== 0) { runStart = k; runSign = sign; }
      }
      close(n);
    }
    const unweight = (v: Float64Array, k: number) => v[at(k)] / w(k);
    return {
      name: t.name,
      column: t.series.column,
      unit: CHART_UNIT[t.series.kind],
      intervals: n,
      nrmseStart: distance(startMean),
      nrmseFitted: distance(fitted),
      nrmseNoise: noise ? Math.sqrt(noiseSq) : null,
      misses,
      curve: {
        times: t.intervals.map((j) => t.series.startS + j * t.series.stepS),
        observed: t.intervals.map((_, k) => unweight(targets.observed, k)),
        start: t.intervals.map((_, k) => unweight(startMean, k)),
        fitted: t.intervals.map((_, k) => unweight(fitted, k)),
        low: noise ? t.intervals.map((_, k) => (fitted[at(k)] - 2 * sd[k]) / w(k)) : [],
        high: noise ? t.intervals.map((_, k) => (fitted[at(k)] + 2 * sd[k]) / w(k)) : [],
      },
    };
  });
}
