/**
 * The commands that simulate or merge, and print an experiment's outcome: `run` and
 * `merge`, each a plain async function over the library that returns an exit code. They print
 * for people; the library underneath never prints. (main.ts imports this module only for
 * these two commands: the others, `validate` above all, start without the simulation, the
 * worker pool and the report renderer.)
 */
import { join } from 'node:path';
import type { LoadedScenario } from '../scenario/load.js';
import { shapeProblems, bucketsHeld, heldProblems } from '../scenario/experiment-size.js';
import { formatCount } from '../scenario/limits.js';
import { runExperiment, SHARDED_AUTO_SEEDS, type ExperimentResult } from '../experiment/experiment.js';
import { autoSeeds } from '../scenario/seed-count.js';
import { inShard, type RunSpec, type Shard } from '../experiment/expand.js';
import { shardFromArg } from './shard-arg.js';
import { estimate, ATTEMPTS_PER_S } from '../experiment/estimate.js';
import { mergeDirs } from '../experiment/merge.js';
import { IncompleteSplitError, MergeError, OtherBuildError } from '../experiment/merge-error.js';
import { FinishedRuns } from '../experiment/run-reuse.js';
import { ScenarioError } from '../scenario/problems.js';
import type { ReportOptions } from '../report/write.js';
import { OutputFolder, commitOutputs } from './output-folder.js';
import { stopOnSignals } from './stop-signals.js';
import { rankingText, summaryTable, wrapWords } from '../report/table.js';
import { verdictText } from '../report/verdict.js';
import { inertNotes } from '../report/inert-view.js';
import { seedRange, seedingSetting } from '../report/seeding-view.js';
import type { Results } from '../results/results.js';
import { resolveMeasureReferences } from '../experiment/expectations.js';
import { MEASURES } from '../measures/registry.js';
import { formatDuration, parseDuration } from '../scenario/units.js';
import { progress } from './progress.js';
import { readResultsFolder } from '../results/bundle.js';
import { checkGuards, guardStatus, type GuardResult } from '../results/diff/guards.js';
import { EXIT, UsageError } from './errors.js';
import { parseByteSize } from './byte-size.js';

import { runSearch, SearchInterrupted, SearchRunFailed } from '../experiment/search/run-search.js';
import { withSearch } from '../experiment/search/with-search.js';
import { searchText } from '../report/search-view.js';
import { checkSeedFlag, chooseWorkers, loadInput, printStyled, type Io } from './scenario-input.js';
import { styled } from './colour.js';
import { runJson } from './run-json.js';
import { STDIN } from '../scenario/read-source.js';

/** The least --max-run-memory takes: a calm run's start fits in it (a storm needs far more as it goes). */
const MIN_RUN_MEMORY_BYTES = 1024 ** 2;

export type { Io };

export interface RunArgs {
  scenario: string;
  seed?: number;
  seeds?: number;
  out?: string;
  workers?: number;
  /** Allow more workers than cores. */
  forceWorkers?: boolean;
  shard?: string;
  quiet?: boolean;
  /** The most simulation state one run may hold, as written (512MiB, 4GiB). */
  maxRunMemory?: string;
  /** A duration with its unit ("5s", "1m"): time between two progress updates (default 5s in a log, 0.2s on a terminal). */
  progressEvery?: string;
  /** How the written files link to each other (summary.md → report.html). */
  report?: ReportOptions;
  /** A results folder to check the scenario's guards on change (`worsenBy`) against. */
  base?: string;
  /** A results folder of an earlier run whose unchanged runs (same scenario and seed) are taken instead of simulated. */
  reuse?: string;
  /** Read files the scenario names outside its folder too (a results folder still carries copies of them). */
  allowOutside?: boolean;
  /** Print the outcome as one JSON document (run-json.ts) instead of the table and the lines for people. */
  json?: boolean;
}

/**
 * The runs a results folder keeps (`--reuse DIR`), read back and verified as `merge` reads
 * them: from its scenario.yaml and the copies of the files it read (inputs/), unedited, by
 * this build. A run whose trace or config changed since has another key, and is simulated. Asked for by name, so a folder that
 * cannot be verified is refused with the reason rather than silently simulated again. A folder
 * of another build (an earlier checkout, another release) is not wrong, only not this code's:
 * a note says so and every run is simulated.
 */
