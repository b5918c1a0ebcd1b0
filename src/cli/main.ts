/**
 * The `retrystorm` command line: declares the commands and turns typed errors into exit
 * codes and one clear message, never a stack trace (set RETRYSTORM_DEBUG=1 to see one).
 *
 * Conventions of a well-behaved command-line tool live here too: `--version`; a mistyped
 * option gets a suggestion; everything printed goes through `forTerminal`, so text from a
 * scenario cannot drive the terminal; and a reader that stops early (`| head`) ends the
 * output quietly: the command finishes and exits with its own code, not a stack trace.
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { ScenarioError, closest } from '../scenario/problems.js';
import { MergeError } from '../experiment/merge-error.js';
import { ResultsError } from '../results/results-error.js';
import { TOOL_VERSION } from '../experiment/tool-version.js';
import type { Io } from './scenario-input.js';
import type { ReportOptions } from '../report/write.js';
import { isReportLink } from '../report/report-link.js';
import { EXIT, OutputError, UsageError } from './errors.js';
import { forTerminal } from './terminal-text.js';
import { colourFor, plainText, renderLine } from './colour.js';
import { versionText } from './version.js';

// Each command's module is imported when that command runs, not at start-up: `--version`,
// `--help`, a usage error or `validate` then load neither the simulation and its worker pool
// nor the report renderer. What stays above is what every start needs: yargs, the error
// classes told apart below (each in a module that imports nothing), and the printing.

/**
 * Streams nothing more is written to: their reader went away (EPIPE: `retrystorm … | head`),
 * or they cannot be written (a full disk behind `> file`: ENOSPC, EIO). The second is said once
 * on the other stream and exits 73, like results that cannot be written; neither is a crash.
 */
const closed = new Set<NodeJS.WriteStream>();
let unwritable: NodeJS.ErrnoException | undefined;
function streamFailed(stream: NodeJS.WriteStream, e: NodeJS.ErrnoException): void {
  closed.add(stream);
  if (e.code === 'EPIPE' || unwritable) return;
  unwritable = e;
  // The error of a stream to a file is emitted after the write, maybe after the command ended.
  if (process.exitCode === undefined || process.exitCode === EXIT.ok || process.exitCode === EXIT.expectationFailed) process.exitCode = EXIT.cannotWrite;
  const name = stream === process.stdout ? 'standard output' : 'standard error';
  if (stream !== process.stderr && !closed.has(process.stderr)) {
    try {
      process.stderr.write(`retrystorm: cannot write to ${name} (${e.code ?? e.message}); is the disk behind it full?\n`);
    } catch {
      // Both streams gone: the exit code says it.
    }
  }
}
function quietOnEpipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => streamFailed(stream, e));
}
function write(stream: NodeJS.WriteStream, s: string, shown = forTerminal(s)): void {
  if (closed.has(stream)) return;
  try {
    stream.write(shown + '\n');
  } catch (e) {
    // A file behind the stream is written synchronously: its error is thrown here, not emitted.
    streamFailed(stream, e as NodeJS.ErrnoException);
  }
}

/** The process's own streams: what `runCli` hands to the commands. */
const processIo: Io = {
  out: (s) => write(process.stdout, s),
  err: (s) => write(process.stderr, s),
  // Coloured only on a terminal, and as NO_COLOR and FORCE_COLOR say (colour.ts).
  outStyled: (line) => write(process.stdout, plainText(line), renderLine(line, colourFor(process.stdout))),
  progressStream: process.stderr,
  // A terminal's own width; in a pipe or a log, $COLUMNS when set (else no limit).
  get columns() {
    if (process.stdout.isTTY && process.stdout.columns > 0) return process.stdout.columns;
    const env = Number(process.env.COLUMNS);
    return Number.isInteger(env) && env > 0 ? env : undefined;
  },
};

/**
 * The options of each command, split by whether they take a value: for "did you mean" (yargs
 * only says what it did not know) and for joinOptionValues. One table, so the two cannot
 * disagree; a test checks it against the options yargs declares.
 */
