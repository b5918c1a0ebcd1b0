/**
 * An experiment: every run a scenario asks for (variants x sweep points x seeds, or one
 * shard of them), done on a worker pool and folded per variant and point, with its
 * expectations checked and its variants ranked. Interruption keeps what finished and marks
 * the result partial; a run that throws is reported with its variant, point and seed while
 * the others' results are kept.
 */
import type { LoadedScenario } from '../scenario/load.js';
import { SUBJECT_ROLES, partnersOf, subjectOf } from '../scenario/subject.js';
import { MEASURES, type MeasureRegistry } from '../measures/registry.js';
import { expandRuns, inShard, type ExpandOptions, type RunSpec, type Shard } from './expand.js';
import type { RunResult } from './run-one.js';
import type { RunBudget } from '../model/simulate.js';
import { aggregatePoint, type VariantAggregate } from './aggregate.js';
import { checkExpectations, resolveMeasureReferences, type ExpectationResult } from './expectations.js';
import { rankVariants, type Ranking } from './ranking.js';
import { runTasks } from './pool.js';
import type { FinishedRuns } from './run-reuse.js';
import type { SearchOutcome } from './search/run-search.js';

export interface ExperimentOptions extends ExpandOptions {
  workers?: number;
  shard?: Shard;
  /** Aborting stops the experiment, keeping finished runs. */
  signal?: AbortSignal;
  /** What each run may use before it fails (defaults: DEFAULT_RUN_BUDGET in model/simulate.ts). */
  runBudget?: Partial<RunBudget>;
  /**
   * Finished runs of another experiment (run-reuse.ts): a run with the same scenario and seed,
   * computed with the same measures, takes that result instead of being simulated.
   */
  reuse?: FinishedRuns;
  /** The whole plan (every shard's runs), before any run starts: for the journal of finished runs. */
  onPlan?: (runs: RunSpec[]) => void;
  /**
   * Called once the runs are planned and the pool is about to start, with how many runs this
   * process will simulate, how much simulated time they add up to (seconds), and how many of
   * its runs took a finished run's result instead (opts.reuse).
   */
  onStart?: (planned: number, simulatedS: number, reused: number) => void;
  /** Called when a run is handed to a worker, with its horizon (simulated seconds). */
  onRunStart?: (run: RunSpec, horizonS: number) => void;
  /** Called now and then while a run is in progress, with the simulated time it has reached. */
  onRunProgress?: (run: RunSpec, simS: number) => void;
  /** Called for each run that took a finished run's result (opts.reuse), after onPlan and before any run starts. */
  onReused?: (run: RunSpec, result: RunResult) => void;
  /** Called after each finished run. */
  onRun?: (done: number, total: number, result: RunResult, run: RunSpec) => void;
  /** The measures to compute (default: the built-in ones; others need workers 0, since measures are code). */
  measures?: MeasureRegistry;
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
  /** The measures every run computed. */
  measures: MeasureRegistry;
  /** Every run of the experiment (all shards). */
  runs: RunSpec[];
  shard?: Shard;
  /** Results by run index; missing entries did not run here (other shard, interrupted, failed). */
  results: Array<RunResult | undefined>;
  failures: RunFailure[];
  variants: VariantAggregate[];
  expectations: ExpectationResult[];
  /** None for one shard of a split experiment (the merge ranks them all), nor for a lone variant without a `compare` block. */
  ranking: Ranking | null;
  partial: boolean;
  /** The scenario's search (its `search:` block), when `run` did one after the runs. */
  search?: SearchOutcome;
}

