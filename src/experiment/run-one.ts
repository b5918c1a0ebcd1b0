/**
 * Simulates one run and reduces it to what the outputs need: the summary (every measure, the
 * per-population and per-route outcomes) and the per-bucket columns, as plain arrays (what
 * crosses a worker-thread boundary, and what the CSVs and the report draw). Pure: the result
 * depends only on (scenario, variant, seed).
 */
import type { Scenario } from '../scenario/schema.js';
import { simulate, type SimulateOptions } from '../model/simulate.js';
import { RunBudgetExceeded } from '../engine/budget.js';
import type { FaultWindow, FiredAction, RunRecord } from '../model/series.js';
import { summarize, type RunSummary } from '../measures/summarize.js';
import { MEASURES, type MeasureRegistry } from '../measures/registry.js';
import { RunView } from '../measures/view.js';
import { populationColumns, runColumns, type Columns } from '../measures/columns.js';
import { measureSettings } from './settings.js';

export interface RunResult {
  variant: string;
  /** Index of the sweep point (0 without a sweep). */
  point: number;
  seed: number;
  bucketS: number;
  summary: RunSummary;
  /** The run's per-bucket columns (RUN_COLUMN_INFO order). */
  columns: Columns;
  /** Each population's per-bucket columns (POPULATION_COLUMN_INFO order), in scenario order. */
  populations: Array<{ name: string; columns: Columns }>;
  /** Fault windows of this run's scenario (they can differ across sweep points). */
  faults: FaultWindow[];
  /**
   * Operator actions and automation decisions that took effect, in time order, as plain
   * data: name, effect kind, time (s), what triggered it (a time, or the signal, threshold
   * and the time it held), and a note when it changed nothing.
   */
  actions: FiredAction[];
  eventsProcessed: number;
  /** Wall-clock seconds; for progress lines only, never written to result files. */
  wallS: number;
}

/** What a user can do about a run stopped by its budget, added to the model's account of it. */
const BUDGET_ADVICE =
  'A bounded queue, a backoff, fewer tries or a shorter horizon keep a run smaller; ' +
  '--max-run-memory gives each run more (docs/experiments.md, "Runs that would not fit").';

/** opts.budget: what the run may use (model/simulate.ts, DEFAULT_RUN_BUDGET); past it the run fails with a message saying what grew. */
export function runOne(scenario: Scenario, variant: string, point: number, seed: number, opts: SimulateOptions = {}, registry: MeasureRegistry = MEASURES): RunResult {
  const started = performance.now();
  let record: RunRecord;
  try {
    record = simulate(scenario, seed, opts);
  } catch (e) {
    // Thrown as a plain Error so that its whole message survives the worker-thread boundary.
    if (e instanceof RunBudgetExceeded) throw new Error(`${e.message}. ${BUDGET_ADVICE}`);
    throw e;
  }
  const settings = measureSettings(scenario);
  return {
    variant,
    point,
    seed,
    bucketS: record.series.bucketS,
    summary: summarize(record, settings, registry),
    columns: runColumns(RunView.subject(record, settings)),
    populations: record.populations.map((p, i) => ({ name: p.name, columns: populationColumns(RunView.population(record, settings, i)) })),
    faults: record.faults,
    actions: record.actions,
    eventsProcessed: record.totals.eventsProcessed,
    wallS: (performance.now() - started) / 1000,
  };
}
