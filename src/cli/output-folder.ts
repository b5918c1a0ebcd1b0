/**
 * The results folder (`--out`) as one unit that is never lost and never mixed.
 *
 * - Checked before any simulation: a path that is empty, a file, under a file, not
 *   creatable or not writable, a folder holding files that are not retrystorm results, or
 *   one that is or holds the current folder or the scenario being run, is refused up front (a UsageError, exit 2) instead of after an hour of runs.
 * - Locked: a lock file beside the folder (`.NAME.lock`, holding the writer's pid) refuses a
 *   second writer while the first is alive; a lock left by a process that is gone is taken over.
 * - Staged: everything is written into a staging folder beside it (`.NAME.partial-PID`) and
 *   the staging folder is renamed into place as a whole, so readers see the previous
 *   experiment or the new one, never a mix; a write that fails (a full disk) leaves the
 *   previous folder untouched.
 * - Journaled: the scenario as written, copies of the files it read (inputs/) and the run plan go into the staging folder first,
 *   and each finished run is appended to its runs.ndjson as it finishes (each line's digest
 *   chained on the one before, so an edited journal is refused), so a kill, an
 *   out-of-memory crash or a power cut keeps the finished runs: `retrystorm merge` reads a
 *   staging folder like a results folder (see experiment/runs-journal.ts).
 */
import { renderOutputs, type ReportOptions } from '../report/write.js';
import type { ExperimentResult } from '../experiment/experiment.js';
import { appendFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { OutputError, UsageError } from './errors.js';
import type { RunSpec } from '../experiment/expand.js';
import { JournalWriter, JOURNAL_FILE, type JournalHeader } from '../experiment/runs-journal.js';
import type { RunResult } from '../experiment/run-one.js';
import { storedName, type InputFile } from '../scenario/input-files.js';

/** Files a retrystorm results folder may hold: an existing folder with anything else is not ours to replace. */
const OUR_FILES = /^(summary\.json|summary\.md|report\.html|timeseries\.csv|populations\.csv|expectations\.xml|timeseries\.openmetrics\.txt|runs\.json|scenario\.yaml|runs\.ndjson|inputs|calibration\.(?:json|md|html)|[^/]+\.tmp)$/;

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function describe(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const why: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOTDIR: 'a part of the path is a file, not a folder',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    EEXIST: 'it already exists',
  };
  return why[err.code ?? ''] ?? err.message;
}

export class OutputFolder {
  readonly dir: string;
  readonly staging: string;
  private readonly lock: string;
  private released = false;
  private kept = 0;
  /** Chains each line of the journal on the one before (runs-journal.ts). */
  private journal: JournalWriter | undefined;
  /** The journal's length in bytes: whole lines only. */
  private journalBytes = 0;
  /** A write failed part way and could not be cut back: the journal ends in a torn line. */
  private journalTorn = false;

  private constructor(dir: string) {
    this.dir = dir;
    const parent = dirname(dir), name = basename(dir);
    this.staging = join(parent, `.${name}.partial-${process.pid}`);
    this.lock = join(parent, `.${name}.lock`);
  }

  /**
   * Checks `--out` and takes it: the folder's parent is created, the lock taken, the staging
   * folder made (which proves the place writable). Throws a UsageError saying what is wrong
   * and what would do; nothing has been simulated yet. `keep`: files the results must not
   * replace (the scenario being run).
   */
  static claim(out: string, opts: { keep?: readonly string[] } = {}): OutputFolder {
    if (out.trim() === '') throw new UsageError('--out is empty (an unset variable in a script?): name the folder for the results, e.g. --out reports/mine');
    const dir = resolve(out);
    if (dir === dirname(dir)) throw new UsageError(`--out ${out} is the root of the file system: name a folder for the results`);
    confine(out, dir, opts.keep ?? []);
    const f = new OutputFolder(dir);
    if (existsSync(dir)) {
      if (!statSync(dir).isDirectory()) throw new UsageError(`--out ${out} is a file, not a folder: name a folder for the results (it is created if needed)`);
      const foreign = readdirSync(dir).filter((n) => !OUR_FILES.test(n));
      if (foreign.length) {
        throw new UsageError(`--out ${out} holds files that are not retrystorm results (${foreign.slice(0, 3).join(', ')}${foreign.length > 3 ? ', …' : ''}); the results replace the folder as a whole, so name a new or empty folder`);
      }
    }
    // The nearest part of the path that exists must be a folder (mkdir would only say "exists").
    let existing = dirname(dir);
    while (!existsSync(existing) && existing !== dirname(existing)) existing = dirname(existing);
    if (!statSync(existing).isDirectory()) throw new UsageError(`--out ${out}: ${existing} is a file, not a folder; name a folder for the results`);
    try {
      mkdirSync(dirname(dir), { recursive: true });
    } catch (e) {
      throw new UsageError(`--out ${out}: cannot create the folder it goes in (${describe(e)})`);
    }
    f.takeLock(out);
    try {
      mkdirSync(f.staging);
    } catch (e) {
      f.release();
      throw new UsageError(`--out ${out}: cannot write beside it (${describe(e)}); name a folder you can write to`);
    }
    return f;
  }

