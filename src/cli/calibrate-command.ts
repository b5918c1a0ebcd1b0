/**
 * `retrystorm calibrate SCENARIO --out DIR`: fit the scenario's `calibrate:` parameters to its
 * `observed:` incident (src/experiment/calibrate), then write the fit's account into DIR
 * (calibration.json, calibration.md, calibration.html; the output folder's discipline, as run's) and the fitted
 * scenario beside the original (SCENARIO's name with .fitted.yaml), so `retrystorm run` can
 * compare every variant on the fitted world. Interrupted, it writes the best values so far,
 * marked partial.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { stopOnSignals } from './stop-signals.js';
import { checkSeedFlag, chooseWorkers, loadInput, type Io } from './scenario-input.js';
import { EXIT, OutputError, UsageError } from './errors.js';
import { OutputFolder } from './output-folder.js';
import { CalibrationRunFailed, runCalibration } from '../experiment/calibrate/run-calibrate.js';
import { StoppedBeforeFirstTrial } from '../experiment/calibrate/least-squares.js';
import { calibrationResults, type CalibrationResults } from '../results/calibration.js';
import { calibrationMarkdown, calibrationTerminal } from '../report/calibration-text.js';
import { renderCalibrationHtml } from '../report/html/calibration-page.js';
import { fittedText } from '../scenario/fitted-text.js';
import { valueText } from '../scenario/search-apply.js';
import { STDIN } from '../scenario/read-source.js';

export interface CalibrateArgs {
  scenario: string;
  out: string;
  /** Where the fitted scenario goes (default: beside the scenario, NAME.fitted.yaml). */
  fitted?: string;
  budget?: number;
  seed?: number;
  workers?: number;
  forceWorkers?: boolean;
  json?: boolean;
  quiet?: boolean;
  allowOutside?: boolean;
}

/** NAME.fitted.yaml beside NAME.yaml. */
export function defaultFittedPath(scenario: string): string {
  const ext = extname(scenario);
  return join(dirname(scenario), `${basename(scenario, ext)}.fitted${ext || '.yaml'}`);
}