function reusableRuns(dir: string, io: Io, quiet: boolean): FinishedRuns | undefined {
  try {
    return FinishedRuns.of(mergeDirs([dir]));
  } catch (e) {
    if (e instanceof OtherBuildError) {
      if (!quiet) io.err(`note: --reuse ${dir}: ${e.builds}: its runs may not be what this build computes, so every run is simulated`);
      return undefined;
    }
    if (e instanceof ScenarioError) throw new UsageError(`--reuse ${dir}: its scenario.yaml cannot be loaded here (${e.problems[0]?.message ?? 'invalid'}), so its runs cannot be matched`);
    // Read as merge reads a folder, but said of --reuse (a bare "merge …" named a command the user never ran).
    if (e instanceof IncompleteSplitError) throw new UsageError(`--reuse ${dir}: it holds one shard of a split run (--shard i/n), and --reuse takes one whole run's folder: merge the shards first ("retrystorm merge SHARD1 SHARD2 … --out DIR") and reuse DIR`);
    if (e instanceof MergeError) throw new UsageError(`--reuse ${dir}: its runs cannot be reused: ${e.message}`);
    throw e;
  }
}

/** The limits a file's experiment must keep, applied to what the flags ask for instead. */
function checkSizeFlags(loaded: LoadedScenario, seeds: number | undefined): void {
  if (seeds === undefined) return;
  const shape = shapeProblems(loaded.variants.length, [loaded.points.length], seeds, '--seeds');
  const held = shape.length ? [] : heldProblems(bucketsHeld(loaded.variants.map((v) => v.points), seeds), loaded.variants.length * loaded.points.length * seeds, false, '--seeds');
  const problems = [...shape, ...held];
  if (problems.length) throw new UsageError(problems.map((p) => p.message).join('\n'));
}

