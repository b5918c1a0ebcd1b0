/**
 * The cliff search on real runs: for each variant, the design of design.ts asks for batches
 * of (value, seed index), and each becomes a run of the variant with the searched parameter
 * set to that value (built and validated by the loader, as a sweep's points are) and the
 * experiment's seed + index, on one shared worker pool. A run counts as recovered by the
 * project's own `recovered` measure (healthy again after the last fault, for the hold).
 *
 * The variants are searched at the same time, so the pool stays busy; each variant's
 * decisions read only its own finished batches, so the searches, and their results, are the
 * same for any number of workers.
 */
import type { LoadedScenario } from '../../scenario/load.js';
import { writeValue, type ResolvedSearch } from '../../scenario/search-apply.js';
import type { Scenario } from '../../scenario/schema.js';
import type { RunBudget } from '../../model/simulate.js';
import { openTaskPool } from '../pool.js';
import { takesWholeNumbers } from '../whole-numbers.js';
import type { RunTask } from '../worker.js';
import type { RunResult } from '../run-one.js';
import { directionOf, searchTippingPoint, type Direction, type SearchResult, type Trial } from './design.js';
import type { Tally } from './isotonic.js';

export interface VariantSearch {
  variant: string;
  result: SearchResult;
}

export interface SearchOutcome {
  search: ResolvedSearch;
  /** The experiment's base seed: the i-th run at a value uses seed + i. */
  seed: number;
  variants: VariantSearch[];
}

export interface SearchRunOptions {
  workers?: number;
  seed?: number;
  signal?: AbortSignal;
  runBudget?: Partial<RunBudget>;
  /** After each finished batch of a variant's search: runs it has spent so far. */
  onBatch?: (variant: string, runs: number, budget: number) => void;
}

/** Thrown when the search was aborted (Ctrl-C): a search half done has no interval to report. */
export class SearchInterrupted extends Error {
  constructor() {
    super('the search was interrupted');
    this.name = 'SearchInterrupted';
  }
}

/** A run that threw: the search cannot decide without it. */
export class SearchRunFailed extends Error {
  constructor(variant: string, value: string | number, seed: number, message: string) {
    super(`variant "${variant}" at ${value}, seed ${seed}: ${message}`);
    this.name = 'SearchRunFailed';
  }
}

/** The step values snap to: a round number (1, 2 or 5 times a power of ten) at most an eighth of the precision. */
export function resolutionFor(precision: number): number {
  const target = precision / 8;
  const p = 10 ** Math.floor(Math.log10(target));
  return [5, 2, 1].map((m) => m * p).find((s) => s <= target) ?? p;
}

/**
 * The step the searched values snap to: resolutionFor(precision), or whole numbers for a
 * parameter that takes no fractions (slots, instances), which the scenario's own validation
 * tells: a value halfway between two whole ones is refused. Searching server.slots once tried
 * 5.8 slots and stopped with a validation error in the middle of the search.
 */
function searchResolution(loaded: LoadedScenario, search: ResolvedSearch): number {
  const step = resolutionFor(search.precision);
  return takesWholeNumbers(loaded, loaded.variants[0].name, search) ? Math.max(1, Math.round(step)) : step;
}

/**
 * The direction of the search when the scenario does not give it, read once from every
 * variant's coarse pass together: whether recovering gets likelier as the value grows is a
 * property of the parameter (a longer outage, more slots), not of a variant. Read per variant,
 * one that recovered everywhere in the range (or nowhere) showed no direction, was taken as
 * falling, and its tipping point came out on the wrong side of the range. Each variant's
 * search waits here until all have finished their coarse pass; an abort releases them.
 */
export function pooledDirection(variants: number, signal: AbortSignal): (bottom: Tally, top: Tally) => Promise<Direction> {
  const bottom: Tally = { value: NaN, recovered: 0, runs: 0 }, top: Tally = { value: NaN, recovered: 0, runs: 0 };
  let heard = 0;
  let settle!: (d: Direction) => void, fail!: (e: Error) => void;
  const decided = new Promise<Direction>((resolve, reject) => { settle = resolve; fail = reject; });
  decided.catch(() => {}); // an abort before anyone asks is no error of its own
  signal.addEventListener('abort', () => fail(new SearchInterrupted()), { once: true });
  return (b, t) => {
    bottom.recovered += b.recovered; bottom.runs += b.runs;
    top.recovered += t.recovered; top.runs += t.runs;
    if (++heard === variants) settle(directionOf(bottom, top)); // the one rule, on every variant's runs together
    return decided;
  };
}

export async function runSearch(loaded: LoadedScenario, search: ResolvedSearch, opts: SearchRunOptions = {}): Promise<SearchOutcome> {
  const seed = opts.seed ?? loaded.base.seed;
  // One variant's failed run stops the others too (their searches could take long, for nothing).
  const stop = new AbortController();
  const outer = opts.signal;
  if (outer?.aborted) stop.abort();
  outer?.addEventListener('abort', () => stop.abort(), { once: true });
  const signal = stop.signal;
  const pool = openTaskPool(opts.workers ?? 1, signal);
  const resolution = searchResolution(loaded, search);
  const directionFrom = search.direction === undefined ? pooledDirection(loaded.variants.length, signal) : undefined;
  let nextIndex = 0;
  try {
    // Settled, not Promise.all: a variant that fails must not leave the others' runs rejecting
    // against a pool already closed, unheard.
    const settled = await Promise.allSettled(loaded.variants.map(async (v): Promise<VariantSearch> => {
      const built = new Map<number, Scenario>();
      const scenarioAt = (value: number) => {
        let s = built.get(value);
        if (!s) built.set(value, (s = loaded.scenarioAt(v.name, search, value)));
        return s;
      };
      let spent = 0;
      const batch = async (trials: readonly Trial[]): Promise<boolean[]> => {
        const tasks: RunTask[] = trials.map((t) => ({
          index: nextIndex++,
          variant: v.name,
          point: 0,
          seed: seed + t.seedIndex,
          scenario: scenarioAt(t.value),
          ...(opts.runBudget ? { budget: opts.runBudget } : {}),
        }));
        const results = new Map<RunTask, RunResult>();
        let failure: SearchRunFailed | undefined;
        await pool.run(tasks, {
          onResult: (task, result) => results.set(task, result),
          onError: (task, error) => {
            failure ??= new SearchRunFailed(v.name, writeValue(search.kind, trials[tasks.indexOf(task)].value), task.seed, error?.message ?? String(error));
          },
        });
        if (failure) {
          stop.abort();
          throw failure;
        }
        if (signal.aborted) throw new SearchInterrupted();
        spent += tasks.length;
        opts.onBatch?.(v.name, spent, search.budget);
        return tasks.map((t) => results.get(t)!.summary.measures.recovered === 1);
      };
      const result = await searchTippingPoint(
        { from: search.from, to: search.to, level: search.level, precision: search.precision, budget: search.budget, resolution, direction: search.direction, directionFrom },
        batch,
      );
      return { variant: v.name, result };
    }));
    const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
    if (failed.length) throw failed.find((e) => !(e instanceof SearchInterrupted)) ?? failed[0];
    return { search, seed, variants: settled.map((s) => (s as PromiseFulfilledResult<VariantSearch>).value) };
  } finally {
    await pool.close();
  }
}
