/**
 * How well each variant's simulated series match what was observed in a real incident (the
 * scenario's `observed:` block): per observed series, variant and sweep point, the normalised
 * RMSE over the intervals both cover and, for an observed success ratio, the moment of recovery
 * read from it by the simulated recovery's own rule (src/measures/health-stretch.ts) beside
 * the simulated one. Built once from the runs' columns, in the results layer because it needs
 * the whole experiment (every seed of a variant) and nothing of a single run's record.
 *
 * Units: both sides are compared in the chart's unit of the simulated column: counts per
 * second (a bucket's count ÷ its width), ratios 0 to 1, milliseconds, levels.
 */
import type { ExperimentResult } from '../experiment/experiment.js';
import type { RunResult } from '../experiment/run-one.js';
import { foldMeasure } from '../experiment/aggregate.js';
import { measureSettings } from '../experiment/settings.js';
import { bucketWidth } from '../model/simulate.js';
import { recoveredAtS } from '../measures/recovery.js';
import type { MeasureDescriptor } from '../measures/measure.js';
import { healthyStretchStart, timeToRecover, type TriggerSpan } from '../measures/health-stretch.js';
import { OBSERVED_SERIES, type ObservedData, type ObservedKind, type ObservedSpec } from '../scenario/observed-schema.js';
import type { Scenario } from '../scenario/schema.js';
import { roundMeasured } from './numbers.js';
import type { Results } from './results.js';

export type ObservedResults = NonNullable<Results['observed']>;

/** An observed series on the run's clock, in the simulated column's chart unit. */
interface Converted {
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
function simulatedOver(col: ArrayLike<number>, kind: ObservedKind, bucketS: number, horizonS: number, a: number, b: number): number {
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
function inside(o: Converted, horizonS: number): { first: number; end: number } {
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

/**
 * When the observed users recovered, by the simulated recovery's rule applied to the observed
 * success ratio (each interval a cell; a window of the health width, or one interval when it
 * is automatic; the hold): the limits come from the observed series' own pre-trigger baseline
 * (the mean success ratio after the warm-up, less successRatioDrop; the load, when an observed
 * attempts series on the same intervals says it, at most 1 + loadExcess times its mean), the
 * triggers are the simulated ones. Null when it did not recover inside the series.
 */
export function observedRecovery(ratio: Converted, attempts: Converted | undefined, s: Scenario, triggers: readonly TriggerSpan[]): number | null {
  if (triggers.length === 0) return 0;
  const set = measureSettings(s);
  const step = ratio.stepS;
  const n = ratio.values.length;
  const ok = new Float64Array(n), ended = new Float64Array(n);
  for (let j = 0; j < n; j++) if (Number.isFinite(ratio.values[j])) { ok[j] = ratio.values[j]; ended[j] = 1; }
  const sameGrid = attempts && attempts.stepS === step && attempts.startS === ratio.startS && attempts.values.length === n;
  const load = sameGrid ? Float64Array.from(attempts.values, (x) => x * step) : null;
  const firstStart = Math.min(...triggers.map((t) => t.startS));
  const lastEnd = Math.max(...triggers.map((t) => t.endS));
  const cellOf = (t: number) => Math.max(0, Math.ceil((t - ratio.startS) / step - 1e-9));
  // The baseline: whole intervals from the warm-up to the first trigger (else from the run's start).
  const baseline = (from: number) => {
    let r = 0, k = 0, a = 0;
    for (let j = cellOf(from); j < n && ratio.startS + (j + 1) * step <= firstStart + 1e-9; j++) {
      if (ended[j] > 0) { r += ok[j]; k++; }
      if (load) a += load[j];
    }
    return { k, ratio: k > 0 ? r / k : NaN, rate: k > 0 ? a / (k * step) : NaN };
  };
  let base = baseline(set.warmupS);
  if (base.k === 0) base = baseline(0);
  const from = healthyStretchStart({
    ok, ended, attempts: load, cellS: step,
    windowCells: Math.max(1, Math.round((set.healthWindowS ?? step) / step)),
    holdCells: Math.max(1, Math.round(set.holdS / step)),
    startCell: cellOf(firstStart), endCell: cellOf(lastEnd),
    minSuccessRatio: (Number.isNaN(base.ratio) ? 1 : base.ratio) - set.successRatioDrop,
    rate: base.rate, maxLoadMultiple: 1 + set.loadExcess,
  });
  return from === null ? null : ratio.startS + from * step;
}

/** How the seeds' NRMSEs fold: a mean with its interval, never below 0 (not a measure of a run: a run knows nothing observed). */
const NRMSE: Omit<MeasureDescriptor, 'compute'> = {
  key: 'nrmse', label: 'NRMSE', doc: 'RMSE over the compared intervals ÷ the observed mean.', unit: 'number', better: 'lower', aggregate: 'mean', scope: 'subject', range: { min: 0 },
};

/** The observed block of summary.json, or undefined when the scenario has none. */
export function buildObserved(x: ExperimentResult): ObservedResults | undefined {
  const specs = x.loaded.base.observed;
  if (!specs || Object.keys(specs).length === 0) return undefined;
  const series = Object.entries(specs).map(([name, spec]) => convertObserved(name, spec)).filter((c): c is Converted => !!c);
  const byRun = new Map<string, RunResult[]>();
  for (const r of x.results) {
    if (!r) continue;
    const key = `${r.variant}\u0000${r.point}`;
    byRun.set(key, [...(byRun.get(key) ?? []), r]);
  }
  const fits: ObservedResults['fits'] = [];
  for (const v of x.variants) {
    const scenario = x.loaded.variants.find((l) => l.name === v.name)?.scenario ?? x.loaded.base;
    const horizonS = scenario.horizon, bucketS = bucketWidth(scenario);
    for (const p of v.points) {
      const runs = byRun.get(`${v.name}\u0000${p.point}`) ?? [];
      const triggers = p.faults.map((f) => ({ startS: f.startS, endS: f.endS }));
      for (const o of series) {
        const per = runs.map((r) => nrmse(o, r.columns[o.column] ?? [], bucketS, horizonS));
        const isRatio = o.column === 'success_ratio';
        let recovery: ObservedResults['fits'][number]['recovery'] = null;
        if (isRatio) {
          const attempts = series.find((s) => s.column === 'attempts');
          const observedAtS = observedRecovery(o, attempts, scenario, triggers);
          const simulated = foldMeasure(recoveredAtS, runs.map((r) => r.summary.measures.recoveredAtS ?? null), horizonS);
          recovery = {
            observedAtS,
            simulatedAtS: simulated,
            differenceS: observedAtS !== null && simulated.value !== null ? simulated.value - observedAtS : null,
          };
        }
        fits.push({
          variant: v.name,
          point: p.point,
          name: o.name,
          column: o.column,
          intervals: Math.max(0, ...per.map((q) => q.intervals)),
          nrmse: foldMeasure(NRMSE, per.map((q) => q.value), horizonS),
          recovery,
        });
      }
    }
  }
  return roundMeasured({
    normalisation: 'observed-mean' as const,
    series: series.map((o) => {
      const { first, end } = inside(o, Math.max(...x.loaded.variants.map((l) => l.scenario.horizon), x.loaded.base.horizon));
      return { name: o.name, column: o.column, unit: o.unit, file: o.file, stepS: o.stepS, startS: o.startS + first * o.stepS, values: Array.from(o.values.subarray(first, end), (y) => (Number.isFinite(y) ? y : null)) };
    }),
    fits,
  }, ['point', 'intervals']);
}