export const OPTIONS: Record<string, { values: string[]; switches: string[] }> = {
  run: { values: ['seed', 'seeds', 'out', 'workers', 'shard', 'report-url', 'base', 'reuse', 'progress-every', 'max-run-memory'], switches: ['force-workers', 'quiet', 'allow-outside', 'json'] },
  merge: { values: ['out', 'report-url'], switches: [] },
  report: { values: ['report-url'], switches: [] },
  diff: { values: ['out', 'seeds', 'workers'], switches: ['json', 'markdown', 'fail-on-worse', 'allow-outside'] },
  edge: { values: ['parameter', 'range', 'level', 'precision', 'budget', 'direction', 'seed', 'workers'], switches: ['force-workers', 'json', 'quiet', 'allow-outside'] },
  calibrate: { values: ['out', 'fitted', 'budget', 'seed', 'workers'], switches: ['force-workers', 'json', 'quiet', 'allow-outside'] },
  validate: { values: [], switches: ['allow-outside', 'json'] },
  schema: { values: [], switches: [] },
};
/** Options yargs reads as numbers, of any command: an empty value becomes 0 there, so it is said here. */
export const NUMBER_OPTIONS = ['seed', 'seeds', 'workers', 'level', 'budget'];
const optionsOf = (command: string) => [...OPTIONS[command].values, ...OPTIONS[command].switches];
const COMMANDS = Object.keys(OPTIONS);

/** What each command needs when it is given too few arguments, with an example. */
const MISSING_ARGUMENT: Record<string, string> = {
  run: 'give a scenario file (or - for standard input), e.g. retrystorm run scenarios/retry-storm.yaml',
  validate: 'give a scenario file (or - for standard input), e.g. retrystorm validate scenarios/retry-storm.yaml',
  edge: 'give a scenario file (or - for standard input), e.g. retrystorm edge scenarios/retry-storm.yaml --parameter faults[0].duration --range 1m..30m',
  calibrate: 'give a scenario file with observed: and calibrate: blocks, e.g. retrystorm calibrate scenarios/recorded-day.yaml --out reports/recorded-day-fit',
  merge: 'give the results folders of the shards, e.g. retrystorm merge shard-1 shard-2 --out merged',
  report: 'give a results folder (written by run --out or merge), e.g. retrystorm report reports/retry-storm',
  diff: 'give two results folders or scenario files, the base then the head, e.g. retrystorm diff reports/before reports/after',
};
const GLOBAL_OPTIONS = ['help', 'version'];
/** How many arguments each command with a fixed number takes, and what they are. */
const POSITIONALS: Record<string, { count: number; what: string }> = {
  run: { count: 1, what: 'one scenario file' },
  edge: { count: 1, what: 'one scenario file' },
  calibrate: { count: 1, what: 'one scenario file' },
  report: { count: 1, what: 'one results folder' },
  diff: { count: 2, what: 'two results folders or scenario files, the base then the head' },
  schema: { count: 0, what: 'no arguments' },
};
/**
 * Gives every option that takes a value the token after it, as `--name=value`, before yargs
 * parses the line: yargs reads a value starting with "-" as more flags (`--progress-every
 * -1s` became "unexpected argument(s)" naming the scenario), and drops a number option
 * given no value at all (`--seeds --out x` ran with the scenario's seeds). A negative value
 * now reaches the option's own check; a missing one is said here.
 */
function joinOptionValues(argv: string[]): string[] {
  const command = argv[0];
  if (!Object.hasOwn(OPTIONS, command)) return argv;
  const takesValue = OPTIONS[command].values;
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    if (token === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = token.startsWith('--') && !token.includes('=') ? token.slice(2) : undefined;
    if (name === undefined || !takesValue.includes(name)) {
      out.push(token);
      continue;
    }
    const next = argv[i + 1];
    // Asking for help or the version wins over a half-written line (`run x --seeds --help`).
    if (next === '--help' || next === '--version') {
      out.push(token);
      continue;
    }
    if (next === undefined || next.startsWith('--')) throw new UsageError(`${token} needs a value${next === undefined ? '' : ` (it is followed by ${next})`}`);
    // yargs reads an empty number as 0, and the option's check then said "got 0" (text options say an empty value their own way).
    if (next.trim() === '' && NUMBER_OPTIONS.includes(name)) throw new UsageError(`${token} needs a value (it was given an empty one)`);
    out.push(`${token}=${next}`);
    i++;
  }
  return out;
}

