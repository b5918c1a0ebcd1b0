/**
 * `retrystorm calibrate`: the values of a scenario's `calibrate:` parameters that make its
 * simulated incident match the observed one. Each trial is the variant that lived the incident,
 * at one point of the parameters' box, run on the same seeds (so two trials differ by their
 * values, not by luck) on one shared worker pool; its seeds' mean is compared with the
 * observed series (targets.ts), the search is least squares (least-squares.ts), and each
 * parameter's interval is measured from runs at the fit on seeds of their own (intervals.ts).
 * Interrupted, it answers the best trial so far, marked partial, without intervals.
 */
import type { LoadedScenario, ParameterSetting } from '../../scenario/load.js';
import { roundAsWritten, writeValue } from '../../scenario/search-apply.js';
import { takesWholeNumbers } from '../whole-numbers.js';
import type { CalibratedParameter, ResolvedCalibrate } from '../../scenario/calibrate-apply.js';
import type { Scenario } from '../../scenario/schema.js';
import type { RunBudget } from '../../model/simulate.js';
import { openTaskPool, type TaskPool } from '../pool.js';
import type { RunTask } from '../worker.js';
import type { RunResult } from '../run-one.js';
import { sumOfSquares } from './least-squares.js';
import { fitWithIntervals } from './fit.js';
import { meanVector, runVector, targetsOf, type Targets } from './targets.js';
import { seriesFits, type SeriesFit } from './series-fit.js';

export interface CalibrateOptions {
  workers?: number;
  seed?: number;
  signal?: AbortSignal;
  runBudget?: Partial<RunBudget>;
  /** After each trial of the search: trials run, the budget, the best loss so far. */
  onTrial?: (trials: number, budget: number, bestLoss: number) => void;
  /** While the fit's neighbourhood and noise are measured: runs done of the runs it takes. */
  onIntervalRuns?: (done: number, total: number) => void;
}

export interface FittedParameter {
  parameter: string;
  kind: CalibratedParameter['kind'];
  from: number;
  to: number;
  /** Where the fit started: the value the scenario writes. */
  start: number;
  value: number;
  /** The fitted value as the scenario writes it. */
  written: string | number;
  /** Null when the calibration was interrupted before its intervals. */
  interval: { low: number; high: number; se: number; identified: boolean } | null;
  /** The fit lies at an end of its range (within a hundredth of it): the range may be too narrow. */
  atEnd: 'from' | 'to' | null;
}

export interface CalibrationOutcome {
  variant: string;
  seed: number;
  seeds: number;
  intervalSeeds: number;
  level: number;
  ended: 'iterations' | 'budget' | 'interrupted';
  partial: boolean;
  trials: number;
  runs: number;
  parameters: FittedParameter[];
  loss: { start: number; fitted: number };
  series: SeriesFit[];
  history: Array<{ values: Array<string | number>; loss: number }>;
}

/** Trials spent looking over the whole box: 5 per parameter, at most a third of the budget. */
export function exploreTrials(parameters: number, budget: number): number {
  return Math.min(5 * parameters, Math.floor(budget / 3));
}

/** Trials each refit of the interval may spend: three of the search's iterations (2p + 2 trials each). */
export function refitTrials(parameters: number): number {
  return 3 * (2 * parameters + 2);
}

/** A run that threw: the calibration cannot go on without it. */
export class CalibrationRunFailed extends Error {
  constructor(values: string, seed: number, message: string) {
    super(`at ${values}, seed ${seed}: ${message}`);
    this.name = 'CalibrationRunFailed';
  }
}

/** The seeds the interval's runs use, far from the fit's own (seed … seed + seeds - 1). */
export const NOISE_SEED_OFFSET = 1_000_003;
/** The refits' seeds start here, each refit `seeds` of them. */
export const REFIT_SEED_OFFSET = 2_000_003;