/** The cost of an experiment, printed before it starts when it is large enough to matter. */
/** The longest delay a Node.js timer keeps (setTimeout, setInterval): 2^31 - 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function estimateLine(loaded: LoadedScenario, seed: number | undefined, seeds: number | undefined, shard: Shard | undefined, workers: number): string | undefined {
  const e = estimate(loaded, { seed, seeds, ...(typeof shard === 'object' ? { shard } : {}) });
  const wallS = e.cpuS / Math.max(1, Math.min(workers, e.runs));
  if (wallS < 60 && e.resultBytes < 256 * 2 ** 20) return undefined;
  const mb = e.resultBytes / 2 ** 20;
  const memory = mb >= 1024 ? `${(mb / 1024).toFixed(1)} GB` : `${Math.round(mb)} MB`;
  return `estimate: ${formatCount(e.runs)} run(s), about ${e.actions.toExponential(1).replace('e+', 'e')} user actions: at least ${formatDuration(Math.round(wallS))} on ${workers} worker(s) ` +
    `(at ${(ATTEMPTS_PER_S / 1e6).toFixed(1)}M attempts/s per worker, more when clients retry); results about ${memory} in memory (${formatCount(e.buckets)} buckets)`;
}

export async function runCommand(args: RunArgs, io: Io): Promise<number> {
  const whole = (x: number | undefined, min: number, flag: string) => {
    if (x !== undefined && (!Number.isInteger(x) || x < min)) {
      throw new UsageError(`${flag} must be a whole number ≥ ${min} (got ${Number.isNaN(x) ? 'something that is not a number' : x})`);
    }
  };
  checkSeedFlag(args.seed);
  whole(args.seeds, 1, '--seeds');
  whole(args.workers, 1, '--workers');
  const progressEvery = args.progressEvery === undefined ? undefined : parseDuration(args.progressEvery);
  if (progressEvery && (!progressEvery.ok || progressEvery.value <= 0)) {
    throw new UsageError(`--progress-every takes a duration above 0 with its unit, e.g. 5s or 1m (got "${args.progressEvery}")`);
  }
  // Node's timers hold at most 2^31 - 1 ms (24.8 days); a longer one fires at once, every millisecond.
  if (progressEvery?.ok && progressEvery.value * 1000 > MAX_TIMER_MS) {
    throw new UsageError(`--progress-every is at most 24d, the longest interval a timer can keep (got "${args.progressEvery}"); --quiet prints no progress at all`);
  }
  const shard = args.shard === undefined ? undefined : shardFromArg(args.shard, process.env);
  if (typeof shard === 'string') throw new UsageError(shard);
  const memoryBytes = args.maxRunMemory === undefined ? undefined : parseByteSize(args.maxRunMemory);
  if (typeof memoryBytes === 'string') throw new UsageError(`--max-run-memory: ${memoryBytes}`);
  // Less than a run holds at its start fails every run (exit 70): a bad flag, said as one.
  if (memoryBytes !== undefined && memoryBytes < MIN_RUN_MEMORY_BYTES) {
    throw new UsageError(`--max-run-memory: ${args.maxRunMemory} is less than a run holds at its start; give each run at least 1MiB (the default is 4GiB)`);
  }

  const loaded = await loadInput(args.scenario, { allowOutside: args.allowOutside, ...(args.quiet ? {} : { warn: (line: string) => io.err(line) }) });
  checkSizeFlags(loaded, args.seeds);
  const auto = args.seeds === undefined ? autoSeeds(loaded.base.seeds) : null;
  if (auto && typeof shard === 'object' && shard.count > 1) throw new UsageError(SHARDED_AUTO_SEEDS);
  // Read before the runs: a wrong folder is said in a second, not after an hour of simulation.
  // A folder a killed writer left half committed is finished first (commit-swap.ts).
  const say = (line: string) => io.err(line);
  for (const read of [args.base, args.reuse]) if (read !== undefined) OutputFolder.settle(read, say);
  const baseResults = args.base === undefined ? undefined : readResultsFolder(args.base).results;
  const reuse = args.reuse === undefined ? undefined : reusableRuns(args.reuse, io, args.quiet ?? false);
  // Checked and locked before any simulation: an unusable --out is said now, not after the runs.
  const folder = OutputFolder.claim(args.out ?? join('reports', loaded.base.name), { keep: args.scenario === STDIN ? [] : [args.scenario], say });
  noteReplaced(folder, loaded.base.name, io);
  for (const orphan of folder.orphans()) {
    io.err(`note: ${relativeToCwd(orphan)} holds the finished runs of an earlier run that was killed; "retrystorm merge ${relativeToCwd(orphan)} --out DIR" writes them`);
  }
  const workers = chooseWorkers(args.workers, args.forceWorkers ?? false, io, args.quiet ?? false);
  const cost = estimateLine(loaded, args.seed, args.seeds, shard, workers);
  if (cost && !args.quiet) io.err(cost);

  // Ctrl-C and SIGTERM both keep what finished: the runs in progress are abandoned and the
  // finished ones written, marked partial.
  const stop = stopOnSignals(io, 'keeping finished runs and writing them');
  const bar = progress(io.progressStream, { quiet: args.quiet ?? false, everyS: progressEvery?.ok ? progressEvery.value : undefined });
  const runLabel = (r: RunSpec) => {
    const values = Object.entries(loaded.points[r.point]?.values ?? {}).map(([k, v]) => `${k}=${v}`);
    return [r.variant, ...values, `seed ${r.seed}`].join(', ');
  };
  const started = performance.now();
  let x: ExperimentResult;
  let looked = false; // a later look of seeds: auto has begun
  let searchFailed = false;
  try {
    x = await runExperiment(loaded, {
      seed: args.seed,
      seeds: args.seeds,
      workers,
      shard,
      signal: stop.signal,
      ...(memoryBytes !== undefined ? { runBudget: { memoryBytes } } : {}),
      // Printed once the signal handlers are installed: from this line on, Ctrl-C keeps the
      // finished runs (scripts and the tests wait for it before sending a signal).
      reuse,
      onStart: (planned, simulatedS, reused) => {
        if (!args.quiet && !looked) {
          const taken = reused > 0 ? `; ${reused} run(s) unchanged in ${args.reuse} (same scenario and seed), taken from it` : '';
          io.err(`running ${planned} run(s) on ${Math.min(workers, Math.max(planned, 1))} worker(s)${taken}; Ctrl-C keeps finished runs`);
        }
        bar.planned(planned, simulatedS);
      },
      // A run taken from --reuse goes to the journal like a finished one: a kill keeps it too.
      onReused: (r, result) => folder.record(r.index, result),
      onRunStart: (r, horizonS) => bar.started(r.index, runLabel(r), horizonS),
      onRunProgress: (r, simS) => bar.moved(r.index, simS),
      // Each finished run is in the journal before anything else happens: a kill keeps it.
      onPlan: (runs, seedsAuto) => folder.begin({ runs, ...(seedsAuto ? { seedsAuto } : {}), shard, source: loaded.source, inputs: loaded.inputs }, loaded.source),
      onMoreRuns: (runs) => {
        folder.extend(runs);
        looked = true;
        if (!args.quiet) io.err(lookLine(args.seed ?? loaded.base.seed, runs));
      },
      onRun: (_done, _total, result, r) => {
        folder.record(r.index, result);
        bar.finished(r.index, result.summary.measures.attempts ?? 0);
      },
    });
    // The scenario's search, after the runs: its batches depend on each other, so no shard
    // can do a part of it; shard 1 of a split runs it whole, and merge takes its outcome.
    const search = loaded.search;
    const searches = shard === undefined || shard.index === 1;
    if (search && searches && !x.partial) {
      if (!args.quiet) io.err(`searching ${search.parameter} for each variant's tipping point, at most ${search.budget} runs each${shard ? ` (in this shard, ${shard.index}/${shard.count}, for the whole split)` : ''}`);
      try {
        withSearch(x, await runSearch(loaded, search, { workers, seed: args.seed, signal: stop.signal, ...(memoryBytes !== undefined ? { runBudget: { memoryBytes } } : {}) }));
      } catch (e) {
        if (e instanceof SearchRunFailed) {
          // The runs' results are still written; the search has no outcome to add.
          io.err(`FAILED RUN (search): ${e.message}; the search stopped there`);
          searchFailed = true;
        } else if (e instanceof SearchInterrupted) x.partial = true;
        else throw e;
      }
    } else if (search && !searches && !args.quiet) {
      io.err(`note: the search: block runs in shard 1/${shard!.count} (each batch depends on the last); merge takes its outcome from there`);
    }
  } catch (e) {
    // Finished runs stay in the staging folder's journal; an empty one is removed.
    const journaled = folder.runsKept;
    folder.release(journaled > 0);
    if (journaled > 0 || folder.runsLost > 0) io.err(folder.keptLine(relativeToCwd(folder.staging)));
    throw e;
  } finally {
    bar.end();
    stop.dispose();
  }
  const { files, bundle } = commitOutputs(x, folder, args.report);
  const wall = (performance.now() - started) / 1000;
  // With --json, the lines for people stay off stdout: the one document below says the outcome.
  const people = args.json ? { ...io, out: () => {}, outStyled: () => {} } : io;
  const code = report(x, bundle.results, files, people, args.quiet ?? false, `${formatDuration(loaded.base.horizon)} simulated each, ${workers} worker(s), ${wall.toFixed(1)}s`);
  const guards: GuardResult[] = [];
  const guarded = guardsCode(loaded, baseResults, bundle.results, people, guards);
  const exit = searchFailed && code === EXIT.ok ? EXIT.internal : code === EXIT.ok && guarded !== EXIT.ok ? guarded : code === EXIT.interrupted ? stop.exitCode() : code;
  if (args.json) {
    const r = bundle.results;
    io.out(JSON.stringify(runJson({
      exitCode: exit,
      scenario: r.scenario,
      partial: r.partial,
      runsPlanned: r.runsPlanned,
      runsFinished: r.runsFinished,
      verdict: verdictText(r),
      expectations: r.expectations,
      guards: guards.map(({ name, variant, at, measure, passed, compared, actual }) => ({ name, variant, at, measure, passed, compared, actual })),
      failedRuns: r.failedRuns.map(({ variant, point, seed, message }) => ({ variant, point, seed, message })),
      out: relativeToCwd(folder.dir),
      files: files.map(relativeToCwd),
    }), null, 2));
  }
  return exit;
}

/** What a later look of `seeds: auto` runs, and why: "seeds: auto, look at 4 seeds: 12 more run(s) for 3 variant(s) ...". */
function lookLine(baseSeed: number, runs: RunSpec[]): string {
  const variants = new Set(runs.map((r) => r.variant)).size;
  const seeds = Math.max(...runs.map((r) => r.seed - baseSeed + 1));
  return `seeds: auto: ${runs.length} more run(s) for ${variants} variant(s) whose place the seeds so far have not decided (up to ${seeds} seeds each)`;
}