/** summary.md's link to report.html: --report-url, else $RETRYSTORM_REPORT_URL, else the relative path. */
function reportOptions(flag: string | undefined): ReportOptions {
  const url = flag ?? process.env.RETRYSTORM_REPORT_URL;
  if (url === undefined || url.trim() === '') return {};
  if (!isReportLink(url)) {
    const from = flag !== undefined ? '--report-url' : 'RETRYSTORM_REPORT_URL';
    throw new UsageError(`${from} must be an http(s) URL or a relative path, the report's place for summary.md's link (got "${forTerminal(url.trim())}")`);
  }
  return { reportLink: url.trim() };
}

/**
 * yargs drops a lone "-" (so `validate -` validated nothing and passed): it is swapped for a
 * token yargs keeps, and swapped back in what the commands receive.
 */
const DASH = '\u0000-';
const undash = (s: string) => (s === DASH ? '-' : s);

/**
 * Parses one command line and runs its command, printing through `io`; returns the exit code.
 * Errors are thrown, for `execute` to turn into one message.
 */
async function main(rawArgv: string[], io: Io): Promise<number> {
  let code: number = EXIT.ok;
  const argv = joinOptionValues(rawArgv.map((a) => (a === '-' ? DASH : a)));
  const cli = yargs(argv)
    .scriptName('retrystorm')
    .usage('$0 <command> [options]\n\nSimulate retry storms: write the world as a scenario file, run it, compare policies.')
    .command(
      'run <scenario>',
      'simulate a scenario and write report.html, summary.md, summary.json, timeseries.csv, populations.csv, expectations.xml (JUnit), timeseries.openmetrics.txt, runs.json and scenario.yaml',
      (y) =>
        y
          .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario file (YAML); - reads it from standard input' })
          .option('seed', { type: 'number', describe: 'base seed (overrides the scenario\'s)' })
          .option('seeds', { type: 'number', describe: 'seeds per variant (overrides the scenario\'s)' })
          .option('out', { type: 'string', describe: 'output folder (default: reports/<scenario name>)' })
          .option('workers', { type: 'number', describe: 'worker threads (default and most: the number of cores)' })
          .option('force-workers', { type: 'boolean', default: false, describe: 'allow more workers than cores' })
          .option('shard', { type: 'string', describe: 'run only shard i of n (i/n); "auto" or "auto/n" reads i from JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID or RETRYSTORM_SHARD_INDEX; merge the folders with "merge"' })
          .option('quiet', { type: 'boolean', default: false, describe: 'print only the summary' })
          .option('allow-outside', { type: 'boolean', default: false, describe: 'read files the scenario names (from: configs, traces) outside its folder too' })
          .option('base', { type: 'string', describe: 'results folder of the base (run --out): check the guards on change (worsenBy) against it' })
          .option('reuse', { type: 'string', describe: 'results folder of an earlier run (run --out): take its runs whose scenario and seed are unchanged instead of simulating them again' })
          .option('progress-every', { type: 'string', describe: 'time between progress updates (default 5s in a log, 200ms on a terminal)' })
          .option('report-url', { type: 'string', describe: 'where summary.md links to report.html, e.g. a CI artifact URL (default: the relative path report.html, or $RETRYSTORM_REPORT_URL)' })
          .option('max-run-memory', {
            type: 'string',
            describe: 'the most simulation state one run may hold (pending events, queues, records in flight), e.g. 512MiB; a run past it fails, the others go on (default 4GiB)',
          })
          .option('json', { type: 'boolean', default: false, describe: 'print the outcome as one JSON document instead (the verdict, the expectations, the files written: README, "Output for scripts"); progress still goes to stderr' })
          .example('$0 run scenarios/retry-storm.yaml', 'simulate the flagship; the results go to reports/retry-storm')
          .example('$0 run mine.yaml --seeds 10', '10 seeds per variant, into reports/<its name>')
          .example('$0 run mine.yaml --reuse reports/mine', 'after an edit: simulate only the runs it changed')
          .example('$0 run big.yaml --shard 2/8', 'one shard of eight; merge the folders after')
          .example('$0 run mine.yaml --json', 'the verdict, expectations and files, as JSON'),
      async (a) => {
        const { runCommand } = await import('./commands.js');
        code = await runCommand(
          { scenario: undash(a.scenario as string), seed: a.seed, seeds: a.seeds, out: a.out === undefined ? undefined : undash(a.out), workers: a.workers, forceWorkers: a['force-workers'], shard: a.shard, quiet: a.quiet, progressEvery: a.progressEvery, report: reportOptions(a['report-url']), base: a.base === undefined ? undefined : undash(a.base), reuse: a.reuse === undefined ? undefined : undash(a.reuse), maxRunMemory: a.maxRunMemory, allowOutside: a['allow-outside'], json: a.json },
          io,
        );
      },
    )
    .command(
      'merge <dirs..>',
      'merge the output folders of the shards of one experiment',
      (y) =>
        y
          .positional('dirs', { type: 'string', array: true, demandOption: true, default: undefined, describe: 'output folders of the shards (run --shard i/n --out), all of one scenario file' })
          .option('out', { type: 'string', describe: 'output folder (default: reports/<scenario name>)' })
          .option('report-url', { type: 'string', describe: 'where summary.md links to report.html, e.g. a CI artifact URL (default: the relative path report.html, or $RETRYSTORM_REPORT_URL)' })
          .example('$0 merge part-1 part-2 --out big', 'the shards of one run (run --shard i/2), as one run')
          .example('$0 merge part-* --out big', 'every shard folder at once'),
      async (a) => {
        const { mergeCommand } = await import('./commands.js');
        code = await mergeCommand((a.dirs as string[]).map(undash), a.out === undefined ? undefined : undash(a.out), io, reportOptions(a['report-url']));
      },
    )
    .command(
      'report <dir>',
      're-render report.html and summary.md from a results folder, without simulating',
      (y) => y.positional('dir', { type: 'string', demandOption: true, describe: 'results folder written by run --out or merge' })
          .option('report-url', { type: 'string', describe: 'where summary.md links to report.html, e.g. a CI artifact URL (default: the relative path report.html, or $RETRYSTORM_REPORT_URL)' })
          .example('$0 report reports/retry-storm', 're-render report.html and summary.md')
          .example('$0 report reports/mine --report-url URL', 'summary.md links to the report at URL (a CI artifact)'),
      async (a) => {
        const { reportCommand } = await import('./report-command.js');
        code = await reportCommand(undash(a.dir as string), io, reportOptions(a['report-url']));
      },
    )
    .command(
      'diff <base> <head>',
      'what a change does to the verdict: compare two results folders, or run two scenario files and compare them',
      (y) =>
        y
          .positional('base', { type: 'string', demandOption: true, describe: 'results folder or scenario file before the change' })
          .positional('head', { type: 'string', demandOption: true, describe: 'results folder or scenario file after the change' })
          .option('json', { type: 'boolean', default: false, describe: 'print the diff as JSON' })
          .option('markdown', { type: 'boolean', default: false, describe: 'print the diff as a pull-request comment' })
          .option('out', { type: 'string', describe: 'when running scenario files: keep their results in OUT/base and OUT/head' })
          .option('seeds', { type: 'number', describe: 'when running scenario files: seeds per variant for both (overrides the scenarios\')' })
          .option('workers', { type: 'number', describe: 'worker threads (default and most: the number of cores)' })
          .option('fail-on-worse', { type: 'boolean', default: false, describe: 'exit 1 when a verdict measure gets worse beyond seed noise' })
          .option('allow-outside', { type: 'boolean', default: false, describe: 'read files the scenario names (from: configs, traces) outside its folder too' })
          .example('$0 diff reports/a reports/b', 'compare two results folders (run --out)')
          .example('$0 diff base.yaml head.yaml --markdown', 'run both files: a pull-request comment')
          .example('$0 diff a.yaml b.yaml --fail-on-worse', 'exit 1 when the head (b) is worse')
          .example('$0 diff reports/a reports/b --json', 'the comparison, as JSON'),
      async (a) => {
        const { diffCommand } = await import('./diff-command.js');
        code = await diffCommand(
          { base: undash(a.base as string), head: undash(a.head as string), json: a.json, markdown: a.markdown, out: a.out, seeds: a.seeds, workers: a.workers, failOnWorse: a['fail-on-worse'], allowOutside: a['allow-outside'] },
          io,
        );
      },
    )
    .command(
      'edge <scenario>',
      'find each variant\'s tipping point: the value of a parameter at which the probability of recovering crosses a level (docs/search.md)',
      (y) =>
        y
          .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario file (YAML); - reads it from standard input' })
          .option('parameter', { type: 'string', describe: 'the value to search, as a sweep takes it: faults[0].duration, clients.app.arrivals.rate, load (default: the scenario\'s search block)' })
          .option('range', { type: 'string', describe: 'FROM..TO in the parameter\'s unit, e.g. 1m..30m' })
          .option('level', { type: 'number', describe: 'the probability of recovering whose crossing is sought (default 0.5)' })
          .option('precision', { type: 'string', describe: 'stop once the tipping point is bracketed this tightly, e.g. 30s (default: a 20th of the range)' })
          .option('budget', { type: 'number', describe: 'most runs per variant (default 200)' })
          .option('direction', { type: 'string', choices: ['falling', 'rising'] as const, describe: 'falling: recovering gets less likely as the value grows (a longer outage, more load); rising: more likely (more slots) (default: read from the runs)' })
          .option('seed', { type: 'number', describe: 'base seed (overrides the scenario\'s): the i-th run at a value uses seed + i' })
          .option('workers', { type: 'number', describe: 'worker threads (default and most: the number of cores)' })
          .option('force-workers', { type: 'boolean', default: false, describe: 'allow more workers than cores' })
          .option('json', { type: 'boolean', default: false, describe: 'print the search\'s results as JSON (the `search` part of summary.json)' })
          .option('quiet', { type: 'boolean', default: false, describe: 'print only the tipping points' })
          .option('allow-outside', { type: 'boolean', default: false, describe: 'read files the scenario names (from: configs, traces) outside its folder too' })
          .example('$0 edge cliffs.yaml', 'the search its search: block describes')
          .example('$0 edge s.yaml --parameter load', 'the load at which each variant tips (with --range, or a search: block)')
          .example('$0 edge mine.yaml --json', 'the tipping points, as JSON'),
      async (a) => {
        const { edgeCommand } = await import('./edge-command.js');
        code = await edgeCommand(
          { scenario: undash(a.scenario as string), parameter: a.parameter, range: a.range, level: a.level, precision: a.precision, budget: a.budget, direction: a.direction as 'falling' | 'rising' | undefined, seed: a.seed, workers: a.workers, forceWorkers: a['force-workers'], json: a.json, quiet: a.quiet, allowOutside: a['allow-outside'] },
          io,
        );
      },
    )
    .command(
      'calibrate <scenario>',
      'fit the scenario\'s calibrate: parameters to its observed: incident, and write the fitted scenario beside it (docs/calibrate.md)',
      (y) =>
        y
          .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario file (YAML) with observed: and calibrate: blocks' })
          .option('out', { type: 'string', demandOption: 'give --out DIR: the folder for calibration.json and calibration.md', describe: 'folder for the fit\'s account (calibration.json, calibration.md)' })
          .option('fitted', { type: 'string', describe: 'where the fitted scenario goes, in the scenario\'s folder (default NAME.fitted.yaml beside it)' })
          .option('budget', { type: 'number', describe: 'most trials (overrides the scenario\'s calibrate.budget)' })
          .option('seed', { type: 'number', describe: 'base seed (overrides the scenario\'s): trials run seeds seed … seed + seeds - 1' })
          .option('workers', { type: 'number', describe: 'worker threads (default and most: the number of cores)' })
          .option('force-workers', { type: 'boolean', default: false, describe: 'allow more workers than cores' })
          .option('json', { type: 'boolean', default: false, describe: 'print calibration.json instead of the summary' })
          .option('quiet', { type: 'boolean', default: false, describe: 'print only the fitted values' })
          .option('allow-outside', { type: 'boolean', default: false, describe: 'read files the scenario names (traces, observed series) outside its folder too' })
          .example('$0 calibrate scenarios/recorded-day.yaml --out reports/recorded-day-fit', 'fit its calibrate: parameters; writes scenarios/recorded-day.fitted.yaml')
          .example('$0 calibrate mine.yaml --out fit --budget 200', 'a longer search than the scenario asks for')
          .example('$0 run mine.fitted.yaml', 'then compare the policies on the fitted world'),
      async (a) => {
        const { calibrateCommand } = await import('./calibrate-command.js');
        code = await calibrateCommand(
          { scenario: undash(a.scenario as string), out: a.out as string, fitted: a.fitted, budget: a.budget, seed: a.seed, workers: a.workers, forceWorkers: a['force-workers'], json: a.json, quiet: a.quiet, allowOutside: a['allow-outside'] },
          io,
        );
      },
    )
    .command(
      'validate <files..>',
      'check scenario files and report every problem with its position (- reads standard input)',
      (y) => y.positional('files', { type: 'string', array: true, demandOption: true, default: undefined, describe: 'scenario files (YAML); - reads one from standard input' })
          .option('allow-outside', { type: 'boolean', default: false, describe: 'read files the scenario names (from: configs, traces) outside its folder too' })
          .option('json', { type: 'boolean', default: false, describe: 'print one JSON document instead: {ok, files, problems} (README, "Output for scripts")' })
          .example('$0 validate scenarios/*.yaml', 'every problem, as file:line:col  path: message')
          .example('generate | $0 validate -', 'a scenario from standard input')
          .example('$0 validate mine.yaml --json', 'the problems as JSON (for an editor, a CI step)'),
      async (a) => {
        const { validateCommand } = await import('./validate-command.js');
        code = await validateCommand((a.files as string[]).map(undash), io, { allowOutside: a['allow-outside'], json: a.json });
      },
    )
    .command('schema', 'print the JSON Schema of scenario files (for editor autocompletion)', (y) => y.example('$0 schema > scenario.schema.json', 'for editors: see README, "Using it"'), async () => {
      const { schemaCommand } = await import('./validate-command.js');
      code = await schemaCommand(io);
    })
    .example('$0 run scenarios/retry-storm.yaml', 'simulate a scenario, write its report')
    .example('$0 validate scenarios/*.yaml', 'check scenario files')
    .example('$0 diff base.yaml head.yaml --markdown', 'what a change does to the verdict')
    .example('$0 calibrate scenarios/recorded-day.yaml --out reports/recorded-day-fit', 'fit a scenario to a past incident')
    .example('$0 <command> --help', 'the options and examples of one command')
    .demandCommand(1, 'name a command: run, merge, report, diff, edge, calibrate, validate or schema')
    .strict()
    .recommendCommands()
    .help()
    // The version's details (formats, Node.js, commit) are gathered only when asked for (version.ts).
    .version(argv.includes('--version') ? await versionText() : TOOL_VERSION)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      // recommendCommands alone says only "Did you mean …?": name what was not understood too.
      if (/^Did you mean/.test(msg)) throw new UsageError(`unknown command "${argv[0]}". ${msg}`);
      if (/^Unknown arguments?: /.test(msg)) throw new UsageError(unknownArguments(argv));
      // yargs' "Not enough non-option arguments: got 0, need at least 1": say what to give.
      const command = argv.find((a) => !a.startsWith('-'));
      if (/^Not enough non-option arguments/.test(msg) && command && Object.hasOwn(MISSING_ARGUMENT, command)) throw new UsageError(`${command}: ${MISSING_ARGUMENT[command]}`);
      throw new UsageError(msg);
    });
  skipHelpCache(cli);
  await cli.parseAsync();
  return code;
}