export async function runExperiment(loaded: LoadedScenario, opts: ExperimentOptions = {}): Promise<ExperimentResult> {
  const measures = opts.measures ?? MEASURES;
  resolveMeasureReferences(loaded, measures); // a misnamed measure is refused before any run
  const runs = expandRuns(loaded, opts);
  const mine = runs.filter((r) => inShard(r, opts.shard));
  const results: Array<RunResult | undefined> = new Array(runs.length);
  const failures: RunFailure[] = [];
  const signal = opts.signal ?? new AbortController().signal;
  const scenarios = new Map(loaded.variants.map((v) => [v.name, v.points]));
  let done = 0;
  const reuse = opts.reuse?.measures === measures ? opts.reuse : undefined;
  const reused: Array<[RunSpec, RunResult]> = [];
  const tasks = mine.flatMap((r) => {
    const scenario = scenarios.get(r.variant)![r.point];
    const prior = reuse?.resultOf(r, scenario);
    if (prior) {
      reused.push([r, prior]);
      return [];
    }
    return [{ ...r, scenario, ...(opts.runBudget ? { budget: opts.runBudget } : {}) }];
  });
  opts.onPlan?.(runs);
  for (const [r, result] of reused) {
    results[r.index] = result;
    opts.onReused?.(r, result);
  }
  opts.onStart?.(tasks.length, tasks.reduce((sum, t) => sum + t.scenario.horizon, 0), reused.length);
  const spec = ({ index, variant, point, seed }: RunSpec): RunSpec => ({ index, variant, point, seed });
  const { onRunStart, onRunProgress } = opts;
  await runTasks(
    tasks,
    opts.workers ?? 1,
    signal,
    {
      ...(onRunStart ? { onStart: (task) => onRunStart(spec(task), task.scenario.horizon) } : {}),
      ...(onRunProgress ? { onProgress: (task, simS) => onRunProgress(spec(task), simS) } : {}),
      onResult: (task, result) => {
        results[task.index] = result;
        opts.onRun?.(++done, tasks.length, result, spec(task));
      },
      onError: (task, error) => {
        failures.push({ index: task.index, variant: task.variant, point: task.point, seed: task.seed, message: error?.message ?? String(error) });
      },
    },
    measures,
  );
  failures.sort((a, b) => a.index - b.index);
  return assemble(loaded, runs, results, failures, signal.aborted, opts.shard, measures);
}

/** Builds the experiment result from per-run results (also how shards are merged). */
export function assemble(
  loaded: LoadedScenario,
  runs: RunSpec[],
  results: Array<RunResult | undefined>,
  failures: RunFailure[],
  interrupted: boolean,
  shard?: Shard,
  measures: MeasureRegistry = MEASURES,
): ExperimentResult {
  const variants = aggregate(loaded, runs, results, measures);
  const expected = runs.filter((r) => inShard(r, shard)).length;
  const finished = results.filter(Boolean).length;
  // A shard sees only some runs: expectations and the ranking wait for the merge.
  const whole = !shard || shard.count === 1;
  const base = loaded.base;
  const references = resolveMeasureReferences(loaded, measures);
  return {
    loaded,
    measures,
    runs,
    ...(shard ? { shard } : {}),
    results,
    failures,
    variants,
    expectations: whole ? checkExpectations(references.expectations, variants) : [],
    ranking:
      whole && (variants.length >= 2 || base.compare)
        ? rankVariants(variants, measures, {
          compare: base.compare,
          parameters: (base.sweep ?? []).map((s) => s.parameter),
          floors: references.floors,
          protectedPopulations: protectedPopulations(base),
          judged: { users: subjectOf(base).some(Boolean), partners: partnersOf(base).some(Boolean) },
        })
        : null,
    partial: interrupted || finished < expected,
  };
}

export function aggregate(loaded: LoadedScenario, runs: RunSpec[], results: Array<RunResult | undefined>, measures: MeasureRegistry = MEASURES): VariantAggregate[] {
  // One pass over the runs, by (variant, point), rather than a filter per point.
  const byKey = new Map<string, RunResult[]>();
  for (const r of runs) {
    const result = results[r.index];
    if (!result) continue;
    const key = `${r.variant}\u0000${r.point}`;
    let list = byKey.get(key);
    if (!list) byKey.set(key, (list = []));
    list.push(result);
  }
  return loaded.variants.map((v) => ({
    name: v.name,
    ...(v.description ? { description: v.description } : {}),
    points: loaded.points.map((p) => aggregatePoint(measures, p.index, p.values, byKey.get(`${v.name}\u0000${p.index}`) ?? [], v.points[p.index].horizon)),
  }));
}

/**
 * The populations the ranking's default floor protects: those whose success is the point of
 * the service (roles user and internal), not traffic it is right to refuse or to hold to a contract.
 */
function protectedPopulations(base: LoadedScenario['base']): string[] {
  return Object.entries(base.clients).filter(([, p]) => SUBJECT_ROLES.includes(p.role ?? 'user')).map(([name]) => name);
}
