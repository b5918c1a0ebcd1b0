/**
 * `retrystorm diff BASE HEAD`: what a change does to the verdict. Each side is a results
 * folder (written by `run --out` or `merge`) or a scenario file, which is run first (with
 * the same seeds for both sides, so a change that is not the policy's leaves the numbers
 * byte for byte the same). Prints the diff for the terminal, as JSON (`--json`) or as a
 * pull-request comment (`--markdown`); `--out DIR` keeps both sides' results (report.html
 * included) in DIR/base and DIR/head.
 *
 * Exit code 1 when the head regresses in a way the scenario says must fail a check: a guard
 * on change (`worsenBy`) of the head's scenario fails against the base, or an expectation
 * that passed on the base fails on the head; with `--fail-on-worse`, also any change for
 * the worse beyond seed noise on the verdict's measures.
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { loadScenarioFile, type LoadedScenario } from '../scenario/load.js';
import { ScenarioError } from '../scenario/problems.js';
import { runExperiment, type ExperimentResult } from '../experiment/experiment.js';
import { progress } from './progress.js';
import { FinishedRuns } from '../experiment/run-reuse.js';
import { loadFolderScenario, mergeDirs } from '../experiment/merge.js';
import { MergeError, OtherBuildError } from '../experiment/merge-error.js';
import { bundleOf } from '../results/bundle.js';
import { readResultsFolder } from '../results/bundle.js';
import type { Results } from '../results/results.js';
import { diffResults } from '../results/diff/results-diff.js';
import { diffScenarios } from '../results/diff/scenario-diff.js';
import type { DiffReport } from '../results/diff/diff-report.js';
import { checkGuards } from '../results/diff/guards.js';
import { measureReferencesCheck, resolveMeasureReferences, type ResolvedExpectation } from '../experiment/expectations.js';
import { MEASURES } from '../measures/registry.js';
import { OutputFolder, commitOutputs } from './output-folder.js';
import { diffText } from '../report/diff/diff-text.js';
import { diffMarkdown } from '../report/diff/diff-markdown.js';
import { verdictChanges } from '../report/diff/diff-cells.js';
import type { Io } from './scenario-input.js';
import { EXIT, UsageError } from './errors.js';
import { stopOnSignals } from './stop-signals.js';

export interface DiffArgs {
  base: string;
  head: string;
  json?: boolean;
  markdown?: boolean;
  out?: string;
  seeds?: number;
  workers?: number;
  failOnWorse?: boolean;
  /** Read files a scenario names outside its folder too. */
  allowOutside?: boolean;
}

interface Side {
  results: Results;
  /** The experiment: run now from a scenario file, or a base folder's runs.json read back (when that can be verified). */
  run?: ExperimentResult;
  /** The scenario as loaded; for a results folder, its scenario.yaml read again (or why it could not be). */
  scenario: LoadedScenario | string;
  /** Run now and stopped by a signal before every run finished. */
  partial?: boolean;
}

/**
 * A results folder's scenario, loaded again for the scenario diff from the folder alone (its
 * scenario.yaml and the copies of the files it read, inputs/), or why it could not be.
 */
function scenarioOfFolder(dir: string, run: ExperimentResult | undefined): LoadedScenario | string {
  if (run) return run.loaded;
  try {
    return loadFolderScenario(dir);
  } catch (e) {
    if (e instanceof ScenarioError) return `${dir}/scenario.yaml cannot be loaded again here (${e.problems[0]?.message ?? 'invalid'})`;
    if (e instanceof MergeError) return `${dir}/scenario.yaml cannot be loaded again here (${e.message})`;
    throw e;
  }
}

/** A side as given: a results folder, or a scenario file loaded (and its expectations resolved) before anything runs. */
type Given = { path: string; which: 'base' | 'head'; loaded?: LoadedScenario; expectations?: ResolvedExpectation[] };

/**
 * Reads what a side names, before either side runs: a scenario file with a problem is said
 * now, not after the base has been simulated ("nothing was run" was then untrue).
 */
function given(path: string, which: 'base' | 'head', allowOutside: boolean): Given {
  if (!existsSync(path)) throw new UsageError(`${which} ${path}: no such file or folder (give a results folder or a scenario file)`);
  if (statSync(path).isDirectory()) return { path, which };
  const loaded = loadScenarioFile(path, { allowOutside }, { checks: [measureReferencesCheck(MEASURES)] });
  return { path, which, loaded, expectations: resolveMeasureReferences(loaded, MEASURES).expectations };
}