  /**
   * The lock is a file holding the writer's pid, and it comes into being with the pid in it: it
   * is written under a name of this process's own, then hard-linked to the lock's name, which
   * fails if the lock exists. (Created empty and written after, a lock read in between had no
   * pid, was taken for a dead writer's, and a second writer took it over.)
   */
  private takeLock(out: string): void {
    const mine = `${this.lock}.${process.pid}`;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(mine, `${process.pid}\n`);
        try {
          linkSync(mine, this.lock);
        } catch (e) {
          // A file system without hard links: create it exclusively, pid written at once.
          const code = (e as NodeJS.ErrnoException).code;
          if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw e;
          writeFileSync(this.lock, `${process.pid}\n`, { flag: 'wx' });
        } finally {
          rmSync(mine, { force: true });
        }
        return;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST') throw new UsageError(`--out ${out}: cannot write beside it (${describe(e)}); name a folder you can write to`);
        const holder = Number.parseInt(readFileSync(this.lock, 'utf8'), 10);
        if (isAlive(holder) && holder !== process.pid) {
          throw new UsageError(`another retrystorm (pid ${holder}) is writing to ${out}: wait for it to finish, or name another --out`);
        }
        // A lock without a pid, made a moment ago, is a writer still starting (one that creates
        // the file before writing to it): held. Left for longer, its writer died in between.
        if (Number.isNaN(holder) && Date.now() - statSync(this.lock).mtimeMs < FRESH_LOCK_MS) {
          throw new UsageError(`another retrystorm is starting to write to ${out}: wait for it to finish, or name another --out`);
        }
        // Left by a process that is gone: take it over.
        unlinkSync(this.lock);
      }
    }
    throw new UsageError(`--out ${out}: could not take its lock ${this.lock}`);
  }

  /**
   * The scenario whose results the folder holds now (its summary.json's name), or undefined
   * when it holds none, or none that can be read: results are replaced as a whole, and a
   * user who named another scenario's folder by mistake should hear of it.
   */
  heldScenario(): string | undefined {
    try {
      const name = (JSON.parse(readFileSync(join(this.dir, 'summary.json'), 'utf8')) as { scenario?: unknown }).scenario;
      return typeof name === 'string' ? name : undefined;
    } catch {
      return undefined;
    }
  }

  /** Staging folders of earlier writers that were killed: their journals hold finished runs. */
  orphans(): string[] {
    const parent = dirname(this.dir), prefix = `.${basename(this.dir)}.partial-`;
    return readdirSync(parent)
      .filter((n) => n.startsWith(prefix) && !isAlive(Number.parseInt(n.slice(prefix.length), 10)))
      .map((n) => join(parent, n));
  }

  /**
   * Starts the journal: the scenario as written, the files it read (inputs/: a killed run's
   * staging folder merges from anywhere, like a results folder) and the run plan, before any run finishes.
   */
  begin(header: Omit<JournalHeader, 'inputs'> & { inputs?: readonly InputFile[] }, scenarioSource: string): void {
    writeFileSync(join(this.staging, 'scenario.yaml'), scenarioSource);
    this.writeFiles((header.inputs ?? []).map((f) => [storedName(f), f.text] as const));
    this.journal = new JournalWriter(header);
    writeFileSync(join(this.staging, JOURNAL_FILE), this.journal.header);
    this.journalBytes = Buffer.byteLength(this.journal.header);
  }

  /**
   * Appends a line to the journal, whole or not at all: a write that fails part way (a full
   * disk) is cut back to the last whole line, so that a line written later, once there is
   * room, does not follow a torn one (the chain would break there, and the journal be refused
   * from that line on). If it cannot be cut back, nothing more is appended: the torn line stays
   * last, where a reader takes it for a kill's.
   */
  private append(line: string): void {
    const file = join(this.staging, JOURNAL_FILE);
    if (this.journalTorn) throw new Error(`${file} could not be written to since an earlier write failed`);
    try {
      appendFileSync(file, line);
    } catch (e) {
      try {
        truncateSync(file, this.journalBytes);
      } catch {
        this.journalTorn = true;
      }
      throw e;
    }
    this.journalBytes += Buffer.byteLength(line);
    this.journal!.wrote(line);
  }

  /** Appends the runs a later look of `seeds: auto` adds to the plan. */
  extend(runs: RunSpec[]): void {
    this.append(this.journal!.more(runs));
  }

  /** Appends one finished run to the journal (its position in the plan, and its result). */
  record(index: number, result: RunResult): void {
    this.append(this.journal!.record(index, result));
    this.kept++;
  }

  /** Finished runs the journal holds: what a failure or a kill leaves in the staging folder. */
  get runsKept(): number {
    return this.kept;
  }

  /**
   * Writes the outputs into the staging folder and puts it in place of the results folder
   * as a whole. On failure the previous folder is untouched and the journal is kept; the
   * error names where the finished runs are.
   */
  commit(files: ReadonlyArray<readonly [string, string]>): string[] {
    try {
      this.writeFiles(files);
    } catch (e) {
      throw new OutputError(`could not write the results into ${this.staging} (${describe(e)}); ${this.dir} is as it was, and the finished runs are kept in ${join(this.staging, JOURNAL_FILE)} (retrystorm merge ${this.staging} --out DIR writes them once there is room)`);
    }
    // The journal served its purpose: runs.json holds the same runs.
    rmSync(join(this.staging, JOURNAL_FILE), { force: true });
    const old = `${this.staging}.old`;
    const hadPrevious = existsSync(this.dir);
    if (hadPrevious) renameSync(this.dir, old);
    try {
      renameSync(this.staging, this.dir);
    } catch (e) {
      if (hadPrevious) renameSync(old, this.dir);
      throw new OutputError(`could not move the results into ${this.dir} (${describe(e)}); they are in ${this.staging}`);
    }
    if (hadPrevious) rmSync(old, { recursive: true, force: true });
    return files.map(([name]) => join(this.dir, name));
  }

  /** Writes files into the staging folder; a name may be in a subfolder (inputs/…), made as needed. */
  private writeFiles(files: ReadonlyArray<readonly [string, string]>): void {
    for (const [name, text] of files) {
      const path = join(this.staging, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }

  /** Gives up the lock (and the staging folder, if it holds no finished run). */
  release(keepStaging = false): void {
    if (this.released) return;
    this.released = true;
    if (!keepStaging && existsSync(this.staging)) rmSync(this.staging, { recursive: true, force: true });
    try {
      if (Number.parseInt(readFileSync(this.lock, 'utf8'), 10) === process.pid) unlinkSync(this.lock);
    } catch {
      // Already gone: nothing to give up.
    }
  }
}

/**
 * The results replace `--out` as a whole (a rename), so `--out` must not be, or hold, what the
 * user is standing in or running: `--out .` (or `..`, or any folder above the current one)
 * would take the current folder with it, and the scenario's own folder would take the
 * scenario. Compared as real paths, so a link to the same place is the same place.
 */
function confine(out: string, dir: string, keep: readonly string[]): void {
  const real = realPath(dir);
  const cwd = realPath(process.cwd());
  if (contains(real, cwd)) {
    const where = real === cwd ? 'the folder you are in' : `a folder above the one you are in (${cwd})`;
    throw new UsageError(`--out ${out} is ${where}: the results replace --out as a whole and would take it with them; name a folder for the results inside it, e.g. --out reports/mine`);
  }
  for (const file of keep) {
    const held = realPath(resolve(file));
    if (contains(real, held)) {
      throw new UsageError(`--out ${out} holds the scenario ${file}: the results replace --out as a whole and would take the scenario with them; name another folder for the results, e.g. --out reports/mine`);
    }
  }
}

/** `p` with the part of it that exists resolved through links (what is not there yet, as written). */
function realPath(p: string): string {
  let existing = p;
  const rest: string[] = [];
  while (!existsSync(existing) && existing !== dirname(existing)) {
    rest.unshift(basename(existing));
    existing = dirname(existing);
  }
  try {
    return join(realpathSync(existing), ...rest);
  } catch {
    return p;
  }
}

/** Whether `p` is `folder` or inside it. */
function contains(folder: string, p: string): boolean {
  const r = relative(folder, p);
  return r === '' || (r !== '..' && !r.startsWith(`..${sep}`) && !isAbsolute(r));
}

/** How long a lock without a pid in it counts as a writer starting up, not a dead one's. */
const FRESH_LOCK_MS = 10_000;

/** Its error lives with the command line's other errors (errors.ts, imported by main at start-up); re-exported beside what throws it. */
export { OutputError };

/** Renders every output and puts the folder in place as a whole; the lock is given up either way. */
export function commitOutputs(x: ExperimentResult, folder: OutputFolder, opts: ReportOptions = {}): { files: string[]; bundle: ReturnType<typeof renderOutputs>['bundle'] } {
  let kept = false;
  try {
    const { files, bundle } = renderOutputs(x, opts);
    return { files: folder.commit(files), bundle };
  } catch (e) {
    kept = e instanceof OutputError; // the journal holds the finished runs: keep it
    throw e;
  } finally {
    folder.release(kept);
  }
}