export async function runCalibration(loaded: LoadedScenario, cal: ResolvedCalibrate, opts: CalibrateOptions = {}): Promise<CalibrationOutcome> {
  const seed = opts.seed ?? loaded.base.seed;
  const params = cal.parameters;
  const integer = params.map((p) => takesWholeNumbers(loaded, cal.variant, p));
  const valueAt = (u: readonly number[]) => params.map((p, i) => {
    const v = p.from + u[i] * (p.to - p.from);
    return integer[i] ? Math.round(v) : roundAsWritten(p.kind, v);
  });
  const settingsAt = (u: readonly number[]): ParameterSetting[] => valueAt(u).map((value, i) => ({ ...params[i], value }));
  const writtenAt = (u: readonly number[]) => settingsAt(u).map((s) => writeValue(s.kind, s.value));
  const boxOf = (values: readonly number[]) => values.map((v, i) => (v - params[i].from) / (params[i].to - params[i].from));

  const start = params.map((p) => (p.start - p.from) / (p.to - p.from));
  const startScenario = loaded.scenarioWith(cal.variant, settingsAt(start));
  const targets: Targets = targetsOf(startScenario, cal.series);

  const stop = new AbortController();
  const outer = opts.signal;
  if (outer?.aborted) stop.abort();
  outer?.addEventListener('abort', () => stop.abort(), { once: true });
  const pool: TaskPool = openTaskPool(opts.workers ?? 1, stop.signal);
  let nextIndex = 0, runs = 0;

  /** Runs of the world at these values on these seeds, as weighted vectors (undefined if stopped). */
  const runAt = async (u: readonly number[], seeds: number[], onRun?: () => void): Promise<Float64Array[] | undefined> => {
    const settings = settingsAt(u);
    const scenario: Scenario = loaded.scenarioWith(cal.variant, settings);
    const tasks: RunTask[] = seeds.map((s) => ({ index: nextIndex++, variant: cal.variant, point: 0, seed: s, scenario, ...(opts.runBudget ? { budget: opts.runBudget } : {}) }));
    const results = new Map<RunTask, RunResult>();
    let failure: Error | undefined;
    await pool.run(tasks, {
      onResult: (task, result) => { results.set(task, result); runs++; onRun?.(); },
      onError: (task, error) => {
        failure ??= new CalibrationRunFailed(settings.map((s, i) => `${s.parameter} = ${writtenAt(u)[i]}`).join(', '), task.seed, error?.message ?? String(error));
      },
    });
    if (failure) { stop.abort(); throw failure; }
    if (stop.signal.aborted) return undefined;
    return tasks.map((t) => runVector(targets, results.get(t)!, scenario.horizon));
  };

  /** Set 0: the search's seeds, seed … seed + seeds - 1; set k: the k-th refit's, far from those and from the incidents'. */
  const seedsOf = (set: number) => Array.from({ length: cal.seeds }, (_, i) => (set === 0 ? seed + i : seed + REFIT_SEED_OFFSET + (set - 1) * cal.seeds + i));
  const means = new Map<string, Float64Array>();
  const keyOf = (u: readonly number[], set: number) => JSON.stringify([set, ...writtenAt(u)]);
  const history: CalibrationOutcome['history'] = [];
  let best = Infinity;
  /** A trial: the seeds' mean at the values u rounds to (values written alike run once). */
  const meanAt = async (u: readonly number[], set: number, onRun?: () => void): Promise<Float64Array | undefined> => {
    const key = keyOf(u, set);
    const known = means.get(key);
    if (known) return known;
    const vectors = await runAt(u, seedsOf(set), onRun);
    if (!vectors) return undefined;
    const mean = meanVector(targets, vectors);
    means.set(key, mean);
    return mean;
  };

  try {
    let planned = 0, done = 0;
    const tick = () => opts.onIntervalRuns?.(++done, Math.max(planned, done));
    let searching = true;
    const { search, fit, incidents, intervals } = await fitWithIntervals({
      observed: targets.observed,
      start,
      budget: cal.budget,
      explore: exploreTrials(params.length, cal.budget),
      refitBudget: refitTrials(params.length),
      incidents: cal.intervalSeeds,
      seeds: cal.seeds,
      level: cal.level,
      signal: stop.signal,
      snap: (u) => boxOf(valueAt(u)),
      mean: (u, set) => meanAt(u, set, searching ? undefined : tick),
      incidentsAt: (u, count) => {
        searching = false;
        // At most: a refit that finds its answer early stops early.
        planned = count * (1 + cal.seeds * refitTrials(params.length));
        return runAt(u, Array.from({ length: count }, (_, i) => seed + NOISE_SEED_OFFSET + i), tick);
      },
      onTrial: (u, loss) => {
        history.push({ values: writtenAt(u), loss });
        best = Math.min(best, loss);
        opts.onTrial?.(history.length, cal.budget, best);
      },
    });
    const startMean = means.get(keyOf(start, 0))!;
    const fittedMean = means.get(keyOf(fit, 0))!;
    const whole = intervals;
    const noise = incidents;

    const parameters: FittedParameter[] = params.map((p, i) => {
      const span = p.to - p.from;
      const value = p.from + fit[i] * span;
      const iv = whole?.[i];
      return {
        parameter: p.parameter, kind: p.kind, from: p.from, to: p.to, start: p.start, value,
        written: writeValue(p.kind, value),
        interval: iv ? { low: p.from + iv.low * span, high: p.from + iv.high * span, se: iv.se * span, identified: iv.identified } : null,
        atEnd: fit[i] <= 0.01 ? 'from' : fit[i] >= 0.99 ? 'to' : null,
      };
    });
    return {
      variant: cal.variant, seed, seeds: cal.seeds, intervalSeeds: cal.intervalSeeds, level: cal.level,
      ended: whole ? search.ended : 'interrupted',
      partial: !whole,
      trials: history.length,
      runs,
      parameters,
      loss: { start: sumOfSquares(startMean, targets.observed), fitted: search.best.loss },
      series: seriesFits(targets, startMean, fittedMean, noise, cal.seeds),
      history,
    };
  } finally {
    await pool.close();
  }
}
