/**
 * `retrystorm diff BASE HEAD`: what a change does to the verdict. Each side is a results
 * folder (written by `run --out` or `merge`) or a scenario file, which is run first (with
 * the same seeds for both sides, so a change that is not the policy's leaves the numbers
 * byte for byte the same). Prints the diff for the terminal, as JSON (`--json`) or as a
 * pull-request comment (`--markdown`); `--out DIR` keeps both sides' results (report.html
 * included) in DIR/base and DIR/head.
 *
 * Exit code 1 when the head regresses in a way the scenario says must fail a check: an
 * expectation that passed on the base fails on the head; with `--fail-on-worse`, also any
 * change for the worse beyond seed noise on the verdict's measures.
 */
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { loadScenarioFile } from '../scenario/load.js';
import { runExperiment } from '../experiment/experiment.js';
import { bundleOf } from '../results/bundle.js';
import { readResultsFolder } from '../results/bundle.js';
import type { Results } from '../results/results.js';
import { diffResults } from '../results/diff/results-diff.js';
import { writeOutputs } from '../report/write.js';
import { diffText } from '../report/diff/diff-text.js';
import { diffMarkdown } from '../report/diff/diff-markdown.js';
import { verdictChanges } from '../report/diff/diff-cells.js';
import type { Io } from './commands.js';
import { EXIT, UsageError } from './errors.js';

export interface DiffArgs {
  base: string;
  head: string;
  json?: boolean;
  markdown?: boolean;
  out?: string;
  seeds?: number;
  workers?: number;
  failOnWorse?: boolean;
}

/** One side: a results folder read back, or a scenario file run now. */
async function side(path: string, which: 'base' | 'head', args: DiffArgs, io: Io): Promise<Results> {
  if (!existsSync(path)) throw new UsageError(`${which} ${path}: no such file or folder (give a results folder or a scenario file)`);
  if (statSync(path).isDirectory()) return readResultsFolder(path).results;
  const loaded = loadScenarioFile(path);
  const workers = Math.min(args.workers ?? availableParallelism(), availableParallelism());
  const x = await runExperiment(loaded, {
    seeds: args.seeds,
    workers,
    onStart: (planned) => io.err(`${which}: running ${path}, ${planned} run(s) on ${Math.min(workers, planned)} worker(s)`),
  });
  if (x.failures.length) throw new UsageError(`${which}: ${x.failures.length} run(s) of ${path} failed: ${x.failures[0].message}`);
  if (args.out) return writeOutputs(x, resolve(join(args.out, which))).bundle.results;
  return bundleOf(x).results;
}

export async function diffCommand(args: DiffArgs, io: Io): Promise<number> {
  if (args.json && args.markdown) throw new UsageError('give --json or --markdown, not both');
  if (args.seeds !== undefined && (!Number.isInteger(args.seeds) || args.seeds < 1)) throw new UsageError(`--seeds must be a whole number ≥ 1 (got ${args.seeds})`);
  const base = await side(args.base, 'base', args, io);
  const head = await side(args.head, 'head', args, io);
  const diff = diffResults(base, head);
  if (args.json) io.out(JSON.stringify(diff, null, 2));
  else if (args.markdown) io.out(diffMarkdown(diff).trimEnd());
  else io.out(diffText(diff));
  const regressed = diff.expectations.filter((e) => e.before === true && e.after === false);
  if (regressed.length) io.err(`${regressed.length} expectation(s) passed on the base and fail on the head: ${regressed.map((e) => e.name).join('; ')}`);
  const worse = args.failOnWorse ? verdictChanges(diff).filter((v) => v.change.direction === 'worse') : [];
  if (worse.length) io.err(`${worse.length} change(s) for the worse beyond seed noise (--fail-on-worse)`);
  return regressed.length || worse.length ? EXIT.expectationFailed : EXIT.ok;
}
