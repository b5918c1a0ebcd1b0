/**
 * `retrystorm edge SCENARIO`: where is the cliff? For each variant, the value of one
 * parameter at which the probability of recovering within the hold crosses a level, found by
 * the adaptive search of src/experiment/search (docs/search.md). The scenario's `search:`
 * block says what to search; the flags set or override its fields, so any scenario can be
 * asked about any value a sweep would accept without editing it.
 */
import { stopOnSignals } from './stop-signals.js';
import { runSearch, SearchInterrupted, SearchRunFailed } from '../experiment/search/run-search.js';
import { resolveSearch, type ResolvedSearch, type SearchKey } from '../scenario/search-apply.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { SearchSpec } from '../scenario/schema-search.js';
import { searchSchema } from '../scenario/schema-search.js';
import { buildSearchResults } from '../results/search.js';
import { searchText } from '../report/search-view.js';
import { checkSeedFlag, chooseWorkers, loadInput, type Io } from './scenario-input.js';
import { EXIT, UsageError } from './errors.js';

export interface EdgeArgs {
  scenario: string;
  /** Read files the scenario names outside its folder too. */
  allowOutside?: boolean;
  parameter?: string;
  /** "from..to", e.g. 1m..30m. */
  range?: string;
  level?: number;
  precision?: string;
  budget?: number;
  direction?: 'falling' | 'rising';
  seed?: number;
  workers?: number;
  forceWorkers?: boolean;
  json?: boolean;
  quiet?: boolean;
}

const FLAG: Record<SearchKey, string> = { parameter: '--parameter', 'range.from': '--range', 'range.to': '--range', precision: '--precision', level: '--level', budget: '--budget' };

/** The search to do: the file's block with the flags written over it; flag problems said in the flags' terms. */
export function edgeSearch(loaded: LoadedScenario, args: EdgeArgs): ResolvedSearch {
  const block = loaded.base.search;
  if (!block && args.parameter === undefined) {
    throw new UsageError(`${loaded.base.name} has no search: block: give --parameter PATH and --range FROM..TO (e.g. --parameter faults[0].duration --range 1m..30m)`);
  }
  let range = block?.range;
  if (args.range !== undefined) {
    const m = /^\s*([^.\s][^\s]*?)\s*\.\.\s*([^\s]+)\s*$/.exec(args.range);
    if (!m) throw new UsageError(`--range takes FROM..TO in the parameter's unit, e.g. 1m..30m, 100/s..900/s or 0.5..2 (got "${args.range}")`);
    const num = (t: string) => (/^-?\d+(\.\d+)?$/.test(t) ? Number(t) : t);
    range = { from: num(m[1]), to: num(m[2]) };
  } else if (args.parameter !== undefined && args.parameter !== block?.parameter) {
    throw new UsageError(`give --range FROM..TO for --parameter ${args.parameter} (e.g. --range 1m..30m)`);
  }
  const input = {
    parameter: args.parameter ?? block!.parameter,
    range: range!,
    level: args.level ?? block?.level,
    precision: args.precision ?? (args.range === undefined ? block?.precision : undefined),
    budget: args.budget ?? block?.budget,
    direction: args.direction ?? block?.direction,
  };
  const parsed = searchSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = String(issue.path[0] ?? 'parameter');
    throw new UsageError(`--${key}: ${issue.message}`);
  }
  const resolved = resolveSearch(parsed.data as SearchSpec, loaded.setsValue);
  if (Array.isArray(resolved)) throw new UsageError(resolved.map((p) => `${FLAG[p.key]}: ${p.message}`).join('\n'));
  // Both ends built for every variant now: a range the scenario cannot take is said before any run.
  for (const v of loaded.variants) for (const value of [resolved.from, resolved.to]) loaded.scenarioAt(v.name, resolved, value);
  return resolved;
}

export async function edgeCommand(args: EdgeArgs, io: Io): Promise<number> {
  checkSeedFlag(args.seed);
  if (args.workers !== undefined && !(Number.isInteger(args.workers) && args.workers >= 1)) throw new UsageError(`--workers must be a whole number ≥ 1 (got ${Number.isNaN(args.workers) ? 'something that is not a number' : args.workers})`);
  const loaded = await loadInput(args.scenario, { allowOutside: args.allowOutside, ...(args.quiet ? {} : { warn: (line: string) => io.err(line) }) });
  const search = edgeSearch(loaded, args);
  const workers = chooseWorkers(args.workers, args.forceWorkers ?? false, io, args.quiet ?? false);
  // The same signals as run and diff: SIGTERM exits 143, Ctrl-C 130, a second signal at once.
  const stop = stopOnSignals(io, 'a search half done has no interval to report');
  if (!args.quiet) io.err(`searching ${search.parameter} for ${loaded.variants.length} variant(s), at most ${search.budget} runs each, on ${workers} worker(s)`);
  // A line now and then, not per batch: a search makes dozens of batches per variant.
  let lastLine = performance.now();
  const spent = new Map<string, number>();
  const started = performance.now();
  try {
    const outcome = await runSearch(loaded, search, {
      workers,
      seed: args.seed,
      signal: stop.signal,
      onBatch: (variant, runs) => {
        spent.set(variant, runs);
        const now = performance.now();
        if (args.quiet || now - lastLine < 5000) return;
        lastLine = now;
        io.err(`  ${[...spent].map(([v, n]) => `${v}: ${n} runs`).join(', ')}`);
      },
    });
    const results = buildSearchResults(outcome);
    if (args.json) io.out(JSON.stringify(results, null, 2));
    else {
      io.out(`${loaded.base.name}: ${searchText(results, args.quiet ?? false)}`);
      const total = results.variants.reduce((n, v) => n + v.runs, 0);
      if (!args.quiet) io.out(`${total} runs in all, seeds from ${outcome.seed}, ${workers} worker(s), ${((performance.now() - started) / 1000).toFixed(1)}s`);
    }
    return EXIT.ok;
  } catch (e) {
    if (e instanceof SearchInterrupted) return stop.exitCode();
    // A run that fails (its memory budget, say) leaves the search without an outcome it needs.
    if (e instanceof SearchRunFailed) {
      io.err(`FAILED RUN: ${e.message}; the search stopped there`);
      return EXIT.internal;
    }
    throw e;
  } finally {
    stop.dispose();
  }
}