export async function calibrateCommand(args: CalibrateArgs, io: Io): Promise<number> {
  checkSeedFlag(args.seed);
  if (args.workers !== undefined && !(Number.isInteger(args.workers) && args.workers >= 1)) throw new UsageError(`--workers must be a whole number ≥ 1 (got ${args.workers})`);
  if (args.budget !== undefined && !(Number.isInteger(args.budget) && args.budget >= 10 && args.budget <= 10_000)) throw new UsageError(`--budget is the most trials, a whole number from 10 to 10,000 (got ${args.budget})`);
  if (args.scenario === STDIN) throw new UsageError('calibrate writes the fitted scenario beside the original, so it needs a scenario file, not standard input');
  const loaded = await loadInput(args.scenario, { allowOutside: args.allowOutside, warn: (line) => io.err(line) });
  if (!loaded.calibrate) throw new UsageError(`${args.scenario} has no calibrate: block: name the parameters to fit and their ranges (docs/calibrate.md), e.g. calibrate: { parameters: { server.slots: { from: 5, to: 40 } } }`);
  const cal = { ...loaded.calibrate, ...(args.budget !== undefined ? { budget: args.budget } : {}) };
  const fitted = args.fitted ?? defaultFittedPath(args.scenario);
  // The fitted scenario names the same files as the original, by the same relative paths.
  if (resolve(dirname(fitted)) !== resolve(dirname(args.scenario))) throw new UsageError(`--fitted ${fitted} must be in the scenario's folder (${dirname(args.scenario)}): the files it names are found from there`);
  if (resolve(fitted) === resolve(args.scenario)) throw new UsageError(`--fitted ${fitted} is the scenario itself: name another file (default ${defaultFittedPath(args.scenario)})`);
  const workers = chooseWorkers(args.workers, args.forceWorkers ?? false, io, args.quiet ?? false);
  const folder = OutputFolder.claim(args.out, { keep: [args.scenario, fitted], say: (line) => io.err(line) });
  const stop = stopOnSignals(io, 'the best values so far are written, marked partial');
  const started = performance.now();
  let lastLine = started;
  if (!args.quiet) io.err(`calibrating ${cal.parameters.map((p) => p.parameter).join(', ')} of ${cal.variant} to ${cal.series.join(', ')}: at most ${cal.budget} trials of ${cal.seeds} seed(s), on ${workers} worker(s)`);
  try {
    const outcome = await runCalibration(loaded, cal, {
      workers,
      seed: args.seed,
      signal: stop.signal,
      onTrial: (n, budget, best) => {
        const now = performance.now();
        // The first trial is said at once (a trial has run), then a line every 5 s.
        if (args.quiet || (n > 1 && now - lastLine < 5000)) return;
        lastLine = now;
        const eta = ((now - started) / n) * (budget - n) / 1000;
        io.err(`  trial ${n}/${budget}, best loss ${best.toPrecision(3)}, at most ${Math.ceil(eta)}s left for the search`);
      },
      onIntervalRuns: (done, total) => {
        const now = performance.now();
        if (args.quiet || (now - lastLine < 5000 && done !== total)) return;
        lastLine = now;
        io.err(`  intervals: ${done} runs of at most ${total}`);
      },
    });
    const results = calibrationResults(outcome, loaded.base.name, args.scenario, fitted);
    writeFitted(loaded.source, results, loaded.calibrate.parameters.map((p) => p.path), fitted);
    folder.commit([
      ['calibration.json', `${JSON.stringify(results, null, 2)}\n`],
      ['calibration.md', calibrationMarkdown(results)],
      ['calibration.html', renderCalibrationHtml(results, loaded.base.question)],
    ]);
    if (args.json) io.out(JSON.stringify(results, null, 2));
    else for (const line of calibrationTerminal(results)) io.out(line);
    if (!args.quiet && !args.json) io.out(`wrote ${fitted}, and ${join(args.out, 'calibration.html')} with its .md and .json, in ${((performance.now() - started) / 1000).toFixed(1)}s`);
    return results.partial && stop.signal.aborted ? stop.exitCode() : EXIT.ok;
  } catch (e) {
    if (e instanceof StoppedBeforeFirstTrial) {
      io.err('stopped before the first trial finished: nothing was written');
      return stop.exitCode();
    }
    if (e instanceof CalibrationRunFailed) {
      io.err(`FAILED RUN: ${e.message}; the calibration stopped there`);
      return EXIT.internal;
    }
    throw e;
  } finally {
    folder.release();
    stop.dispose();
  }
}

/** The fitted scenario, written whole or not at all (a temporary file renamed over it). */
function writeFitted(source: string, r: CalibrationResults, paths: ReadonlyArray<Array<string | number>>, file: string): void {
  const level = `${Math.round(r.level * 100)}%`;
  const values = r.parameters.map((p, i) => ({
    path: paths[i],
    written: p.written,
    note: p.interval
      ? `fitted${p.interval.identified ? ` (${level}: ${valueText(p.kind, Number(p.interval.low.toPrecision(3)))} to ${valueText(p.kind, Number(p.interval.high.toPrecision(3)))})` : ' (not identified by the series)'}, was ${valueText(p.kind, p.start)}`
      : `fitted (partial: no interval), was ${valueText(p.kind, p.start)}`,
  }));
  const header = ` Fitted by retrystorm calibrate: variant ${r.variant}, ${r.trials} trials of ${r.seeds} seed(s)${r.partial ? ' (PARTIAL: stopped early)' : ''}.\n The values marked "fitted" replace the original's; the rest is the original as written.\n See calibration.md beside the results for how close each observed series came.`;
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, fittedText(source, values, header));
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw new OutputError(`could not write the fitted scenario ${file} (${(e as Error).message})`);
  }
}
