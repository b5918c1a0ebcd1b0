/**
 * The commands, each a plain async function over the library that returns an exit code.
 * They print for people; the library underneath never prints.
 */
import { resolve, join } from 'node:path';
import { loadScenarioFile } from '../scenario/load.js';
import { ScenarioError } from '../scenario/problems.js';
import { scenarioJsonSchema } from '../scenario/schema.js';
import { runExperiment } from '../experiment/experiment.js';
import { writeOutputs } from '../report/write.js';
import { summaryTable } from '../report/table.js';
import { formatDuration } from '../scenario/units.js';
import { EXIT, UsageError } from './errors.js';

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

export interface RunArgs {
  scenario: string;
  seed?: number;
  seeds?: number;
  out?: string;
  quiet?: boolean;
}

export async function runCommand(args: RunArgs, io: Io): Promise<number> {
  if (args.seed !== undefined && (!Number.isInteger(args.seed) || args.seed < 0)) throw new UsageError(`--seed must be a whole number ≥ 0 (got ${args.seed})`);
  if (args.seeds !== undefined && (!Number.isInteger(args.seeds) || args.seeds < 1)) throw new UsageError(`--seeds must be a whole number ≥ 1 (got ${args.seeds})`);
  const loaded = loadScenarioFile(args.scenario);
  const outDir = resolve(args.out ?? join('reports', loaded.base.name));

  let stop = false;
  const onSigint = () => {
    if (stop) process.exit(EXIT.interrupted); // a second Ctrl-C means now
    stop = true;
    io.err('\nstopping: finishing the current step and writing what is done (Ctrl-C again to quit at once)');
  };
  process.on('SIGINT', onSigint);
  const started = performance.now();
  let events = 0;
  let attempts = 0;
  try {
    const x = runExperiment(loaded, {
      seed: args.seed,
      seeds: args.seeds,
      shouldStop: () => stop,
      onRun: (done, total, r) => {
        events += r.eventsProcessed;
        attempts += r.summary.attempts;
        if (!args.quiet) {
          io.err(`run ${done}/${total}: ${r.variant} seed ${r.seed} in ${r.wallS.toFixed(2)}s (${Math.round(r.summary.attempts / Math.max(r.wallS, 1e-9)).toLocaleString('en-US')} attempts/s)`);
        }
      },
    });
    const files = writeOutputs(x, outDir);
    const wall = (performance.now() - started) / 1000;
    io.out(`${loaded.base.name}: ${loaded.variants.length} variant(s) x ${new Set(x.runs.map((r) => r.seed)).size} seed(s), ${formatDuration(loaded.base.horizon)} simulated each`);
    if (loaded.base.question) io.out(loaded.base.question.trim());
    io.out('');
    io.out(summaryTable(x.variants));
    io.out('');
    if (!args.quiet) io.out(`${events.toLocaleString('en-US')} events, ${attempts.toLocaleString('en-US')} attempts in ${wall.toFixed(2)}s`);
    io.out(`wrote ${files.map((f) => relativeToCwd(f)).join(', ')}`);
    if (x.partial) {
      io.err(`PARTIAL: interrupted after ${x.results.filter(Boolean).length} of ${x.runs.length} runs; the files above hold the finished runs and say "partial": true`);
      return EXIT.interrupted;
    }
    return EXIT.ok;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export async function validateCommand(files: string[], io: Io): Promise<number> {
  let bad = 0;
  for (const f of files) {
    try {
      const loaded = loadScenarioFile(f);
      io.out(`${f}: ok (${loaded.variants.length} variant(s): ${loaded.variants.map((v) => v.name).join(', ')})`);
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
