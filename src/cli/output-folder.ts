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
 *   previous folder untouched, and the files it wrote are removed. The swap is renames that a
 *   kill can stop half way: the next command that writes or reads the folder finishes it
 *   first (commit-swap.ts).
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
import { finishSwap, stoppedSwaps, swapIn } from './commit-swap.js';

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
    EFBIG: 'a file would pass the limit on file size (ulimit -f)',
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
  /** The journal's plan was not extended (a later look of seeds: auto): no record may follow. */
  private journalStopped = false;
  /** Finished runs the journal could not take (a full disk): held in memory only. */
  private lost = 0;
  /** Why the first of them could not be written. */
  private lostWhy: unknown;
  /** Where the notes a claim's caller prints go (a finished half-done commit, a journal that stopped taking runs). */
  private say: ((line: string) => void) | undefined;
  /** The staging folder holds whole results that could not be moved into place: keep it. */
  private stranded = false;
  /** Files `begin` wrote (name -> text): the commit does not write them a second time. */
  private readonly begun = new Map<string, string>();

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
   * replace (the scenario being run). `say`: where the one line about a commit that a killed
   * writer left half done, and this claim finished, goes.
   */
  static claim(out: string, opts: { keep?: readonly string[]; say?: (line: string) => void } = {}): OutputFolder {
    if (out.trim() === '') throw new UsageError('--out is empty (an unset variable in a script?): name the folder for the results, e.g. --out reports/mine');
    const dir = resolve(out);
    if (dir === dirname(dir)) throw new UsageError(`--out ${out} is the root of the file system: name a folder for the results`);
    confine(out, dir, opts.keep ?? []);
    const f = new OutputFolder(dir);
    f.say = opts.say;
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
      const done = finishSwap(dir);
      if (done) opts.say?.(`note: ${done}`);
    } catch (e) {
      f.release();
      throw new OutputError(`--out ${out}: a commit a killed writer left half done could not be finished (${describe(e)}); its folders are beside ${out}`);
    }
    try {
      mkdirSync(f.staging);
    } catch (e) {
      f.release();
      throw new UsageError(`--out ${out}: cannot write beside it (${describe(e)}); name a folder you can write to`);
    }
    return f;
  }

  /**
   * Before `dir` is read: finishes a commit into it that a killed writer left half done (see
   * commit-swap.ts), under its lock, and says so in one line. Nothing is done, and nothing
   * written, when there is none (almost always), or when a live writer holds the lock (it
   * finished any such commit when it took the lock, and its own is in progress).
   */
  static settle(dir: string, say: (line: string) => void): void {
    const abs = resolve(dir);
    const { commits, olds } = stoppedSwaps(abs);
    if (commits.length === 0 && olds.length === 0) return;
    const f = new OutputFolder(abs);
    try {
      f.takeLock(dir);
    } catch (e) {
      if (e instanceof UsageError) return;
      throw e;
    }
    try {
      const done = finishSwap(abs);
      if (done) say(`note: ${done}`);
    } catch (e) {
      throw new OutputError(`${dir}: a commit a killed writer left half done could not be finished (${describe(e)}); its folders are beside ${dir}`);
    } finally {
      f.release();
    }
  }

  /**
   * Takes an existing results folder to rewrite files in it (`report DIR`): locked as `--out`
   * is, a commit a killed writer left half done finished first, and the temporary files of a
   * rewrite that was killed before its renames removed. No staging folder: the
   * files are rewritten in place with `rewrite`.
   */
  static open(dir: string, say: (line: string) => void): OutputFolder {
    const f = new OutputFolder(resolve(dir));
    f.takeLock(dir);
    try {
      const done = finishSwap(f.dir);
      if (done) say(`note: ${done}`);
      // Under the lock no one else is writing here: a NAME.tmp is a killed rewrite's, never renamed.
      if (existsSync(f.dir)) for (const n of readdirSync(f.dir)) if (n.endsWith('.tmp')) rmSync(join(f.dir, n), { force: true });
    } catch (e) {
      f.release();
      throw new OutputError(`${dir}: a commit a killed writer left half done could not be finished (${describe(e)}); its folders are beside ${dir}`);
    }
    return f;
  }

  /**
   * Rewrites files of the folder in place, all or none: each is written under a temporary
   * name first (NAME.tmp), and only once all are written are they renamed over the old ones
   * (a rename needs no room). A write that fails (a full disk) removes the temporary files
   * and leaves every file as it was.
   */
  rewrite(files: ReadonlyArray<readonly [string, string]>): string[] {
    const written: string[] = [];
    try {
      for (const [name, text] of files) {
        const tmp = join(this.dir, `${name}.tmp`);
        written.push(tmp);
        writeFileSync(tmp, text);
      }
    } catch (e) {
      for (const tmp of written) rmSync(tmp, { force: true });
      throw new OutputError(`could not write ${files.map(([n]) => n).join(' and ')} into ${this.dir} (${describe(e)}); the folder is as it was`);
    }
    for (const [name] of files) renameSync(join(this.dir, `${name}.tmp`), join(this.dir, name));
    return files.map(([name]) => join(this.dir, name));
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
        this.sweepLockNames();
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
   * Removes the names earlier writers wrote their lock under (`.NAME.lock.PID`) and were killed
   * before they removed: nobody else reads them, and they would pile up beside the folder.
   */
  private sweepLockNames(): void {
    const parent = dirname(this.lock), prefix = `${basename(this.lock)}.`;
    for (const n of readdirSync(parent)) {
      if (n.startsWith(prefix) && /^\d+$/.test(n.slice(prefix.length)) && !isAlive(Number(n.slice(prefix.length)))) rmSync(join(parent, n), { force: true });
    }
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
    const files: Array<readonly [string, string]> = [['scenario.yaml', scenarioSource], ...(header.inputs ?? []).map((f) => [storedName(f), f.text] as const)];
    try {
      this.writeFiles(files);
      for (const [name, text] of files) this.begun.set(name, text);
      this.journal = new JournalWriter(header);
      writeFileSync(join(this.staging, JOURNAL_FILE), this.journal.header);
      this.journalBytes = Buffer.byteLength(this.journal.header);
    } catch (e) {
      // Said before any run: nothing is lost yet, and nothing is left (release removes the staging folder).
      this.journal = undefined;
      throw new OutputError(`could not start the journal in ${this.staging} (${describe(e)}); nothing was run, and ${this.dir} is as it was`);
    }
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

  /**
   * Appends the runs a later look of `seeds: auto` adds to the plan. If it cannot (a full
   * disk), the journal takes nothing more: a record of a run beyond its plan would be refused.
   */
  extend(runs: RunSpec[]): void {
    if (this.journalStopped) return;
    try {
      this.append(this.journal!.more(runs));
    } catch (e) {
      this.journalStopped = true;
      this.journalFailed(e);
    }
  }

  /**
   * Appends one finished run to the journal (its position in the plan, and its result). A run
   * the journal cannot take (a full disk) is not a failed run: it stays in memory for the
   * results, and is counted as not kept (`runsLost`), so what a failure then says is kept is
   * what is.
   */
  record(index: number, result: RunResult): void {
    if (!this.journalStopped) {
      try {
        this.append(this.journal!.record(index, result));
        this.kept++;
        return;
      } catch (e) {
        this.journalFailed(e);
      }
    }
    this.lost++;
  }

  /** The journal could not be written: said the first time, when it happens (a long run on a full disk is still running). */
  private journalFailed(e: unknown): void {
    if (this.lostWhy !== undefined) return;
    this.lostWhy = e;
    this.say?.(`note: the journal ${join(this.staging, JOURNAL_FILE)} cannot take finished runs (${describe(e)}): from here on they are held in memory only, and lost if the results cannot be written either`);
  }

  /** Finished runs the journal holds: what a failure or a kill leaves in the staging folder. */
  get runsKept(): number {
    return this.kept;
  }

  /** Whether a failure leaves something in the staging folder worth keeping: finished runs, or whole results. */
  get worthKeeping(): boolean {
    return this.kept > 0 || this.stranded;
  }

  /** Finished runs the journal could not take (a full disk): in memory only. */
  get runsLost(): number {
    return this.lost;
  }

  /**
   * Where a run's finished runs are when they cannot be written as results: "the 3 finished
   * run(s) are kept in X (…)", or how many of them the journal could not take and why.
   */
  keptLine(where: string): string {
    const merge = `"retrystorm merge ${where} --out DIR" writes them once there is room`;
    const lost = this.lost > 0 ? `; ${this.lost} other finished run(s) could not be written to it (${describe(this.lostWhy)}) and are lost` : '';
    if (this.kept === 0) return `no finished run could be kept${this.lost > 0 ? ` (${this.lost} finished, but the journal could not take them: ${describe(this.lostWhy)})` : ''}`;
    return `${this.kept} finished run(s) are kept in ${join(where, JOURNAL_FILE)} (${merge})${lost}`;
  }

  /**
   * Writes the outputs into the staging folder and puts it in place of the results folder
   * as a whole. On failure the previous folder is untouched and the journal is kept; the
   * error names where the finished runs are.
   */
  commit(files: ReadonlyArray<readonly [string, string]>): string[] {
    // What begin wrote (the scenario, its inputs) stays as written: a rewrite on a full disk
    // could cut it short, and a journal without its scenario cannot be merged.
    const toWrite = files.filter(([name, text]) => this.begun.get(name) !== text);
    try {
      this.writeFiles(toWrite);
    } catch (e) {
      // The files this commit wrote go (a truncated runs.json would stop the merge that
      // recovers the journal, and they hold room a full disk needs); the journal stays.
      for (const [name] of toWrite) rmSync(join(this.staging, name), { force: true });
      const kept = this.journal ? `, and ${this.keptLine(this.staging)}` : '';
      throw new OutputError(`could not write the results into ${this.staging} (${describe(e)}); ${this.dir} is as it was${kept}`);
    }
    try {
      swapIn(this.staging, this.dir);
    } catch (e) {
      this.stranded = true;
      throw new OutputError(`could not move the results into ${this.dir} (${describe(e)}); they are in ${this.staging}`);
    }
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
    kept = e instanceof OutputError && folder.worthKeeping; // finished runs or whole results are there: keep them
    throw e;
  } finally {
    folder.release(kept);
  }
}
