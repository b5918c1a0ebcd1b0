/**
 * An experiment: every run a scenario asks for (variants x seeds), done in expansion order
 * and folded per variant. Interruption keeps what finished and says the result is partial.
 */
import type { LoadedScenario } from '../scenario/load.js';
import { expandRuns, type ExpandOptions, type RunSpec } from './expand.js';
import { runOne, type RunResult } from './run-one.js';
import { aggregateVariant, type VariantAggregate } from './aggregate.js';
import { RunInterrupted } from '../model/simulate.js';

export interface ExperimentOptions extends ExpandOptions {
  /** Called after each finished run. */
  onRun?: (done: number, total: number, result: RunResult) => void;
  /** Polled during runs; true stops the experiment, keeping finished runs. */
  shouldStop?: () => boolean;
}

export interface ExperimentResult {
  loaded: LoadedScenario;
  runs: RunSpec[];
  /** Results in expansion order; missing entries are runs that did not finish. */
  results: Array<RunResult | undefined>;
  variants: VariantAggregate[];
  partial: boolean;
}

export function runExperiment(loaded: LoadedScenario, opts: ExperimentOptions = {}): ExperimentResult {
  const runs = expandRuns(loaded, opts);
  const results: Array<RunResult | undefined> = new Array(runs.length);
  const byName = new Map(loaded.variants.map((v) => [v.name, v]));
  let partial = false;
  let done = 0;
  for (const run of runs) {
    if (opts.shouldStop?.()) { partial = true; break; }
    try {
      results[run.index] = runOne(byName.get(run.variant)!.scenario, run.variant, run.seed, opts.shouldStop);
    } catch (e) {
      if (e instanceof RunInterrupted) { partial = true; break; }
      throw e;
    }
    opts.onRun?.(++done, runs.length, results[run.index]!);
  }
  return { loaded, runs, results, variants: aggregate(loaded, runs, results), partial };
}

export function aggregate(loaded: LoadedScenario, runs: RunSpec[], results: Array<RunResult | undefined>): VariantAggregate[] {
  return loaded.variants.map((v) => {
    const mine = runs.filter((r) => r.variant === v.name).map((r) => results[r.index]).filter((r): r is RunResult => !!r);
    return aggregateVariant(v.name, v.description, mine);
  });
}
