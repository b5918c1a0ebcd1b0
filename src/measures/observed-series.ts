/**
 * An observed series (the scenario's `observed:` block) against a simulated column: the file's
 * numbers in the column's chart unit, the intervals of the series that lie inside a run, a
 * run's column averaged over each of them, and the normalised RMSE of the two. One place for
 * this arithmetic, used by the fit table of the results (src/results/observed-fit.ts) and by
 * the calibration's loss (src/experiment/calibrate/).
 *
 * Units: both sides are compared in the chart's unit of the simulated column: counts per
 * second (a bucket's count ÷ its width), ratios 0 to 1, milliseconds, levels.
 */
import { OBSERVED_SERIES, type ObservedData, type ObservedKind, type ObservedSpec } from '../scenario/observed-schema.js';

/** An observed series on the run's clock, in the simulated column's chart unit. */
export interface Converted {
  name: string;
  column: string;
  kind: ObservedKind;
  unit: string;
  file: string;
  stepS: number;
  startS: number;
  values: Float64Array;
}

/** The file's numbers in the chart unit of the column they stand beside. */
export function convertObserved(name: string, spec: ObservedSpec & { data?: ObservedData }): Converted | undefined {
  const d = spec.data;
  if (!d) return undefined;
  const kind = (OBSERVED_SERIES as Record<string, ObservedKind>)[spec.series];
  const factor = spec.unit === 'per-step' ? 1 / d.stepS : spec.unit === 'percent' ? 0.01 : spec.unit === 's' ? 1000 : 1;
  return { name, column: spec.series, kind, unit: spec.unit, file: d.file, stepS: d.stepS, startS: d.startS, values: Float64Array.from(d.values, (v) => v * factor) };
}

/**
 * A run's column over [a, b), in the chart unit: the buckets' values weighted by how much of
 * each lies inside (counts divided by their bucket's width first); NaN when no bucket there
 * has a value.
 */
export function simulatedOver(col: ArrayLike<number>, kind: ObservedKind, bucketS: number, horizonS: number, a: number, b: number): number {
  let sum = 0, weight = 0;
  for (let i = Math.max(0, Math.floor(a / bucketS)); i < col.length && i * bucketS < b; i++) {
    const lo = i * bucketS, hi = Math.min((i + 1) * bucketS, horizonS);
    const w = Math.min(hi, b) - Math.max(lo, a);
    const x = kind === 'count' ? col[i] / (hi - lo) : col[i];
    if (!(w > 0) || !Number.isFinite(x)) continue;
    sum += x * w;
    weight += w;
  }
  return weight > 0 ? sum / weight : NaN;
}

/** The intervals of an observed series that lie wholly inside the run: [first, end). */
export function inside(o: Converted, horizonS: number): { first: number; end: number } {
  const first = Math.max(0, Math.ceil(-o.startS / o.stepS - 1e-9));
  const end = Math.min(o.values.length, Math.floor((horizonS - o.startS) / o.stepS + 1e-9));
  return { first, end: Math.max(first, end) };
}

/**
 * Root-mean-square error of one run's column against the observed series, over the intervals
 * inside the run where both have a value, divided by the observed mean over those intervals
 * (by the observed range when that mean is 0; null when both are 0 or nothing is compared).
 */
export function nrmse(o: Converted, col: ArrayLike<number>, bucketS: number, horizonS: number): { value: number | null; intervals: number } {
  const { first, end } = inside(o, horizonS);
  let se = 0, sum = 0, n = 0, lo = Infinity, hi = -Infinity;
  for (let j = first; j < end; j++) {
    const obs = o.values[j];
    const a = o.startS + j * o.stepS;
    const sim = simulatedOver(col, o.kind, bucketS, horizonS, a, a + o.stepS);
    if (!Number.isFinite(obs) || !Number.isFinite(sim)) continue;
    se += (sim - obs) ** 2;
    sum += obs;
    n++;
    lo = Math.min(lo, obs);
    hi = Math.max(hi, obs);
  }
  if (n === 0) return { value: null, intervals: 0 };
  const rmse = Math.sqrt(se / n);
  const scale = sum / n !== 0 ? Math.abs(sum / n) : hi - lo;
  return { value: scale > 0 ? rmse / scale : rmse === 0 ? 0 : null, intervals: n };
}

