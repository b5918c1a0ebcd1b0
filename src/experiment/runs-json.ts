/**
 * runs.json: every finished run's full-precision result, in expansion order. It is what
 * `retrystorm merge` folds shards from, so a merged experiment is computed from exactly the
 * numbers an unsharded one would use (JSON keeps doubles exactly). Wall-clock times are left
 * out: the file is deterministic too.
 *
 * It carries what merge verifies: the build of retrystorm that made it (its version and a
 * digest of its code, tool-build.ts), a digest of the scenario as written, and a digest of
 * its own results, so an edited number, a result moved or copied, or shards of another
 * scenario or build are refused rather than folded in silently. A run recovered from the
 * journal of a killed run is marked so (`"fromJournal": true` in its result).
 *
 * It records the files the scenario read besides itself (`inputs`: each path as written and the
 * sha256 of its text; absent when it read none), whose copies sit in the folder's inputs/: merge
 * and run --reuse load the scenario from the folder with them, and refuse folders whose inputs
 * differ. The digest covers the list, so a copy and its record cannot be swapped together.
 */
import { createHash } from 'node:crypto';
import type { ExperimentResult, RunFailure } from './experiment.js';
import type { RunSpec, Shard } from './expand.js';
import type { RunResult } from './run-one.js';
import { toolBuild } from './tool-build.js';
import type { AutoSeeds } from '../scenario/seed-count.js';
import type { SearchOutcome } from './search/run-search.js';
import type { InputRecord } from '../scenario/input-files.js';

export const RUNS_FORMAT = 'retrystorm-runs/4';

export interface SavedRuns {
  format: typeof RUNS_FORMAT;
  /** The retrystorm build that simulated the runs: its version and a digest of its code (tool-build.ts). */
  tool: string;
  /** sha256 of the scenario file as written (scenario.yaml beside it). */
  scenarioDigest: string;
  /** sha256 of `results` as serialized (and of `search`, when there is one): any edit to a result changes it. */
  digest: string;
  runs: RunSpec[];
  /** The adaptive plan the runs followed (`seeds: auto`); absent for a fixed number of seeds. */
  seedsAuto?: AutoSeeds;
  shard?: Shard;
  interrupted: boolean;
  failures: RunFailure[];
  /**
   * The outcome of the scenario's search (its `search:` block), in the folder that ran it: the
   * unsharded run, or shard 1 of a split (its batches depend on each other, so one shard runs
   * it whole). Merge takes it from there. What was searched is the scenario's, not kept here.
   */
  search?: SavedSearch;
  /** The files the scenario read besides itself (input-files.ts), by path as written; absent when none. */
  inputs?: InputRecord[];
  results: SavedResult[];
}

export type SavedSearch = Omit<SearchOutcome, 'search'>;

/**
 * A finished run as runs.json keeps it. `fromJournal`: the run was recovered from the journal
 * of a run that did not finish (runs-journal.ts), not written by a run that did; it rides with
 * the result (into the next runs.json, through `--reuse` and the next journal) so the mark is
 * never lost, and is covered by the digest like the rest of the result.
 */
export type SavedResult = { index: number } & Omit<RunResult, 'wallS'> & { fromJournal?: true };

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

export function scenarioDigest(source: string): string {
  return sha256(source);
}

export function contentDigest(results: SavedRuns['results'], search?: SavedSearch, inputs?: readonly InputRecord[]): string {
  return digestOf(JSON.stringify(results), search, inputs);
}

/** The digest of the results' text, and of the search's outcome and the inputs' records after it when there are any. */
const digestOf = (resultsText: string, search: SavedSearch | undefined, inputs?: readonly InputRecord[]) =>
  sha256(`${resultsText}${search ? `\n${JSON.stringify(search)}` : ''}${inputs?.length ? `\ninputs ${JSON.stringify(inputs)}` : ''}`);

/** The records of a scenario's inputs as runs.json and the journal keep them (path and digest, not the text). */
export function inputRecords(inputs: ReadonlyArray<InputRecord>): InputRecord[] {
  return inputs.map(({ path, sha256 }) => ({ path, sha256 }));
}

/** The fields of runs.json before its results, in file order (`results` is written last). */
type SavedHead = Omit<SavedRuns, 'results'>;

export function runsJson(x: ExperimentResult): string {
  const results = x.results.flatMap((r, index) => {
    if (!r) return [];
    const { wallS: _, ...rest } = r;
    return [{ index, ...rest }];
  });
  // The results are most of the file (tens of MB for the flagship) and the digest is of their
  // text, so they are serialized once and spliced in as the last field: the same bytes as
  // JSON.stringify of the whole object, without a second pass over them.
  const resultsText = JSON.stringify(results);
  const search: SavedSearch | undefined = x.search && { seed: x.search.seed, variants: x.search.variants };
  const inputs = inputRecords(x.loaded.inputs);
  const head: SavedHead = {
    format: RUNS_FORMAT,
    tool: toolBuild(),
    scenarioDigest: scenarioDigest(x.loaded.source),
    digest: digestOf(resultsText, search, inputs),
    runs: x.runs,
    ...(x.seeding ? { seedsAuto: autoOf(x.seeding) } : {}),
    ...(x.shard ? { shard: x.shard } : {}),
    interrupted: x.partial,
    failures: x.failures,
    ...(search ? { search } : {}),
    ...(inputs.length ? { inputs } : {}),
  };
  return `${JSON.stringify(head).slice(0, -1)},"results":${resultsText}}\n`;
}

/** The plan's settings, as the scenario gave them. */
const autoOf = (s: { start: number; max: number; budget: number | null }): AutoSeeds => ({ start: s.start, max: s.max, ...(s.budget !== null ? { budget: s.budget } : {}) });

/** Parses runs.json; throws with `where` when it is not one (merge checks the contents). */
export function parseRuns(text: string, where: string): SavedRuns {
  let saved: SavedRuns;
  try {
    saved = JSON.parse(text) as SavedRuns;
  } catch (e) {
    throw new Error(`${where} is not valid JSON (${(e as Error).message}): truncated or edited?`);
  }
  if (saved?.format !== RUNS_FORMAT || !Array.isArray(saved.runs) || !Array.isArray(saved.results) || !Array.isArray(saved.failures)) {
    const older = typeof saved?.format === 'string' && saved.format.startsWith('retrystorm-runs/');
    throw new Error(`${where} is not a retrystorm runs.json of format ${RUNS_FORMAT}${older ? ` (it is ${saved.format}: made by another version of retrystorm; rerun what wrote it with this one)` : ''}`);
  }
  return saved;
}
