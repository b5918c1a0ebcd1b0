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
import { SeedPlan, lookConfidence, seedingOf, type SeedingOutcome } from './adaptive-seeds.js';
import { autoSeeds, type AutoSeeds } from '../scenario/seed-count.js';
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
  /** The whole plan (every shard's runs) and, with `seeds: auto`, the plan's settings, before any run starts: for the journal of finished runs. */
  onPlan?: (runs: RunSpec[], seedsAuto?: AutoSeeds) => void;
  /** With `seeds: auto`, the runs a later look adds to the plan, before they start. */
  onMoreRuns?: (runs: RunSpec[]) => void;
  /**
   * Called once the runs are planned and the pool is about to start (again at each later look
   * of `seeds: auto`), with how many runs this process will simulate, how much simulated time they add up to (seconds), and how many of
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
  /** With `seeds: auto`: how many seeds each cell got, and why (src/experiment/adaptive-seeds.ts). */
  seeding?: SeedingOutcome;
}

export async function runExperiment(loaded: LoadedScenario, opts: ExperimentOptions = {}): Promise<ExperimentResult> {
  const measures = opts.measures ?? MEASURES;
  resolveMeasureReferences(loaded, measures); // a misnamed measure is refused before any run
  // `--seeds N` asks for a fixed number, whatever the file says.
  const auto = opts.seeds === undefined ? autoSeeds(loaded.base.seeds) : null;
  if (auto && opts.shard && opts.shard.count > 1) throw new Error(SHARDED_AUTO_SEEDS);
  const runs = expandRuns(loaded, opts);
  const results: Array<RunResult | undefined> = [];
  const failures: RunFailure[] = [];
  const signal = opts.signal ?? new AbortController().signal;
  const scenarios = new Map(loaded.variants.map((v) => [v.name, v.points]));
  let done = 0, planned = 0;
  const reuse = opts.reuse?.measures === measures ? opts.reuse : undefined;
  const spec = ({ index, variant, point, seed }: RunSpec): RunSpec => ({ index, variant, point, seed });
  const { onRunStart, onRunProgress } = opts;

  /** Runs a batch of planned runs (this shard's share), taking --reuse results where it can. */
  const runBatch = async (batch: RunSpec[]) => {
    const reused: Array<[RunSpec, RunResult]> = [];
    const tasks = batch.filter((r) => inShard(r, opts.shard)).flatMap((r) => {
      const scenario = scenarios.get(r.variant)![r.point];
      const prior = reuse?.resultOf(r, scenario);
      if (prior) {
        reused.push([r, prior]);
        return [];
      }
      return [{ ...r, scenario, ...(opts.runBudget ? { budget: opts.runBudget } : {}) }];
    });
    for (const [r, result] of reused) {
      results[r.index] = result;
      opts.onReused?.(r, result);
    }
    planned += tasks.length;
    opts.onStart?.(tasks.length, tasks.reduce((sum, t) => sum + t.scenario.horizon, 0), reused.length);
    await runTasks(
      tasks,
      opts.workers ?? 1,
      signal,
      {
        ...(onRunStart ? { onStart: (task) => onRunStart(spec(task), task.scenario.horizon) } : {}),
        ...(onRunProgress ? { onProgress: (task, simS) => onRunProgress(spec(task), simS) } : {}),
        onResult: (task, result) => {
          results[task.index] = result;
          opts.onRun?.(++done, planned, result, spec(task));
        },
        onError: (task, error) => {
          failures.push({ index: task.index, variant: task.variant, point: task.point, seed: task.seed, message: error?.message ?? String(error) });
        },
      },
      measures,
    );
  };

  opts.onPlan?.(runs, auto ?? undefined);
  await runBatch(runs);
  if (auto) {
    // Looks until every ranked pair is decided, at max, or past the budget (adaptive-seeds.ts).
    const plan = new SeedPlan(auto, loaded.variants.map((v) => v.name), loaded.points.map((p) => p.index));
    const confidence = lookConfidence(auto);
    const baseSeed = opts.seed ?? loaded.base.seed;
    const order = new Map(loaded.variants.map((v, i) => [v.name, i]));
    let ranking = rankOf(loaded, aggregate(loaded, runs, results, measures), measures, confidence);
    while (ranking && !signal.aborted) {
      const raised = plan.nextLook(ranking);
      if (raised.size === 0) break;
      // The look's runs in the expansion's order: variants as written, then points, then seeds.
      const cells = [...raised.values()].sort((a, b) => order.get(a.variant)! - order.get(b.variant)! || a.point - b.point);
      const more: RunSpec[] = [];
      for (const c of cells) {
        for (let i = c.from; i < c.to; i++) more.push({ index: runs.length + more.length, variant: c.variant, point: c.point, seed: baseSeed + i });
      }
      runs.push(...more);
      opts.onMoreRuns?.(more);
      await runBatch(more);
      ranking = rankOf(loaded, aggregate(loaded, runs, results, measures), measures, confidence);
    }
  }
  failures.sort((a, b) => a.index - b.index);
  results.length = runs.length;
  return assemble(loaded, runs, results, failures, signal.aborted, opts.shard, measures, auto ?? undefined);
}

/** Why `seeds: auto` and `--shard` do not go together. */
export const SHARDED_AUTO_SEEDS = 'seeds: auto decides each look from the results of every cell, which one shard does not have; run it unsharded, or give a fixed number of seeds (--seeds N) to split it';

/** Builds the experiment result from per-run results (also how shards are merged). */
export function assemble(
  loaded: LoadedScenario,
  runs: RunSpec[],
  results: Array<RunResult | undefined>,
  failures: RunFailure[],
  interrupted: boolean,
  shard?: Shard,
  measures: MeasureRegistry = MEASURES,
  /** The adaptive plan the runs followed (`seeds: auto`), when they did. */
  auto?: AutoSeeds,
): ExperimentResult {
  const variants = aggregate(loaded, runs, results, measures);
  const expected = runs.filter((r) => inShard(r, shard)).length;
  const finished = results.filter(Boolean).length;
  // A shard sees only some runs: expectations and the ranking wait for the merge.
  const whole = !shard || shard.count === 1;
  const references = resolveMeasureReferences(loaded, measures);
  const ranking = whole ? rankOf(loaded, variants, measures, auto ? lookConfidence(auto) : undefined) : null;
  const partial = interrupted || finished < expected;
  return {
    loaded,
    measures,
    runs,
    ...(shard ? { shard } : {}),
    results,
    failures,
    variants,
    expectations: whole ? checkExpectations(references.expectations, variants) : [],
    ranking,
    partial,
    ...(auto && whole ? { seeding: seedingOf(auto, loaded.variants.map((v) => v.name), loaded.points.map((p) => p.index), runs, ranking, partial) } : {}),
  };
}

/** The ranking of the variants (none for a lone variant without a `compare` block), judged at `confidence`. */
function rankOf(loaded: LoadedScenario, variants: VariantAggregate[], measures: MeasureRegistry, confidence?: number): Ranking | null {
  const base = loaded.base;
  if (variants.length < 2 && !base.compare) return null;
  return rankVariants(variants, measures, {
    compare: base.compare,
    parameters: (base.sweep ?? []).map((s) => s.parameter),
    floors: resolveMeasureReferences(loaded, measures).floors,
    protectedPopulations: protectedPopulations(base),
    judged: { users: subjectOf(base).some(Boolean), partners: partnersOf(base).some(Boolean) },
    ...(confidence !== undefined ? { confidence } : {}),
  });
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