/** Prints the outcome of an experiment and decides the exit code. */
function report(x: ExperimentResult, results: Results, files: string[], io: Io, quiet: boolean, detail: string): number {
  const base = x.loaded.base;
  const seeds = x.seeding ? seedRange(x.seeding.cells) : `${new Set(x.runs.map((r) => r.seed)).size}`;
  const points = x.loaded.points.length;
  printStyled(io, [styled('heading', base.name), `: ${x.loaded.variants.length} variant(s)${points > 1 ? ` x ${points} sweep points` : ''} x ${seeds} seed(s)${x.seeding ? ' (seeds: auto)' : ''}${x.shard ? `, shard ${x.shard.index}/${x.shard.count}` : ''}${quiet ? '' : `; ${detail}`}`]);
  const width = io.columns ?? Infinity;
  const finished = x.results.filter(Boolean).length;
  const planned = x.runs.filter((r) => inShard(r, x.shard)).length;
  if (x.partial) {
    // Said before any number, not only at the end on stderr: everything below reads the finished runs alone.
    io.out(wrapWords(`PARTIAL: ${finished} of ${planned} runs finished; the verdict, the table and the ranking below read only those, and a variant may have fewer seeds than another`, width));
  }
  if (base.question) io.out(wrapWords(base.question.trim(), width));
  const verdict = verdictText(results);
  if (verdict) io.out(wrapWords(verdict, width));
  for (const note of inertNotes(results)) io.out(wrapWords(`note: ${note}`, width));
  io.out('');
  io.out(summaryTable(results, width));
  io.out('');
  if (results.search) {
    io.out(searchText(results.search, true));
    io.out('');
  }
  const ranking = rankingText(results, width);
  if (ranking) {
    io.out(ranking);
    const seeding = seedingSetting(results);
    if (seeding) io.out(wrapWords(`seeds: ${seeding}; report.html and summary.md say why each variant got its seeds`, width, '  '));
    io.out('');
  }
  for (const e of x.expectations) printStyled(io, [e.passed ? styled('pass', 'PASS') : styled('fail', 'FAIL'), `  ${e.name} (${e.actual})`]);
  if (x.expectations.length) io.out('');
  io.out(`wrote ${files.map(relativeToCwd).join(', ')}`);
  for (const f of x.failures) {
    io.err(`FAILED RUN: variant ${f.variant}, point ${f.point}, seed ${f.seed}: ${f.message}`);
  }
  if (x.partial) {
    io.err(`PARTIAL: ${finished} of ${planned} runs${x.shard ? ` of shard ${x.shard.index}/${x.shard.count}` : ''} finished; the files above hold them and say "partial": true`);
  }
  const failedExpectations = x.expectations.filter((e) => !e.passed);
  if (failedExpectations.length) io.err(`${failedExpectations.length} expectation(s) failed: ${failedExpectations.map((e) => e.name).join('; ')}`);
  if (x.failures.length) return EXIT.internal;
  if (x.partial) return EXIT.interrupted;
  if (failedExpectations.length) return EXIT.expectationFailed;
  return EXIT.ok;
}

