/**
 * The files a scenario reads besides itself: the deployed configs `from:` names and the
 * recorded traffic `arrivals: { kind: trace }` names. One place decides where a path written
 * in the scenario points (relative to the scenario file's folder) and whether it may be read
 * (not outside that folder, through `..`, an absolute path or a symlink, unless allowed), and
 * records what was read (the path as written, the sha256 of the text, the text) so that a
 * results folder carries a copy of each (inputs/) and `merge`, `run --reuse` and `diff` read
 * the scenario from the folder alone, wherever it sits and whatever the working folder.
 *
 * Read from a results folder (`stored`), a path is looked up among the files its runs.json
 * records and read from the folder's copy, which must still have the recorded digest.
 */
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { readBounded, type BoundedRead } from './bounded-read.js';
import { STDIN_NAME } from './read-source.js';
import { formatCount } from './limits.js';

/** A file read for a scenario, as runs.json records it. */
export interface InputRecord {
  /** As written in the scenario. */
  path: string;
  /** sha256 (hex) of the file's text as read (UTF-8). */
  sha256: string;
}

/** A file read for a scenario, with its text (what the results folder's copy holds). */
export interface InputFile extends InputRecord {
  text: string;
}

/** The folder of a results folder that holds the copies of the inputs. */
export const INPUTS_FOLDER = 'inputs';

/**
 * The most bytes of input files a scenario may read in all: a results folder keeps a copy of
 * each, and holds them in memory until it is written. Four of the largest traces (64 MiB each).
 */
export const INPUTS_MOST_BYTES = 256 * 1024 * 1024;

export interface InputOptions {
  /** Read files outside the scenario's folder too (`--allow-outside`); without it they are refused. */
  allowOutside?: boolean;
  /** The inputs are a results folder's copies: `dir` is the results folder, `files` what its runs.json records. */
  stored?: { dir: string; files: readonly InputRecord[] };
  /** The most bytes in all (INPUTS_MOST_BYTES; smaller in tests). */
  mostBytes?: number;
}

/** A read, or why the file was refused before or after reading (`detail` is then the whole reason). */
export type InputRead = BoundedRead | { ok: false; why: 'refused'; detail: string };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Where a path written in a scenario points, or why it may not be read: relative paths are
 * relative to the scenario's folder; a path that leaves it (`../x`, `/etc/x`, or a symlink
 * whose target is elsewhere) is refused unless `allowOutside`. A file that does not exist is
 * left to the reader to say so.
 */
export function resolveInput(folder: string, written: string, allowOutside: boolean): { ok: true; file: string } | { ok: false; detail: string } {
  const file = resolve(folder, written);
  if (allowOutside) return { ok: true, file };
  const refuse = (how: string) => ({
    ok: false as const,
    detail: `${how} outside the scenario's folder (${folder}): a scenario reads files in its own folder or below it, so that its results folder can carry a copy of each; move the file there, or give --allow-outside`,
  });
  if (!contains(folder, file)) return refuse('it is');
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return { ok: true, file }; // not there: the reader says so
  }
  let realFolder = folder;
  try {
    realFolder = realpathSync(folder);
  } catch {
    // The folder is as written.
  }
  return contains(realFolder, real) ? { ok: true, file } : refuse(`it is a link to ${real},`);
}

/** Whether `p` is `folder` or inside it. */
function contains(folder: string, p: string): boolean {
  const r = relative(folder, p);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

/**
 * Where a results folder keeps the copy of an input, relative to the folder: inputs/ mirrors
 * the path as written when it stays in the scenario's folder; one that leaves it (allowed by
 * --allow-outside) is kept under inputs/outside/, named by its digest and its file name.
 */
export function storedName(r: InputRecord): string {
  const p = posix.normalize(r.path.split(sep).join('/'));
  const inside = !posix.isAbsolute(p) && p !== '..' && !p.startsWith('../') && p !== '.';
  return inside ? posix.join(INPUTS_FOLDER, p) : posix.join(INPUTS_FOLDER, 'outside', r.sha256.slice(0, 16), posix.basename(p));
}

/** The files one scenario reads, resolved, bounded and recorded as they are read. */
export class ScenarioInputs {
  /** The scenario's folder, which relative paths start from. */
  readonly folder: string;
  private readonly read_ = new Map<string, InputFile>();
  private total = 0;

  constructor(scenarioFile: string, private readonly opts: InputOptions = {}) {
    this.folder = scenarioFile === STDIN_NAME ? process.cwd() : dirname(resolve(scenarioFile));
  }

  /** What a path as written stands for (the same file read twice is read once by the callers' caches). */
  key(written: string): string {
    return this.opts.stored ? `stored:${written}` : resolve(this.folder, written);
  }

  /** Reads the file a scenario names (at most `maxBytes`), and records it. */
  read(written: string, maxBytes: number): InputRead {
    const got = this.opts.stored ? this.readStored(written, maxBytes) : this.readBeside(written, maxBytes);
    if (!got.ok) return got;
    const digest = sha256(got.text);
    if (!this.read_.has(written)) {
      const bytes = Buffer.byteLength(got.text);
      const most = this.opts.mostBytes ?? INPUTS_MOST_BYTES;
      if (this.total + bytes > most) {
        return { ok: false, why: 'refused', detail: `with it, the files this scenario reads total more than ${formatCount(most)} bytes, the most a results folder keeps copies of (inputs/, so that merge, run --reuse and diff read them from there): read fewer or smaller files (a shorter range, a coarser step)` };
      }
      this.total += bytes;
      this.read_.set(written, { path: written, sha256: digest, text: got.text });
    }
    return got;
  }

  private readBeside(written: string, maxBytes: number): InputRead {
    const where = resolveInput(this.folder, written, this.opts.allowOutside ?? false);
    if (!where.ok) return { ok: false, why: 'refused', detail: where.detail };
    return readBounded(where.file, maxBytes);
  }

  private readStored(written: string, maxBytes: number): InputRead {
    const { dir, files } = this.opts.stored!;
    const record = files.find((f) => f.path === written);
    if (!record) return { ok: false, why: 'refused', detail: `the results folder holds no copy of it (its runs.json records ${files.length ? files.map((f) => f.path).join(', ') : 'no input files'}): rerun the scenario with this build to write one` };
    const copy = join(dir, storedName(record));
    const got = readBounded(copy, maxBytes);
    if (!got.ok) return got.why === 'missing' ? { ok: false, why: 'refused', detail: `its copy ${copy} is missing from the results folder: rerun what wrote the folder` } : got;
    if (sha256(got.text) !== record.sha256) return { ok: false, why: 'refused', detail: `its copy ${copy} was edited after the run (its sha256 is not the one runs.json records): rerun what wrote the folder` };
    return got;
  }

  /** Every file read, by path as written. */
  get files(): InputFile[] {
    return [...this.read_.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}
