/**
 * The `retrystorm` command line: declares the commands and turns typed errors into exit
 * codes and one clear message, never a stack trace (set RETRYSTORM_DEBUG=1 to see one).
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { ScenarioError } from '../scenario/problems.js';
import { runCommand, validateCommand, schemaCommand, mergeCommand, type Io } from './commands.js';
import { reportCommand } from './report-command.js';
import { EXIT, UsageError } from './errors.js';

const io: Io = {
  out: (s) => process.stdout.write(s + '\n'),
  err: (s) => process.stderr.write(s + '\n'),
  progressStream: process.stderr,
};

export async function main(argv: string[]): Promise<number> {
  let code: number = EXIT.ok;
  const cli = yargs(argv)
    .scriptName('retrystorm')
    .usage('$0 <command> [options]\n\nSimulate retry storms: write the world as a scenario file, run it, compare policies.')
    .command(
      'run <scenario>',
      'simulate a scenario and write summary.json, timeseries.csv, report.html and summary.md',
      (y) =>
        y
          .positional('scenario', { type: 'string', demandOption: true, describe: 'scenario file (YAML)' })
          .option('seed', { type: 'number', describe: 'base seed (overrides the scenario\'s)' })
          .option('seeds', { type: 'number', describe: 'seeds per variant (overrides the scenario\'s)' })
          .option('out', { type: 'string', describe: 'output folder (default: reports/<scenario name>)' })
          .option('workers', { type: 'number', describe: 'worker threads (default: the number of cores)' })
          .option('shard', { type: 'string', describe: 'run only shard i of n (i/n); merge the folders with "merge"' })
          .option('quiet', { type: 'boolean', default: false, describe: 'print only the summary' })
          .option('max-run-memory', {
            type: 'string',
            describe: 'the most simulation state one run may hold (pending events, queues, records in flight), e.g. 512MiB; a run past it fails, the others go on (default 4GiB)',
          }),
      async (a) => {
        code = await runCommand(
          { scenario: a.scenario as string, seed: a.seed, seeds: a.seeds, out: a.out, workers: a.workers, shard: a.shard, quiet: a.quiet, maxRunMemory: a.maxRunMemory },
          io,
        );
      },
    )
    .command(
      'merge <dirs..>',
      'merge the output folders of the shards of one experiment',
      (y) =>
        y
          .positional('dirs', { type: 'string', array: true, demandOption: true })
          .option('out', { type: 'string', describe: 'output folder (default: reports/<scenario name>)' }),
      async (a) => {
        code = await mergeCommand(a.dirs as string[], a.out, io);
      },
    )
    .command(
      'report <dir>',
      're-render report.html and summary.md from a results folder, without simulating',
      (y) => y.positional('dir', { type: 'string', demandOption: true, describe: 'results folder written by run --out or merge' }),
      async (a) => {
        code = await reportCommand(a.dir as string, io);
      },
    )
    .command(
      'validate <files..>',
      'check scenario files and report every problem with its position',
      (y) => y.positional('files', { type: 'string', array: true, demandOption: true }),
      async (a) => {
        code = await validateCommand(a.files as string[], io);
      },
    )
    .command('schema', 'print the JSON Schema of scenario files (for editor autocompletion)', (y) => y, async () => {
      code = await schemaCommand(io);
    })
    .demandCommand(1, 'name a command: run, merge, report, validate or schema')
    .strict()
    .recommendCommands()
    .help()
    .version(false)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .fail((msg, err) => {
      if (err) throw err;
      // recommendCommands alone says only "Did you mean …?": name what was not understood too.
      if (/^Did you mean/.test(msg)) throw new UsageError(`unknown command "${argv[0]}". ${msg}`);
      throw new UsageError(msg);
    });
  await cli.parseAsync();
  return code;
}

export async function runCli(argv = hideBin(process.argv)): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (e) {
    if (e instanceof ScenarioError) {
      io.err(e.message);
      io.err(`${e.problems.length} problem(s); nothing was run`);
      process.exitCode = EXIT.badInput;
    } else if (e instanceof UsageError) {
      io.err(`retrystorm: ${e.message}\nrun "retrystorm --help" for usage`);
      process.exitCode = EXIT.badInput;
    } else {
      const err = e as Error;
      io.err(`retrystorm: internal error: ${err?.message ?? String(e)}`);
      if (process.env.RETRYSTORM_DEBUG) io.err(err?.stack ?? '');
      else io.err('this is a bug in retrystorm; rerun with RETRYSTORM_DEBUG=1 for details');
      process.exitCode = EXIT.internal;
    }
  }
}