/**
 * yargs formats the whole help text of a command each time it runs one, to cache it for a
 * `showHelp()` inside the handler, which no command here calls: measuring every character's
 * width (string-width's emoji pattern) cost about 0.15 s of each start. The help is still
 * formatted, the same, when it is shown (`--help`), from scratch. This reaches into yargs'
 * internals (pinned to an exact version in package.json); if they change shape the call is
 * skipped and only the time comes back.
 */
function skipHelpCache(cli: unknown): void {
  type Internals = { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } };
  const usage = (cli as Internals).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

/**
 * What yargs called unknown, said with the flag as the user wrote it (yargs also lists its
 * camel-case twin: "seed-count, seedCount") and the closest known one.
 */
function unknownArguments(argv: string[]): string {
  const command = COMMANDS.includes(argv[0]) ? argv[0] : undefined;
  const known = [...(command ? optionsOf(command) : []), ...GLOBAL_OPTIONS];
  const parts: string[] = [];
  for (const token of argv.slice(command ? 1 : 0)) {
    if (token === '--') break;
    if (!token.startsWith('-') || token === '-' || /^-\d/.test(token)) continue;
    const name = token.replace(/^-+/, '').split('=')[0];
    const plain = name.replace(/^no-/, '');
    if (known.includes(plain)) continue;
    const guess = closest(plain, known);
    parts.push(`unknown option ${token.split('=')[0]}${guess ? ` (did you mean --${guess}?)` : known.length > GLOBAL_OPTIONS.length ? ` (options: ${known.map((k) => `--${k}`).join(', ')})` : ''}`);
  }
  if (!command && argv[0] !== undefined && !argv[0].startsWith('-')) {
    return `unknown command "${argv[0]}" (commands: ${COMMANDS.join(', ')})`;
  }
  if (parts.length === 0) {
    // Only positionals are left: name the ones past what the command takes, not the one it took.
    const given = argv.slice(command ? 1 : 0).filter((t) => !t.startsWith('-') || t === DASH).map(undash);
    const takes = command ? POSITIONALS[command] : undefined;
    if (takes !== undefined && given.length > takes.count) return `${command} takes ${takes.what}; left over: ${given.slice(takes.count).join(' ')}`;
    return `unexpected argument(s): ${given.join(' ')}`;
  }
  return parts.join('; ');
}