/** `--out`, made (or found to be a folder) before anything runs: a file or an unwritable place was an internal error after the base's runs. */
function prepareOut(out: string): void {
  const dir = resolve(out);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`--out ${out} is a file, not a folder: name a folder to keep both sides' results in (DIR/base, DIR/head)`);
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (e) {
    throw new UsageError(`--out ${out}: cannot write there (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); name a folder you can write to`);
  }
}

/**
 * One side: a results folder read back, or a scenario file run now. A head run now takes the
 * base's result for every run whose scenario and seed are the base's (`reuse`, run-reuse.ts):
 * the same bytes it would simulate, without simulating them. Stopped by `signal`, it keeps
 * and says what finished.
 */
async function side(g: Given, args: DiffArgs, io: Io, signal: AbortSignal, folder?: OutputFolder, reuse?: FinishedRuns, takeRuns = false): Promise<Side> {
  const { path, which } = g;
  if (!g.loaded) {
    const bundle = readResultsFolder(path);
    // Only a base's runs are ever taken, and only by a head that runs: a folder is not read back a second time.
    const run = takeRuns ? runsOfFolder(path, io) : undefined;
    return { results: bundle.results, scenario: scenarioOfFolder(path, run), run };
  }
  const loaded = g.loaded;
  const workers = Math.min(args.workers ?? availableParallelism(), availableParallelism());
  // With --out, each side's folder is run's: its finished runs journaled as they come (a kill
  // keeps them), the folder replaced as a whole at the end, a full disk said and cleaned up.
  let x: ExperimentResult;
  // Progress as run draws it (a bar on a terminal, a line every 5 s in a log): a diff of two
  // flagships runs for minutes, and it once printed nothing for 6m55s.
  const bar = progress(io.progressStream, {});
  try {
    x = await runExperiment(loaded, {
      seeds: args.seeds,
      workers,
      reuse,
      signal,
      onStart: (planned, simulatedS, reused) => {
        const taken = `${reused} run(s) unchanged from the base (same scenario and seed), taken from it`;
        io.err(planned === 0 ? `${which}: ${path}: ${taken}` : `${which}: running ${path}, ${planned} run(s) on ${Math.min(workers, planned)} worker(s)${reused ? `; ${taken}` : ''}`);
        bar.planned(planned, simulatedS);
      },
      onRunStart: (r, horizonS) => bar.started(r.index, `${which} ${r.variant}, seed ${r.seed}`, horizonS),
      onRunProgress: (r, simS) => bar.moved(r.index, simS),
      onRun: (_d, _t, result, r) => {
        folder?.record(r.index, result);
        bar.finished(r.index, result.summary.measures.attempts ?? 0);
      },
      ...(folder ? {
        onPlan: (runs, seedsAuto) => folder.begin({ runs, ...(seedsAuto ? { seedsAuto } : {}), source: loaded.source, inputs: loaded.inputs }, loaded.source),
        onMoreRuns: (runs) => folder.extend(runs),
        onReused: (r, result) => folder.record(r.index, result),
      } : {}),
    });
  } catch (e) {
    folder?.release(folder.runsKept > 0);
    throw e;
  } finally {
    bar.end();
  }
  if (x.failures.length) {
    folder?.release(folder.runsKept > 0);
    throw new UsageError(`${which}: ${x.failures.length} run(s) of ${path} failed: ${x.failures[0].message}`);
  }
  const results = folder ? commitOutputs(x, folder).bundle.results : bundleOf(x).results;
  if (x.partial) {
    const kept = args.out ? `, kept in ${join(args.out, which)} (marked partial)` : ' (give --out DIR to keep them)';
    io.err(`${which}: PARTIAL: ${results.runsFinished} of ${results.runsPlanned} run(s) of ${path} finished${kept}`);
  }
  return { results, scenario: loaded, run: x, partial: x.partial };
}

/**
 * A results folder's runs, read back from its runs.json as `merge` reads them (made by this
 * build, from this scenario, unedited: merge.ts checks all three), for a head to take;
 * undefined when they cannot be verified, and the head then simulates every run. A folder of
 * another build is said (its runs are sound, only not this code's); the rest is not a reason
 * to stop a diff, whose base numbers come from the folder's summary anyway.
 */
