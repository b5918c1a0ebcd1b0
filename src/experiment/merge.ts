/**
 * Merges the output folders of the shards of one experiment (`run --shard i/n`) into the
 * result the unsharded run would have given, byte for byte: the shards' full-precision
 * run results (runs.json) are put back at their indices and folded by the same functions.
 *
 * Nothing is folded in on trust: each folder's runs must come from this version and this
 * scenario, match their own digest, sit at indices of the plan that belong to their shard,
 * appear once, and (unless the shard says it was interrupted) be all of its share. A folder
 * that holds only the journal of a killed run (runs.ndjson) merges as an interrupted shard.
 * The outcome of the scenario's search comes from the one folder that ran it (shard 1).
 *
 * The scenario is loaded from the first folder alone, whatever the working folder: its
 * scenario.yaml, and the files it read besides itself from the folder's inputs/ copies, as
 * runs.json records them (input-files.ts). Folders whose inputs differ (a trace edited between
 * two shards) are refused.
 */
import { existsSync } from 'node:fs';
import { readBounded } from '../scenario/bounded-read.js';
import { RESULT_FILE_BYTES, resultFileProblem } from './result-file.js';
import { join } from 'node:path';
import { loadScenario, type LoadedScenario } from '../scenario/load.js';
import type { InputRecord } from '../scenario/input-files.js';
import { contentDigest, parseRuns, scenarioDigest, type SavedRuns } from './runs-json.js';
import { JOURNAL_FILE, parseJournal } from './runs-journal.js';
import { inShard, type RunSpec } from './expand.js';
import { toolBuild } from './tool-build.js';
import { assemble, type ExperimentResult, type RunFailure } from './experiment.js';
import type { RunResult } from './run-one.js';
import { IncompleteSplitError, MergeError, OtherBuildError } from './merge-error.js';
import type { SearchOutcome } from './search/run-search.js';
import { withSearch } from './search/with-search.js';

/** Its error is defined in a module that imports nothing (for the command line) and re-exported here, beside what throws it. */
export { MergeError };

function read(dir: string, name: string): string {
  const r = readBounded(join(dir, name), RESULT_FILE_BYTES);
  if (r.ok) return r.text;
  const written = 'a results folder is one written by "retrystorm run --out DIR" (a shard\'s, by run --shard i/n --out DIR)';
  if (r.detail === 'ENOTDIR') throw new MergeError(`${dir} is a file, not a folder: ${written}`);
  if (r.why === 'missing') throw new MergeError(`${join(dir, name)}: missing; ${written}`);
  throw new MergeError(resultFileProblem(join(dir, name), r));
}

/** The file a folder's runs are read from: its runs.json, or the journal a killed run left in its staging folder. */
function runsFile(dir: string): string {
  const journal = join(dir, JOURNAL_FILE);
  return !existsSync(join(dir, 'runs.json')) && existsSync(journal) ? journal : join(dir, 'runs.json');
}

/** A folder's runs, from runsFile. */
function readRuns(dir: string): SavedRuns {
  const where = runsFile(dir);
  const useJournal = where === join(dir, JOURNAL_FILE);
  try {
    return useJournal ? parseJournal(read(dir, JOURNAL_FILE), where) : parseRuns(read(dir, 'runs.json'), where);
  } catch (e) {
    if (e instanceof MergeError) throw e;
    throw new MergeError((e as Error).message);
  }
}

export function mergeDirs(dirs: string[]): ExperimentResult {
  if (dirs.length === 0) throw new MergeError('merge needs at least one results folder');
  const source = read(dirs[0], 'scenario.yaml');
  const shards: SavedRuns[] = dirs.map((d) => {
    if (read(d, 'scenario.yaml') !== source) throw new MergeError(`${d} ran a different scenario file than ${dirs[0]}: only shards of one experiment can be merged`);
    const saved = readRuns(d);
    verifyOrigin(d, saved, source);
    return saved;
  });
  checkShardSet(dirs, shards);
  for (const [i, s] of shards.entries()) checkSameInputs(dirs[i], s, dirs[0], shards[0]);
  const runs = shards[0].runs;
  const plan = JSON.stringify(runs);
  for (const [i, s] of shards.entries()) {
    if (JSON.stringify(s.runs) !== plan) throw new MergeError(`${dirs[i]} planned other runs than ${dirs[0]} (different --seed or --seeds?)`);
  }
  const results: Array<RunResult | undefined> = new Array(runs.length);
  const from: string[] = new Array(runs.length);
  const failures: RunFailure[] = [];
  for (const [i, s] of shards.entries()) {
    for (const r of s.results) {
      checkResult(dirs[i], s, r, runs);
      if (results[r.index]) throw new MergeError(`${dirs[i]}: run ${r.index} (${describeRun(runs[r.index])}) is also in ${from[r.index]}: a run appears once in one experiment`);
      const { index, ...rest } = r;
      results[index] = { ...rest, wallS: 0 };
      from[index] = dirs[i];
    }
    for (const f of s.failures) checkFailure(dirs[i], s, f, runs);
    failures.push(...s.failures);
    if (!s.interrupted) checkComplete(dirs[i], s, results, runs);
  }
  failures.sort((a, b) => a.index - b.index);
  for (const [k, f] of failures.entries()) {
    // (Shards own disjoint runs, so a second failure or a result at the same index is in the same folder.)
    if (results[f.index] || failures[k + 1]?.index === f.index) {
      throw new MergeError(`run ${f.index} (${describeRun(runs[f.index])}) is listed as failed and also as ${results[f.index] ? `finished in ${from[f.index]}` : 'failed again'}: a run appears once in one experiment; rerun what wrote the folder`);
    }
  }
  const loaded = scenarioOfFolder(dirs[0], source, shards[0]);
  const x = assemble(loaded, runs, results, failures, shards.some((s) => s.interrupted), undefined, undefined, shards[0].seedsAuto);
  const search = searchOf(dirs, shards, loaded);
  if (search) withSearch(x, search);
  return x;
}

