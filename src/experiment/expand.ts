/**
 * Expands a loaded scenario into the list of runs to do: every variant times every seed,
 * in one fixed order. The order is part of the output contract: results are always laid
 * out in it, whatever order the runs finish in.
 */
import type { LoadedScenario } from '../scenario/load.js';

export interface RunSpec {
  /** Position in the expansion; results are stored at this index. */
  index: number;
  variant: string;
  seed: number;
}

export interface ExpandOptions {
  /** Overrides the scenario's base seed. */
  seed?: number;
  /** Overrides the scenario's number of seeds. */
  seeds?: number;
}

export function expandRuns(loaded: LoadedScenario, opts: ExpandOptions = {}): RunSpec[] {
  const baseSeed = opts.seed ?? loaded.base.seed;
  const seeds = opts.seeds ?? loaded.base.seeds;
  const runs: RunSpec[] = [];
  for (const v of loaded.variants) {
    for (let i = 0; i < seeds; i++) runs.push({ index: runs.length, variant: v.name, seed: baseSeed + i });
  }
  return runs;
}
