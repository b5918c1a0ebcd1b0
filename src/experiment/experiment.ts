/**
 * An experiment: every run a scenario asks for (variants x sweep points x seeds, or one
 * shard of them), done on a worker pool and folded per variant and point. Interruption
 * keeps what finished and marks the result partial; a run that throws is reported with its
 * variant, point and seed while the others' results are kept.
 */
import type { LoadedScenario } from '../scenario/load.js';
import { expandRuns, inShard, type ExpandOptions, type RunSpec, type Shard } from './expand.js';
import type { RunResult } from './run-one.js';
import type { RunBudget } from '../model/simulate.js';
import { aggregatePoint, type VariantAggregate } from './aggregate.js';
import { checkExpectations, type ExpectationResult } from './expectations.js';
import { runTasks } from './pool.js';

export interface ExperimentOptions extends ExpandOptions {
  workers?: number;
  shard?: Shard;
  /** Aborting stops the experiment, keeping finished runs. */
  signal?: AbortSignal;
  /** What each run may use before it fails (defaults: DEFAULT_RUN_BUDGET in model/simulate.ts). */
  runBudget?: Partial<RunBudget>;
  /** Called once the runs are planned and the pool is about to start, with how many runs this process will do. */
  onStart?: (planned: number) => void;
  /** Called after each finished run. */
  onRun?: (done: number, total: number, result: RunResult) => void;
}

export interface RunFailure {
  index: number;
  variant: string;
  point: number;
  seed: number;
  message: string;
}

export interface ExperimentResult {
  loaded: LoadedScenario;
  /** Every run of the experiment (all shards). */
  runs: RunSpec[];
  shard?: Shard;
  /** Results by run index; missing entries did not run here (other shard, interrupted, failed). */
  results: Array<RunResult | undefined>;
  failures: RunFailure[];
  variants: VariantAggregate[];
  expectations: ExpectationResult[];
  partial: boolean;
}

export async function runExperiment(loaded: LoadedScenario, opts: ExperimentOptions = {}): Promise<ExperimentResult> {
  const runs = expandRuns(loaded, opts);
  const mine = runs.filter((r) => inShard(r, opts.shard));
  const results: Array<RunResult | undefined> = new Array(runs.length);
  const failures: RunFailure[] = [];
  const signal = opts.signal ?? new AbortController().signal;
  const scenarios = new Map(loaded.variants.map((v) => [v.name, v.points]));
  let done = 0;
  opts.onStart?.(mine.length);
  await runTasks(
    mine.map((r) => ({ ...r, scenario: scenarios.get(r.variant)![r.point], ...(opts.runBudget ? { budget: opts.runBudget } : {}) })),
    opts.workers ?? 1,
    signal,
    {
      onResult: (task, result) => {
        results[task.index] = result;
        opts.onRun?.(++done, mine.length, result);
      },
      onError: (task, error) => {
        failures.push({ index: task.index, variant: task.variant, point: task.point, seed: task.seed, message: error?.message ?? String(error) });
      },
    },
  );
  failures.sort((a, b) => a.index - b.index);
  return assemble(loaded, runs, results, failures, signal.aborted, opts.shard);
}

/** Builds the experiment result from per-run results (also how shards are merged). */
export function assemble(
  loaded: LoadedScenario,
  runs: RunSpec[],
  results: Array<RunResult | undefined>,
  failures: RunFailure[],
  interrupted: boolean,
  shard?: Shard,
): ExperimentResult {
  const variants = aggregate(loaded, runs, results);
  const expected = runs.filter((r) => inShard(r, shard)).length;
  const finished = results.filter(Boolean).length;
  return {
    loaded,
    runs,
    ...(shard ? { shard } : {}),
    results,
    failures,
    variants,
    // A shard sees only some runs: expectations are checked once the shards are merged.
    expectations: shard && shard.count > 1 ? [] : checkExpectations(loaded.base.expectations, variants),
    partial: interrupted || finished < expected,
  };
}

export function aggregate(loaded: LoadedScenario, runs: RunSpec[], results: Array<RunResult | undefined>): VariantAggregate[] {
  return loaded.variants.map((v) => ({
    name: v.name,
    ...(v.description ? { description: v.description } : {}),
    points: loaded.points.map((p) => {
      const here = runs.filter((r) => r.variant === v.name && r.point === p.index).map((r) => results[r.index]).filter((r): r is RunResult => !!r);
      return aggregatePoint(p.index, p.values, here);
    }),
  }));
}
