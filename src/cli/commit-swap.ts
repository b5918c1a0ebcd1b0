/**
 * Putting a finished staging folder in place of a results folder, and finishing such a swap
 * that a kill (or a power cut) stopped half way.
 *
 * A folder cannot replace another folder in one rename (rename(2) refuses a non-empty target,
 * and there is no portable exchange), so a commit is three renames, each of which can be the
 * last one a killed process made:
 *
 *   1. `.NAME.partial-PID` -> `.NAME.commit-PID`   the new results are whole: the commit point
 *   2. `NAME`              -> `.NAME.old-PID`      the previous results stand aside
 *   3. `.NAME.commit-PID`  -> `NAME`               the new results are in place
 *   then `.NAME.old-PID` is removed.
 *
 * Between 2 and 3 `NAME` does not exist. The names say what each hidden folder is, so the next
 * command that writes to `NAME`, or reads it (report, merge, run --reuse/--base, diff), finds a
 * swap that was stopped and finishes it before anything else (`finishSwap`): a `.commit-`
 * folder is whole and goes in place (the commit had passed its point); an `.old-` folder with
 * no `.commit-` beside it goes back if `NAME` is missing, and is removed otherwise. It is done
 * under the folder's lock (output-folder.ts), so a live writer's swap is never touched.
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { JOURNAL_FILE } from '../experiment/runs-journal.js';

const commitName = (dir: string, pid: number) => join(dirname(dir), `.${basename(dir)}.commit-${pid}`);
const oldName = (dir: string, pid: number) => join(dirname(dir), `.${basename(dir)}.old-${pid}`);

/**
 * Puts `staging` (whole, every file written) in place of `dir`. A failure before the new
 * results are whole leaves `dir` as it was and `staging` as it was; one after it puts the
 * previous folder back if it can. Throws what the file system threw.
 */
export function swapIn(staging: string, dir: string): void {
  const commit = commitName(dir, process.pid), old = oldName(dir, process.pid);
  renameSync(staging, commit); // 1: from here on, the new results are what `dir` should hold
  // The journal served its purpose: runs.json holds the same runs.
  rmSync(join(commit, JOURNAL_FILE), { force: true });
  const hadPrevious = existsSync(dir);
  try {
    if (hadPrevious) renameSync(dir, old); // 2
  } catch (e) {
    renameSync(commit, staging); // the new results back where the error says they are
    throw e;
  }
  try {
    renameSync(commit, dir); // 3
  } catch (e) {
    if (hadPrevious) renameSync(old, dir);
    renameSync(commit, staging);
    throw e;
  }
  if (hadPrevious) rmSync(old, { recursive: true, force: true });
}

/** The hidden folders a stopped swap into `dir` left beside it (none, almost always). */
export function stoppedSwaps(dir: string): { commits: string[]; olds: string[] } {
  const parent = dirname(dir), name = basename(dir);
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return { commits: [], olds: [] };
  }
  const of = (kind: string) => names.filter((n) => new RegExp(`^\\.${escapeRe(name)}\\.${kind}-\\d+$`).test(n)).map((n) => join(parent, n));
  return { commits: of('commit'), olds: of('old') };
}

/**
 * Finishes a swap into `dir` that a process stopped half way, and says in one line what it
 * did (undefined when there was nothing to finish). The caller holds `dir`'s lock.
 */
export function finishSwap(dir: string): string | undefined {
  const { commits, olds } = stoppedSwaps(dir);
  if (commits.length === 0 && olds.length === 0) return undefined;
  const pidOf = (p: string) => p.slice(p.lastIndexOf('-') + 1);
  if (commits.length > 0) {
    // The newest whole result wins (there is at most one: each writer finishes any before its own).
    const commit = commits.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs).at(-1)!;
    rmSync(join(commit, JOURNAL_FILE), { force: true });
    const aside = oldName(dir, process.pid);
    if (existsSync(dir)) renameSync(dir, aside);
    renameSync(commit, dir);
    for (const old of [...olds, ...(existsSync(aside) ? [aside] : [])]) rmSync(old, { recursive: true, force: true });
    return `${dir}: the results of a writer (pid ${pidOf(commit)}) stopped between the renames of its commit are now put in place; the previous results it replaced are removed`;
  }
  if (!existsSync(dir)) {
    // Not a state the commit leaves, but the previous results are all there is: they go back.
    const old = olds.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs).at(-1)!;
    renameSync(old, dir);
    for (const o of olds) if (o !== old) rmSync(o, { recursive: true, force: true });
    return `${dir}: the previous results, set aside by a writer (pid ${pidOf(old)}) stopped during its commit, are put back`;
  }
  for (const old of olds) rmSync(old, { recursive: true, force: true });
  return `${dir}: the previous results a writer (pid ${olds.map(pidOf).join(', ')}) set aside before it was stopped are removed; the folder holds its new results`;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