/** A results folder's scenario, loaded from the folder alone: its scenario.yaml, and its inputs from inputs/ as its runs record them. */
function scenarioOfFolder(dir: string, source: string, saved: SavedRuns): LoadedScenario {
  return loadScenario(source, join(dir, 'scenario.yaml'), { stored: { dir, files: saved.inputs ?? [] } });
}

/**
 * A results folder's scenario, loaded again from the folder alone (for `diff`'s scenario diff):
 * its runs are read for the inputs they record, and checked as merge checks them.
 */
export function loadFolderScenario(dir: string): LoadedScenario {
  const source = read(dir, 'scenario.yaml');
  const saved = readRuns(dir);
  verifyOrigin(dir, saved, source);
  return scenarioOfFolder(dir, source, saved);
}

/** A list of input records as runs.json keeps them: each a path and a sha256 in hex. */
function checkInputRecords(dir: string, s: SavedRuns): void {
  const ok = s.inputs === undefined || (Array.isArray(s.inputs) && s.inputs.every((r) => typeof r === 'object' && r !== null && typeof r.path === 'string' && typeof r.sha256 === 'string' && /^[0-9a-f]{64}$/.test(r.sha256)));
  if (!ok) throw new MergeError(`${runsFile(dir)}: its "inputs" is not a list of { path, sha256 }: edited after the run?`);
}

/** Shards of one experiment read the same files: the same paths, with the same digests. */
function checkSameInputs(dir: string, s: SavedRuns, first: string, f: SavedRuns): void {
  const byPath = (list: InputRecord[] | undefined) => new Map((list ?? []).map((r) => [r.path, r.sha256]));
  const mine = byPath(s.inputs), theirs = byPath(f.inputs);
  for (const path of new Set([...mine.keys(), ...theirs.keys()])) {
    const a = mine.get(path), b = theirs.get(path);
    if (a === b) continue;
    const said = (d: string | undefined) => (d === undefined ? 'not read' : `sha256 ${d.slice(0, 12)}…`);
    throw new MergeError(`${dir} ran on other input files than ${first}: ${path} is ${said(a)} there and ${said(b)} in ${first} (edited between the runs?): only shards of one experiment, run on the same files, can be merged; rerun the shards on one version of the file`);
  }
}

/**
 * The outcome of the scenario's search, from the one folder that ran it (the unsharded run,
 * or shard 1 of a split): what the unsharded run would add to the merged result. None when
 * the search did not run or finish (an interrupted shard 1).
 */
function searchOf(dirs: string[], shards: SavedRuns[], loaded: LoadedScenario): SearchOutcome | undefined {
  const held = shards.flatMap((s, i) => (s.search === undefined ? [] : [{ dir: dirs[i], saved: s.search }]));
  if (held.length === 0) return undefined;
  const [{ dir, saved }] = held;
  const file = join(dir, 'runs.json');
  if (held.length > 1) throw new MergeError(`${file} and ${join(held[1].dir, 'runs.json')} both hold the outcome of the search: one folder of a split runs it (shard 1); rerun what wrote them`);
  if (!loaded.search) throw new MergeError(`${file} holds the outcome of a search, but its scenario has no search: block: edited after the run?`);
  const names = loaded.variants.map((v) => v.name);
  const ok = typeof saved === 'object' && saved !== null && Number.isInteger(saved.seed) && Array.isArray(saved.variants) &&
    saved.variants.length === names.length && saved.variants.every((v, k) => v?.variant === names[k] && typeof v.result === 'object' && v.result !== null && Array.isArray(v.result.tried));
  if (!ok) throw new MergeError(`${file}: the outcome of the search is not one of this scenario's variants (${names.join(', ')}): edited after the run?`);
  return { search: loaded.search, seed: saved.seed, variants: saved.variants };
}

