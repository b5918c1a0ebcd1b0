/**
 * Merges the output folders of the shards of one experiment (`run --shard i/n`) into the
 * result the unsharded run would have given, byte for byte: the shards' full-precision
 * run results (runs.json) are put back at their indices and folded by the same functions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../scenario/load.js';
import { parseRuns, type SavedRuns } from './runs-json.js';
import { assemble, type ExperimentResult, type RunFailure } from './experiment.js';
import type { RunResult } from './run-one.js';

/** Folders that are not the shards of one experiment: bad input, said in one line (exit 2). */
export class MergeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MergeError';
  }
}

function read(dir: string, name: string): string {
  try {
    return readFileSync(join(dir, name), 'utf8');
  } catch {
    throw new MergeError(`${join(dir, name)}: missing; merge takes folders written by "retrystorm run --shard i/n --out DIR"`);
  }
}

export function mergeDirs(dirs: string[]): ExperimentResult {
  if (dirs.length === 0) throw new MergeError('merge needs at least one results folder');
  const source = read(dirs[0], 'scenario.yaml');
  const shards: SavedRuns[] = dirs.map((d) => {
    if (read(d, 'scenario.yaml') !== source) throw new MergeError(`${d} ran a different scenario file than ${dirs[0]}: only shards of one experiment can be merged`);
    try {
      return parseRuns(read(d, 'runs.json'), join(d, 'runs.json'));
    } catch (e) {
      throw new MergeError((e as Error).message);
    }
  });
  checkShardSet(dirs, shards);
  const runs = shards[0].runs;
  const plan = JSON.stringify(runs);
  for (const [i, s] of shards.entries()) {
    if (JSON.stringify(s.runs) !== plan) throw new MergeError(`${dirs[i]} planned other runs than ${dirs[0]} (different --seed or --seeds?)`);
  }
  const results: Array<RunResult | undefined> = new Array(runs.length);
  const failures: RunFailure[] = [];
  for (const s of shards) {
    for (const r of s.results) {
      const { index, ...rest } = r;
      results[index] = { ...rest, wallS: 0 };
    }
    failures.push(...s.failures);
  }
  failures.sort((a, b) => a.index - b.index);
  const loaded = loadScenario(source, join(dirs[0], 'scenario.yaml'));
  return assemble(loaded, runs, results, failures, shards.some((s) => s.interrupted));
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
  if (missing.length) throw new MergeError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${n}`).join(', ')} missing: give the folders of every shard`);
}