/**
 * The scenario's guards on change, checked against a base's results when `--base` gives
 * one; without it, a scenario that has guards is told they were not checked.
 */
function guardsCode(loaded: LoadedScenario, base: Results | undefined, head: Results, io: Io, checked: GuardResult[] = []): number {
  const expectations = resolveMeasureReferences(loaded, MEASURES).expectations;
  const count = expectations.reduce((n, e) => n + e.guards.length, 0);
  if (count === 0) return EXIT.ok;
  if (!base) {
    io.err(`note: ${count} guard(s) on change (worsenBy) not checked: give --base DIR, a results folder of the base to compare with (or use "retrystorm diff")`);
    return EXIT.ok;
  }
  const results: GuardResult[] = checkGuards(expectations, base, head);
  checked.push(...results);
  for (const g of results) {
    const status = guardStatus(g);
    printStyled(io, [status === 'PASS' ? styled('pass', status) : status === 'FAIL' ? styled('fail', status) : status, `  guard: ${g.name} (${g.actual})`]);
  }
  const failed = results.filter((g) => !g.passed);
  if (failed.length) io.err(`${failed.length} guard(s) on change failed against the base: ${failed.map((g) => g.name).join('; ')}`);
  return failed.length ? EXIT.expectationFailed : EXIT.ok;
}

export async function mergeCommand(dirs: string[], out: string | undefined, io: Io, opts: ReportOptions = {}): Promise<number> {
  const say = (line: string) => io.err(line);
  for (const dir of dirs) OutputFolder.settle(dir, say);
  const x = mergeDirs(dirs);
  const folder = OutputFolder.claim(out ?? join('reports', x.loaded.base.name), { say });
  noteReplaced(folder, x.loaded.base.name, io);
  const { files, bundle } = commitOutputs(x, folder, opts);
  return report(x, bundle.results, files, io, true, '');
}

/** Says so when the results of another scenario are about to be replaced (a mistyped --out). */
function noteReplaced(folder: OutputFolder, scenario: string, io: Io): void {
  const held = folder.heldScenario();
  if (held !== undefined && held !== scenario) {
    io.err(`note: ${relativeToCwd(folder.dir)} holds the results of scenario "${held}"; those of "${scenario}" replace them`);
  }
}

function relativeToCwd(p: string): string {
  const cwd = process.cwd() + '/';
  return p.startsWith(cwd) ? p.slice(cwd.length) : p;
}