const describeRun = (r: RunSpec) => `variant ${r.variant}, point ${r.point}, seed ${r.seed}`;

/** Made by this build, from this scenario, and not edited since. */
function verifyOrigin(dir: string, s: SavedRuns, source: string): void {
  const file = runsFile(dir);
  if (s.tool !== toolBuild()) throw new OtherBuildError(file, String(s.tool), toolBuild());
  if (s.scenarioDigest !== scenarioDigest(source)) throw new MergeError(`${file} was made from another scenario than ${join(dir, 'scenario.yaml')} (their digests differ): was the scenario edited after the run?`);
  checkInputRecords(dir, s);
  if (s.digest !== contentDigest(s.results, s.search, s.inputs)) throw new MergeError(`${file}: its results do not match its digest: they were edited after they were written; rerun what wrote the folder`);
}

/** A result must sit at an index of the plan that belongs to its shard, and be the run planned there. */
function checkResult(dir: string, s: SavedRuns, r: SavedRuns['results'][number], runs: RunSpec[]): void {
  checkPlace(dir, s, r, runs, 'result', 'run');
  const ok = typeof r.summary === 'object' && r.summary !== null && typeof r.summary.measures === 'object' && typeof r.columns === 'object' && Array.isArray(r.populations) && Array.isArray(r.faults) && Array.isArray(r.actions);
  if (!ok) throw new MergeError(`${runsFile(dir)}: result ${r.index} is incomplete (it lacks its summary, columns, populations, faults or actions)`);
}

/**
 * A failure must name a run of the plan that belongs to its shard, as a result must. The
 * content digest covers the results only, so this is what keeps an edited or corrupted
 * failures list from reaching the outputs.
 */
function checkFailure(dir: string, s: SavedRuns, f: SavedRuns['failures'][number], runs: RunSpec[]): void {
  checkPlace(dir, s, f, runs, 'failure', 'failed run');
}

/** An entry of runs.json (a result, or a failure) names a planned run, of its own shard, by index and by what runs there. */
function checkPlace(dir: string, s: SavedRuns, e: { index: number; variant: string; point: number; seed: number }, runs: RunSpec[], noun: string, runNoun: string): void {
  const file = runsFile(dir);
  if (typeof e !== 'object' || e === null || !Number.isInteger(e.index) || e.index < 0 || e.index >= runs.length) {
    throw new MergeError(`${file}: a ${noun} has the index ${JSON.stringify((e as { index?: unknown })?.index)}, not one of the ${runs.length} planned runs (0 to ${runs.length - 1})`);
  }
  const planned = runs[e.index];
  if (e.variant !== planned.variant || e.point !== planned.point || e.seed !== planned.seed) {
    throw new MergeError(`${file}: ${noun} ${e.index} is for variant ${String(e.variant)}, point ${String(e.point)}, seed ${String(e.seed)}, but the plan has ${describeRun(planned)} there`);
  }
  if (!inShard(planned, s.shard)) throw new MergeError(`${file}: ${runNoun} ${e.index} (${describeRun(planned)}) belongs to another shard than ${s.shard?.index}/${s.shard?.count}`);
}

/** A shard that was not interrupted holds every run of its share, finished or failed. */
function checkComplete(dir: string, s: SavedRuns, results: Array<RunResult | undefined>, runs: RunSpec[]): void {
  const failed = new Set(s.failures.map((f) => f.index));
  const missing = runs.filter((r) => inShard(r, s.shard) && !results[r.index] && !failed.has(r.index));
  if (missing.length) {
    throw new MergeError(`${join(dir, 'runs.json')} says it finished, yet ${missing.length} of its runs are missing (first: run ${missing[0].index}, ${describeRun(missing[0])}): truncated or edited; rerun what wrote the folder`);
  }
}

/**
 * The folders must be one whole experiment: a single unsharded folder, or shards 1..n of
 * the same n, each exactly once. A missing shard would otherwise pass for an interruption.
 */
function checkShardSet(dirs: string[], shards: SavedRuns[]): void {
  const counts = new Set(shards.map((s) => s.shard?.count ?? 1));
  if (counts.size > 1) throw new MergeError(`the folders come from different splits (--shard i/${[...counts].join(', i/')}): merge the shards of one split`);
  const n = [...counts][0];
  const seen = new Map<number, string>();
  shards.forEach((s, i) => {
    const index = s.shard?.index ?? 1;
    if (seen.has(index)) throw new MergeError(`${dirs[i]} and ${seen.get(index)} are both shard ${index}/${n}`);
    seen.set(index, dirs[i]);
  });
  const missing = Array.from({ length: n }, (_, k) => k + 1).filter((k) => !seen.has(k));
  if (missing.length) throw new IncompleteSplitError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${n}`).join(', ')} missing: give the folders of every shard`);
}