/**
 * Runs one command line with `io` and returns its exit code, every error turned into one clear
 * message and its code (never a stack trace, unless RETRYSTORM_DEBUG is set). `runCli` gives it
 * the process's streams; the tests call it in-process for refusals that are one code path
 * with a refusal they check as a process (a process start is most of such a test's cost).
 */
export async function execute(argv: string[], io: Io): Promise<number> {
  try {
    // `retrystorm` alone shows what it can do, as git, kubectl and helm do, rather than an error.
    return await main(argv.length === 0 ? ['--help'] : argv, io);
  } catch (e) {
    if (e instanceof ScenarioError) {
      io.err(e.message);
      io.err(`${e.problems.length} problem(s); nothing was run`);
      return EXIT.badInput;
    } else if (e instanceof ResultsError) {
      io.err(`retrystorm: cannot read the results: ${e.message}`);
      return EXIT.badInput;
    } else if (e instanceof OutputError) {
      io.err(`retrystorm: ${e.message}`);
      return EXIT.cannotWrite;
    } else if (e instanceof UsageError || e instanceof MergeError) {
      io.err(`retrystorm: ${e.message}\nrun "retrystorm --help" for usage`);
      return EXIT.badInput;
    } else {
      const err = e as Error;
      io.err(`retrystorm: internal error: ${err?.message ?? String(e)}`);
      if (process.env.RETRYSTORM_DEBUG) io.err(err?.stack ?? '');
      else io.err('this is a bug in retrystorm; rerun with RETRYSTORM_DEBUG=1 for details');
      return EXIT.internal;
    }
  }
}

export async function runCli(argv = hideBin(process.argv)): Promise<void> {
  quietOnEpipe(process.stdout);
  quietOnEpipe(process.stderr);
  const code = await execute(argv, processIo);
  process.exitCode = unwritable && (code === EXIT.ok || code === EXIT.expectationFailed) ? EXIT.cannotWrite : code;
}
