/**
 * Expands a loaded scenario into the list of runs to do: every variant, at every sweep
 * point, for every seed, in one fixed order. The order is part of the output contract:
 * results are always laid out in it, whatever order the runs finish in, and a shard is
 * the runs whose index falls to it.
 */
import type { LoadedScenario } from '../scenario/load.js';
import { startSeeds } from '../scenario/seed-count.js';

export interface RunSpec {
  /** Position in the expansion; results are stored at this index. */
  index: number;
  variant: string;
  /** Sweep point index (0 without a sweep). */
  point: number;
  seed: number;
}

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

export interface ExpandOptions {
  /** Overrides the scenario's base seed. */
  seed?: number;
  /** Overrides the scenario's number of seeds. */
  seeds?: number;
}

export function expandRuns(loaded: LoadedScenario, opts: ExpandOptions = {}): RunSpec[] {
  const baseSeed = opts.seed ?? loaded.base.seed;
  const seeds = opts.seeds ?? startSeeds(loaded.base.seeds);
  const runs: RunSpec[] = [];
  for (const v of loaded.variants) {
    for (const p of loaded.points) {
      for (let i = 0; i < seeds; i++) runs.push({ index: runs.length, variant: v.name, point: p.index, seed: baseSeed + i });
    }
  }
  return runs;
}

/** The runs that belong to a shard: every count-th run, so each shard gets a fair mix. */
export function inShard(run: RunSpec, shard: Shard | undefined): boolean {
  return !shard || run.index % shard.count === shard.index - 1;
}

/** Parses "--shard i/n". */
export function parseShard(text: string): Shard | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) return `--shard takes i/n, e.g. 2/4 (got "${text}")`;
  const index = Number(m[1]), count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) return `--shard ${text}: i must be between 1 and n`;
  return { index, count };
}
