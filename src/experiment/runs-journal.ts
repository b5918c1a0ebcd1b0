/**
 * The journal of an experiment in progress (runs.ndjson in the staging folder beside
 * `--out`): a first line with the run plan, then one line per run as it finishes, and, with
 * `seeds: auto`, a line with the runs each later look adds (`{"more": [...]}`) before them. Appending
 * a line is all a finished run costs, and a process killed at any moment leaves whole lines
 * behind (a torn last line is ignored), so `retrystorm merge` can fold what finished into a
 * partial experiment. Read back as the same SavedRuns a runs.json gives.
 *
 * Each line after the plan carries a digest chained on the line before it (`"chain"`, its
 * first field): sha256 of the previous digest, a newline, and the record's own JSON text. The
 * first record chains on the digest of the plan's line, which names the scenario, the plan and
 * the shard, so a record cannot be edited, dropped from the middle, reordered, or moved in from
 * another journal without the chain breaking at it: `merge` and `run --reuse` refuse the
 * journal then, naming its line. (runs.json has its own digest; before this, a hand-edited
 * journal merged cleanly and `--reuse` turned it into a complete result with a fresh digest.)
 * Only the last line may be torn by a kill: it is whole when its newline was written.
 * The plan's line also records the files the scenario read (`inputs`, as runs.json does; the
 * copies are in the staging folder's inputs/), so a killed run's folder merges from anywhere.
 */
import { createHash } from 'node:crypto';
import type { RunSpec, Shard } from './expand.js';
import type { RunResult } from './run-one.js';
import { toolBuild } from './tool-build.js';
import type { AutoSeeds } from '../scenario/seed-count.js';
import { contentDigest, inputRecords, RUNS_FORMAT, scenarioDigest, type SavedRuns } from './runs-json.js';
import type { InputRecord } from '../scenario/input-files.js';

export const JOURNAL_FILE = 'runs.ndjson';
const FORMAT = 'retrystorm-journal/2';

export interface JournalHeader {
  runs: RunSpec[];
  /** The adaptive plan the runs follow (`seeds: auto`). */
  seedsAuto?: AutoSeeds;
  shard?: Shard;
  /** The scenario as written (only its digest is kept in the journal). */
  source: string;
  /** The files the scenario read besides itself (their records are kept in the plan's line; the copies beside it, in inputs/). */
  inputs?: readonly InputRecord[];
}

const sha256 = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

/** What every record line starts with: its chained digest, then the record's own fields. */
const CHAIN_HEAD = '{"chain":"';
const CHAIN_LENGTH = 'sha256:'.length + 64;

/** The digest a record chains to its predecessor's: sha256(previous digest, newline, the record's JSON text). */
const link = (previous: string, body: string) => sha256(`${previous}\n${body}`);

/** A record's line: its chained digest as the first field, then the record's own JSON text. */
const chained = (digest: string, body: string) => `${CHAIN_HEAD}${digest}",${body.slice(1)}\n`;

/**
 * Writes a journal's lines, each chained on the last one written. The line is made first
 * and the chain moves on only once it is written (`wrote`): a line a full disk refused is
 * not what the next one chains on.
 */
export class JournalWriter {
  /** The plan's line, the journal's first. */
  readonly header: string;
  private last: string;

  constructor(h: JournalHeader) {
    const inputs = inputRecords(h.inputs ?? []);
    this.header = JSON.stringify({ format: FORMAT, tool: toolBuild(), scenarioDigest: scenarioDigest(h.source), runs: h.runs, ...(h.seedsAuto ? { seedsAuto: h.seedsAuto } : {}), ...(h.shard ? { shard: h.shard } : {}), ...(inputs.length ? { inputs } : {}) }) + '\n';
    this.last = sha256(this.header.slice(0, -1));
  }

  /** The line for the runs a later look of `seeds: auto` adds to the plan. */
  more(runs: RunSpec[]): string {
    return this.line(JSON.stringify({ more: runs }));
  }

  /** The line for one finished run (its position in the plan, and its result; not its wall-clock time). */
  record(index: number, result: RunResult): string {
    const { wallS: _, ...rest } = result;
    return this.line(JSON.stringify({ index, ...rest }));
  }

  /** The line was written: the next one chains on it. */
  wrote(line: string): void {
    this.last = line.slice(CHAIN_HEAD.length, CHAIN_HEAD.length + CHAIN_LENGTH);
  }

  private line(body: string): string {
    return chained(link(this.last, body), body);
  }
}

/** A journal as the runs of an interrupted experiment; throws with `where` (and the line) when it is not one, or its chain breaks. */
export function parseJournal(text: string, where: string): SavedRuns {
  const lines = text.split('\n');
  let header: { format?: string; tool?: string; scenarioDigest?: string; runs?: RunSpec[]; seedsAuto?: AutoSeeds; shard?: Shard; inputs?: InputRecord[] };
  try {
    header = JSON.parse(lines[0]);
  } catch {
    throw new Error(`${where} is not a retrystorm journal (its first line is not the run plan)`);
  }
  if (header?.format !== FORMAT || !Array.isArray(header.runs) || typeof header.tool !== 'string' || typeof header.scenarioDigest !== 'string') {
    const older = typeof header?.format === 'string' && header.format.startsWith('retrystorm-journal/');
    throw new Error(`${where} is not a retrystorm journal of format ${FORMAT}${older ? ` (it is ${header.format}: made by another version of retrystorm; rerun what wrote it with this one)` : ''}`);
  }
  const results: SavedRuns['results'] = [];
  const runs = [...header.runs];
  let last = sha256(lines[0]);
  // The text after the last newline is a line whose newline was never written: a kill tore it
  // (or it is empty). It counts only if its chain holds, i.e. the record is whole.
  const lastLine = lines.length - 1;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (i === lastLine && line === '') break;
    const body = line.startsWith(CHAIN_HEAD) && line[CHAIN_HEAD.length + CHAIN_LENGTH] === '"' && line[CHAIN_HEAD.length + CHAIN_LENGTH + 1] === ',' ? `{${line.slice(CHAIN_HEAD.length + CHAIN_LENGTH + 2)}` : undefined;
    const digest = line.slice(CHAIN_HEAD.length, CHAIN_HEAD.length + CHAIN_LENGTH);
    const holds = body !== undefined && digest === link(last, body);
    let entry: unknown;
    if (holds) {
      try {
        entry = JSON.parse(body);
      } catch {
        entry = undefined;
      }
    }
    if (!holds || typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      if (i === lastLine) break; // torn by a kill: the records before it are whole
      throw new Error(`${where}:${i + 1}: the journal's chain of digests breaks at this record: it was edited, moved from another journal, or a record before it was removed or reordered; these runs cannot be trusted, rerun what wrote the folder`);
    }
    last = digest;
    if ('more' in entry) {
      if (!Array.isArray(entry.more)) throw new Error(`${where}:${i + 1}: "more" is not a list of runs`);
      runs.push(...(entry.more as RunSpec[]));
    } else {
      // Marked: a run recovered from a journal says so in every runs.json it reaches.
      results.push({ ...(entry as SavedRuns['results'][number]), fromJournal: true });
    }
  }
  return {
    format: RUNS_FORMAT,
    tool: header.tool,
    scenarioDigest: header.scenarioDigest,
    digest: contentDigest(results, undefined, header.inputs),
    runs,
    ...(header.seedsAuto ? { seedsAuto: header.seedsAuto } : {}),
    ...(header.shard ? { shard: header.shard } : {}),
    ...(header.inputs ? { inputs: header.inputs } : {}),
    interrupted: true,
    failures: [],
    results,
  };
}
