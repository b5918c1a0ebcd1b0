/**
 * runs.json: every finished run's full-precision result, in expansion order. It is what
 * `retrystorm merge` folds shards from, so a
 * merged experiment is computed from exactly the numbers an unsharded one would use (JSON
 * keeps doubles exactly). Wall-clock times are left out: the file is deterministic too.
 */
import type { ExperimentResult, RunFailure } from './experiment.js';
import type { RunSpec, Shard } from './expand.js';
import type { RunResult } from './run-one.js';

export interface SavedRuns {
  format: 'retrystorm-runs/2';
  runs: RunSpec[];
  shard?: Shard;
  interrupted: boolean;
  failures: RunFailure[];
  results: Array<{ index: number } & Omit<RunResult, 'wallS'>>;
}

export function runsJson(x: ExperimentResult): string {
  const saved: SavedRuns = {
    format: 'retrystorm-runs/2',
    runs: x.runs,
    ...(x.shard ? { shard: x.shard } : {}),
    interrupted: x.partial,
    failures: x.failures,
    results: x.results.flatMap((r, index) => {
      if (!r) return [];
      const { wallS: _, ...rest } = r;
      return [{ index, ...rest }];
    }),
  };
  return JSON.stringify(saved) + '\n';
}

export function parseRuns(text: string, where: string): SavedRuns {
  const saved = JSON.parse(text) as SavedRuns;
  if (saved?.format !== 'retrystorm-runs/2' || !Array.isArray(saved.runs) || !Array.isArray(saved.results)) {
    throw new Error(`${where} is not a retrystorm runs.json (format retrystorm-runs/2)`);
  }
  return saved;
}
