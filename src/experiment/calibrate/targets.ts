/**
 * What a calibration matches: the observed series it fits, as one vector of weighted values
 * (every compared interval of every series, each series divided by its scale and by the
 * square root of its interval count, so each series weighs the same whatever its unit and
 * length, and the sum of squares is the sum of the series' NRMSE²), and the same vector read
 * from runs: each interval's simulated value averaged over the runs' seeds.
 */
import type { RunResult } from '../run-one.js';
import { convertObserved, inside, simulatedOver, type Converted } from '../../measures/observed-series.js';
import type { Scenario } from '../../scenario/schema.js';

export interface Target {
  name: string;
  series: Converted;
  /** The observed intervals compared (inside the run, with a value). */
  intervals: number[];
  /** What a difference is divided by: the observed mean over those intervals (the range when it is 0). */
  scale: number;
  /** Position of this series' first value in the vector. */
  offset: number;
}

export interface Targets {
  list: Target[];
  /** The observed values, weighted. */
  observed: Float64Array;
  /** Each position's weight: 1 / (scale · √intervals). */
  weight: Float64Array;
}

export function targetsOf(scenario: Scenario, names: readonly string[]): Targets {
  const list: Target[] = [];
  let offset = 0;
  for (const name of names) {
    const spec = scenario.observed?.[name];
    const series = spec && convertObserved(name, spec);
    if (!series) throw new Error(`observed series "${name}" was not read`);
    const { first, end } = inside(series, scenario.horizon);
    const intervals: number[] = [];
    let sum = 0, lo = Infinity, hi = -Infinity;
    for (let j = first; j < end; j++) {
      const v = series.values[j];
      if (!Number.isFinite(v)) continue;
      intervals.push(j);
      sum += v; lo = Math.min(lo, v); hi = Math.max(hi, v);
    }
    if (intervals.length === 0) throw new Error(`observed series "${name}" has no value inside the run`);
    const mean = sum / intervals.length;
    const scale = mean !== 0 ? Math.abs(mean) : hi - lo > 0 ? hi - lo : 1;
    list.push({ name, series, intervals, scale, offset });
    offset += intervals.length;
  }
  const observed = new Float64Array(offset), weight = new Float64Array(offset);
  for (const t of list) {
    const w = 1 / (t.scale * Math.sqrt(t.intervals.length));
    t.intervals.forEach((j, k) => { weight[t.offset + k] = w; observed[t.offset + k] = t.series.values[j] * w; });
  }
  return { list, observed, weight };
}

/** One run's values at the targets' positions, weighted (NaN where the run has none there). */
export function runVector(targets: Targets, run: RunResult, horizonS: number): Float64Array {
  const out = new Float64Array(targets.observed.length);
  for (const t of targets.list) {
    const col = run.columns[t.series.column] ?? [];
    t.intervals.forEach((j, k) => {
      const a = t.series.startS + j * t.series.stepS;
      out[t.offset + k] = simulatedOver(col, t.series.kind, run.bucketS, horizonS, a, a + t.series.stepS) * targets.weight[t.offset + k];
    });
  }
  return out;
}

/**
 * The runs' mean at each position, over the runs with a value there; where none has one (a
 * success ratio with no finished action), the observed value itself, so the position adds
 * nothing to the loss rather than making it NaN.
 */
export function meanVector(targets: Targets, runs: readonly Float64Array[]): Float64Array {
  const out = new Float64Array(targets.observed.length);
  for (let i = 0; i < out.length; i++) {
    let s = 0, n = 0;
    for (const r of runs) if (Number.isFinite(r[i])) { s += r[i]; n++; }
    out[i] = n > 0 ? s / n : targets.observed[i];
  }
  return out;
}
