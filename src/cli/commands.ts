/**
 * The commands, each a plain async function over the library that returns an exit code.
 * They print for people; the library underneath never prints.
 */
import { resolve, join } from 'node:path';
import { availableParallelism } from 'node:os';
import { loadScenarioFile } from '../scenario/load.js';
import { ScenarioError } from '../scenario/problems.js';
import { scenarioJsonSchema } from '../scenario/schema.js';
import { runExperiment, type ExperimentResult } from '../experiment/experiment.js';
import { parseShard, inShard } from '../experiment/expand.js';
import { mergeDirs } from '../experiment/merge.js';
import { writeOutputs } from '../report/write.js';
import { rankingText, summaryTable } from '../report/table.js';
import { experimentRanking } from '../report/ranking.js';
import { formatDuration } from '../scenario/units.js';
import { progress } from './progress.js';
import { EXIT, UsageError } from './errors.js';
import { parseByteSize } from './byte-size.js';

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** Where progress is drawn (a terminal gets a redrawn bar). */
  progressStream: NodeJS.WriteStream;
}

export interface RunArgs {
  scenario: string;
  seed?: number;
  seeds?: number;
  out?: string;
  workers?: number;
  shard?: string;
  quiet?: boolean;
  /** The most simulation state one run may hold, as written (512MiB, 4GiB). */
  maxRunMemory?: string;
}

export async function runCommand(args: RunArgs, io: Io): Promise<number> {
  const whole = (x: number | undefined, min: number, flag: string) => {
    if (x !== undefined && (!Number.isInteger(x) || x < min)) {
      throw new UsageError(`${flag} must be a whole number ≥ ${min} (got ${Number.isNaN(x) ? 'something that is not a number' : x})`);
    }
  };
  whole(args.seed, 0, '--seed');
  whole(args.seeds, 1, '--seeds');
  whole(args.workers, 1, '--workers');
  const shard = args.shard === undefined ? undefined : parseShard(args.shard);
  if (typeof shard === 'string') throw new UsageError(shard);
  const memoryBytes = args.maxRunMemory === undefined ? undefined : parseByteSize(args.maxRunMemory);
  if (typeof memoryBytes === 'string') throw new UsageError(`--max-run-memory: ${memoryBytes}`);

  const loaded = loadScenarioFile(args.scenario);
  const outDir = resolve(args.out ?? join('reports', loaded.base.name));
  const workers = args.workers ?? availableParallelism();

  // Ctrl-C and SIGTERM (kill, a pod or a CI job being stopped) both keep what finished: the
  // runs in progress are abandoned and the finished ones written, marked partial.
  const abort = new AbortController();
  let stoppedBy: 'SIGINT' | 'SIGTERM' | null = null;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (abort.signal.aborted) process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted); // a second signal means now
    stoppedBy = signal;
    abort.abort();
    io.err(`\nstopping (${signal}): keeping finished runs and writing them (${signal === 'SIGINT' ? 'Ctrl-C' : 'the signal'} again to quit at once)`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const bar = progress(io.progressStream, args.quiet ?? false);
  const started = performance.now();
  let x: ExperimentResult;
  try {
    x = await runExperiment(loaded, {
      seed: args.seed,
      seeds: args.seeds,
      workers,
      shard,
      signal: abort.signal,
      ...(memoryBytes !== undefined ? { runBudget: { memoryBytes } } : {}),
      // Printed once the signal handlers are installed: from this line on, Ctrl-C keeps the
      // finished runs (scripts and the tests wait for it before sending a signal).
      onStart: (planned) => {
        if (!args.quiet) io.err(`running ${planned} run(s) on ${Math.min(workers, Math.max(planned, 1))} worker(s); Ctrl-C keeps finished runs`);
      },
      onRun: (done, total, r) => bar.run(done, total, r.summary.attempts),
    });
  } finally {
    bar.end();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  const files = writeOutputs(x, outDir);
  const wall = (performance.now() - started) / 1000;
  const code = report(x, files, io, args.quiet ?? false, `${formatDuration(loaded.base.horizon)} simulated each, ${workers} worker(s), ${wall.toFixed(1)}s`);
  return code === EXIT.interrupted && stoppedBy === 'SIGTERM' ? EXIT.terminated : code;
}

/** Prints the outcome of an experiment and decides the exit code. */
function report(x: ExperimentResult, files: string[], io: Io, quiet: boolean, detail: string): number {
  const base = x.loaded.base;
  const seeds = new Set(x.runs.map((r) => r.seed)).size;
  const points = x.loaded.points.length;
  io.out(`${base.name}: ${x.loaded.variants.length} variant(s)${points > 1 ? ` x ${points} sweep points` : ''} x ${seeds} seed(s)${x.shard ? `, shard ${x.shard.index}/${x.shard.count}` : ''}${quiet ? '' : `; ${detail}`}`);
  if (base.question) io.out(base.question.trim());
  io.out('');
  io.out(summaryTable(x.variants));
  io.out('');
  const ranking = experimentRanking(x);
  if (ranking && ranking.points.length > 0) {
    io.out(rankingText(ranking));
    io.out('');
  }
  for (const e of x.expectations) io.out(`${e.passed ? 'PASS' : 'FAIL'}  ${e.name} (${e.actual})`);
  if (x.expectations.length) io.out('');
  io.out(`wrote ${files.map(relativeToCwd).join(', ')}`);
  for (const f of x.failures) {
    io.err(`FAILED RUN: variant ${f.variant}, point ${f.point}, seed ${f.seed}: ${f.message}`);
  }
  if (x.partial) {
    const finished = x.results.filter(Boolean).length;
    const planned = x.runs.filter((r) => inShard(r, x.shard)).length;
    io.err(`PARTIAL: ${finished} of ${planned} runs${x.shard ? ` of shard ${x.shard.index}/${x.shard.count}` : ''} finished; the files above hold them and say "partial": true`);
  }
  const failedExpectations = x.expectations.filter((e) => !e.passed);
  if (failedExpectations.length) io.err(`${failedExpectations.length} expectation(s) failed: ${failedExpectations.map((e) => e.name).join('; ')}`);
  if (x.failures.length) return EXIT.internal;
  if (x.partial) return EXIT.interrupted;
  if (failedExpectations.length) return EXIT.expectationFailed;
  return EXIT.ok;
}

export async function mergeCommand(dirs: string[], out: string | undefined, io: Io): Promise<number> {
  const x = mergeDirs(dirs);
  const outDir = resolve(out ?? join('reports', x.loaded.base.name));
  const files = writeOutputs(x, outDir);
  return report(x, files, io, true, '');
}

export async function validateCommand(files: string[], io: Io): Promise<number> {
  let bad = 0;
  for (const f of files) {
    try {
      const loaded = loadScenarioFile(f);
      const points = loaded.points.length > 1 ? `, ${loaded.points.length} sweep points` : '';
      io.out(`${f}: ok (${loaded.variants.length} variant(s): ${loaded.variants.map((v) => v.name).join(', ')}${points})`);
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      bad++;
      io.err(e.message);
    }
  }
  if (bad > 0) io.err(`${bad} of ${files.length} file(s) invalid`);
  return bad > 0 ? EXIT.badInput : EXIT.ok;
}

export async function schemaCommand(io: Io): Promise<number> {
  io.out(JSON.stringify(scenarioJsonSchema(), null, 2));
  return EXIT.ok;
}

function relativeToCwd(p: string): string {
  const cwd = process.cwd() + '/';
  return p.startsWith(cwd) ? p.slice(cwd.length) : p;
}