function runsOfFolder(dir: string, io: Io): ExperimentResult | undefined {
  try {
    return mergeDirs([dir]);
  } catch (e) {
    if (e instanceof OtherBuildError) io.err(`note: base ${dir}: ${e.builds}: the head simulates every run rather than take the base's`);
    if (e instanceof MergeError || e instanceof ScenarioError) return undefined;
    throw e;
  }
}

/** A count flag: a whole number of at least 1 (as `run` says it). */
function checkCount(x: number | undefined, flag: string): void {
  if (x !== undefined && (!Number.isInteger(x) || x < 1)) throw new UsageError(`${flag} must be a whole number ≥ 1 (got ${Number.isNaN(x) ? 'something that is not a number' : x})`);
}

export async function diffCommand(args: DiffArgs, io: Io): Promise<number> {
  if (args.json && args.markdown) throw new UsageError('give --json or --markdown, not both');
  checkCount(args.seeds, '--seeds');
  checkCount(args.workers, '--workers');
  // A results folder a killed writer left half committed is finished before it is read (commit-swap.ts).
  for (const path of [args.base, args.head]) OutputFolder.settle(path, (line) => io.err(line));
  const baseGiven = given(args.base, 'base', args.allowOutside ?? false);
  const headGiven = given(args.head, 'head', args.allowOutside ?? false);
  const runsSomething = baseGiven.loaded !== undefined || headGiven.loaded !== undefined;
  // The folders of the sides that run are claimed before any run, as run claims its --out: a
  // file in the way, foreign files or a second diff writing there are said now.
  const folders: Partial<Record<'base' | 'head', OutputFolder>> = {};
  if (args.out !== undefined) {
    if (runsSomething) {
      prepareOut(args.out);
      try {
        for (const g of [baseGiven, headGiven]) if (g.loaded) folders[g.which] = OutputFolder.claim(join(args.out, g.which), { say: (line) => io.err(line) });
      } catch (e) {
        for (const f of Object.values(folders)) f.release();
        throw e;
      }
    } else io.err(`note: --out ${args.out}: both sides are results folders already, so nothing is written there`);
  }
  // Ctrl-C and SIGTERM keep what finished, as run does: a side stopped half way is written
  // (with --out) and said partial; a partial base is no ground for a diff, a partial head is
  // compared on what it has.
  const stop = stopOnSignals(io, 'keeping finished runs');
  let base: Side, head: Side;
  try {
    base = await side(baseGiven, args, io, stop.signal, folders.base, undefined, headGiven.loaded !== undefined);
    if (base.partial || stop.signal.aborted) {
      io.err('no diff: the base did not finish, and a diff needs all of it');
      return stop.exitCode();
    }
    head = await side(headGiven, args, io, stop.signal, folders.head, base.run && FinishedRuns.of(base.run));
  } finally {
    stop.dispose();
    // A side that never ran (the base stopped first) gives its folder back untouched.
    for (const f of Object.values(folders)) f.release();
  }
  const diff = diffResults(base.results, head.results);
  const report: DiffReport = {
    results: diff,
    scenario: typeof base.scenario === 'string' || typeof head.scenario === 'string' ? null : diffScenarios(base.scenario, head.scenario),
    scenarioNote: typeof base.scenario === 'string' ? base.scenario : typeof head.scenario === 'string' ? head.scenario : null,
    // The head's guards: a pull request is judged by the checks it carries.
    guards: typeof head.scenario === 'string' ? [] : checkGuards(headGiven.expectations ?? resolveMeasureReferences(head.scenario, MEASURES).expectations, base.results, head.results),
  };
  if (args.json) io.out(JSON.stringify(report, null, 2));
  else if (args.markdown) io.out(diffMarkdown(report).trimEnd());
  else io.out(diffText(report));
  const regressed = diff.expectations.filter((e) => e.before === true && e.after === false);
  if (regressed.length) io.err(`${regressed.length} expectation(s) passed on the base and fail on the head: ${regressed.map((e) => e.name).join('; ')}`);
  const failedGuards = report.guards.filter((g) => !g.passed);
  if (failedGuards.length) io.err(`${failedGuards.length} guard(s) on change failed: ${failedGuards.map((g) => g.name).join('; ')}`);
  const worse = args.failOnWorse ? verdictChanges(diff).filter((v) => v.change.direction === 'worse') : [];
  if (worse.length) io.err(`${worse.length} change(s) for the worse beyond seed noise (--fail-on-worse)`);
  if (head.partial) return stop.exitCode();
  return regressed.length || worse.length || failedGuards.length ? EXIT.expectationFailed : EXIT.ok;
}
