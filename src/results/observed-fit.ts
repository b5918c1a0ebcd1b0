/**
 * How well each variant's simulated series match what was observed in a real incident (the
 * scenario's `observed:` block): per observed series, variant and sweep point, the normalised
 * RMSE over the intervals both cover and, for an observed success ratio, the moment of recovery
 * read from it by the simulated recovery's own rule (src/measures/health-stretch.ts) beside
 * the simulated one. Built once from the runs' columns, in the results layer because it needs
 * the whole experiment (every seed of a variant) and nothing of a single run's record.
 *
 * The arithmetic of one series against one run (units, intervals, NRMSE) is
 * src/measures/observed-series.ts, shared with the calibration.
 */
import type { ExperimentResult } from '../experiment/experiment.js';
import type { RunResult } from '../experiment/run-one.js';
import { foldMeasure } from '../experiment/aggregate.js';
import { measureSettings } from '../experiment/settings.js';
import { bucketWidth } from '../model/simulate.js';
import { recoveredAtS } from '../measures/recovery.js';
import type { MeasureDescriptor } from '../measures/measure.js';
import { healthyStretchStart, timeToRecover, type TriggerSpan } from '../measures/health-stretch.js';
import { convertObserved, inside, nrmse, type Converted } from '../measures/observed-series.js';
import type { Scenario } from '../scenario/schema.js';
import { roundMeasured } from './numbers.js';
import type { Results } from './results.js';

export type ObservedResults = NonNullable<Results['observed']>;

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
