/**
 * The journal of an experiment in progress (runs.ndjson in the staging folder beside
 * `--out`): a first line with the run plan, then one line per run as it finishes, and, with
 * `seeds: auto`, a line with the runs each later look adds (`{"more": [...]}`) before them. Appending
 * a line is all a finished run costs, and a process killed at any moment leaves whole lines
 * behind (a torn last line is ignored), so `retrystorm merge` can fold what finished into a
 * partial experiment. Read back as the same SavedRuns a runs.json gives.
 */
import type { RunSpec, Shard } from './expand.js';
import type { RunResult } from './run-one.js';
import { toolBuild } from './tool-build.js';
import type { AutoSeeds } from '../scenario/seed-count.js';
import { contentDigest, scenarioDigest, type SavedRuns } from './runs-json.js';

export const JOURNAL_FILE = 'runs.ndjson';
const FORMAT = 'retrystorm-journal/1';

export interface JournalHeader {
  runs: RunSpec[];
  /** The adaptive plan the runs follow (`seeds: auto`). */
  seedsAuto?: AutoSeeds;
  shard?: Shard;
  /** The scenario as written (only its digest is kept in the journal). */
  source: string;
}

export function journalHeader(h: JournalHeader): string {
  return JSON.stringify({ format: FORMAT, tool: toolBuild(), scenarioDigest: scenarioDigest(h.source), runs: h.runs, ...(h.seedsAuto ? { seedsAuto: h.seedsAuto } : {}), ...(h.shard ? { shard: h.shard } : {}) }) + '\n';
}

/** The runs a later look of `seeds: auto` adds to the plan. */
export function journalMoreRuns(runs: RunSpec[]): string {
  return JSON.stringify({ more: runs }) + '\n';
}

export function journalLine(index: number, result: RunResult): string {
  const { wallS: _, ...rest } = result;
  return JSON.stringify({ index, ...rest }) + '\n';
}

/** A journal as the runs of an interrupted experiment; throws with `where` when it is not one. */
export function parseJournal(text: string, where: string): SavedRuns {
  const lines = text.split('\n');
  let header: { format?: string; tool?: string; scenarioDigest?: string; runs?: RunSpec[]; seedsAuto?: AutoSeeds; shard?: Shard };
  try {
    header = JSON.parse(lines[0]);
  } catch {
    throw new Error(`${where} is not a retrystorm journal (its first line is not the run plan)`);
  }
  if (header?.format !== FORMAT || !Array.isArray(header.runs) || typeof header.tool !== 'string' || typeof header.scenarioDigest !== 'string') {
    throw new Error(`${where} is not a retrystorm journal (format ${FORMAT})`);
  }
  const results: SavedRuns['results'] = [];
  const runs = [...header.runs];
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    let entry: SavedRuns['results'][number] | { more: RunSpec[] };
    try {
      entry = JSON.parse(line);
    } catch {
      // The last line of a killed writer can be torn: the runs before it are whole.
      break;
    }
    if ('more' in entry && Array.isArray(entry.more)) runs.push(...entry.more);
    else results.push(entry as SavedRuns['results'][number]);
  }
  return {
    format: 'retrystorm-runs/3',
    tool: header.tool,
    scenarioDigest: header.scenarioDigest,
    digest: contentDigest(results),
    runs,
    ...(header.seedsAuto ? { seedsAuto: header.seedsAuto } : {}),
    ...(header.shard ? { shard: header.shard } : {}),
    interrupted: true,
    failures: [],
    results,
  };
}
