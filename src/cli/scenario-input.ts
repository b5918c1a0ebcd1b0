/**
 * What the commands that read a scenario share: the scenario file (or standard input), the
 * --seed flag checked by the file's rule, the number of workers, and the Io they print
 * through. A module of its own so that `validate` and `edge` use them without loading `run`'s
 * simulation, worker pool and report renderer (commands.ts).
 */
import { formatProblem } from '../scenario/problems.js';
import { availableParallelism } from 'node:os';
import { loadScenario, loadScenarioFile, type LoadedScenario } from '../scenario/load.js';
import { scenarioSchema } from '../scenario/schema.js';
import { STDIN, STDIN_NAME, readScenarioStdin } from '../scenario/read-source.js';
import { UsageError } from './errors.js';
import { plainText, type StyledLine } from './colour.js';
import { measureReferencesCheck } from '../experiment/expectations.js';
import { MEASURES } from '../measures/registry.js';

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  /** A line of stdout in parts, coloured where the stream takes colour (colour.ts); without it, `out` prints the plain text. */
  outStyled?: (line: StyledLine) => void;
  /** Where progress is drawn (a terminal gets a redrawn bar). */
  progressStream: NodeJS.WriteStream;
  /** The terminal's width in columns, when known: the tables fit in it. */
  columns?: number;
}

/**
 * A scenario file, or standard input for "-", with the measures it names checked. The files it names are read only inside its
 * folder unless `allowOutside` (--allow-outside): its results folder carries a copy of each.
 */
/**
 * Loads a scenario the command line was given. `warn` hears each warning (a field of a
 * deployed config that does not change the load), one line each, as "warning: file:line:col
 * path: message": the scenario loads, and the user learns what was not modelled.
 */
export async function loadInput(file: string, opts: { allowOutside?: boolean; warn?: (line: string) => void } = {}): Promise<LoadedScenario> {
  const inputs = { allowOutside: opts.allowOutside ?? false };
  // The measures the expectations and objectives name are checked with the rest of the file:
  // every problem in one pass.
  const options = { checks: [measureReferencesCheck(MEASURES)] };
  const loaded = file === STDIN ? loadScenario(await readScenarioStdin(), STDIN_NAME, inputs, options) : loadScenarioFile(file, inputs, options);
  for (const w of loaded.warnings) opts.warn?.(`warning: ${formatProblem(w)}`);
  return loaded;
}

/** --seed follows the rule of the file's `seed` (a whole number from 0 to 2^31), said in the flag's terms. */
export function checkSeedFlag(seed: number | undefined): void {
  if (seed === undefined) return;
  const r = scenarioSchema.shape.seed.safeParse(seed);
  if (!r.success || !Number.isSafeInteger(seed)) {
    throw new UsageError(`--seed must be a whole number from 0 to ${2 ** 31}, like a scenario's seed (got ${Number.isNaN(seed) ? 'something that is not a number' : seed})`);
  }
}

/** Workers: the cores there are, at most, unless forced (200 workers on 2 cores only thrash). */
export function chooseWorkers(asked: number | undefined, force: boolean, io: Io, quiet: boolean): number {
  const cores = availableParallelism();
  if (asked === undefined) return cores;
  if (asked <= cores || force) return asked;
  if (!quiet) io.err(`note: --workers ${asked} is more than the ${cores} core(s) here: using ${cores} (--force-workers to use ${asked} anyway)`);
  return cores;
}

/** Prints a styled line to stdout: in colour where the Io can, as plain text otherwise. */
export function printStyled(io: Io, line: StyledLine): void {
  if (io.outStyled) io.outStyled(line);
  else io.out(plainText(line));
}
