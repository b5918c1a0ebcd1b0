/**
 * What an experiment will cost before it starts: simulation time and the memory its
 * results take, so that someone about to spend an hour of a cluster (or a laptop's memory)
 * reads it in the first second and can stop. The figures are floors and orders of
 * magnitude, said as such: every user action is at least one attempt, and retries add more.
 */
import type { LoadedScenario } from '../scenario/load.js';
import { populationRates } from '../scenario/arrival-profile.js';
import { bucketWidth } from '../model/simulate.js';
import { expandRuns, inShard, type ExpandOptions, type Shard } from './expand.js';

/**
 * Simulated attempts per second on one core, from the engine benchmark (docs/benchmarks.md:
 * 1.3 to 1.7 million on the reference model, storm and stable).
 */
export const ATTEMPTS_PER_S = 1.5e6;
/** Bytes per bucket of results while the outputs are written (measured: 160,000 buckets, 560 MB peak). */
export const BYTES_PER_BUCKET = 3_000;

export interface Estimate {
  /** Runs this process does. */
  runs: number;
  /** Expected user actions over those runs (mean rate x horizon). */
  actions: number;
  /** Seconds of one core, at least (one attempt per action). */
  cpuS: number;
  /** Buckets of results held in memory. */
  buckets: number;
  /** Bytes those results take while the outputs are written, about. */
  resultBytes: number;
}

export function estimate(loaded: LoadedScenario, opts: ExpandOptions & { shard?: Shard } = {}): Estimate {
  // Per (variant, point): actions and buckets of one run; each run reads its own.
  const per = new Map<string, { actions: number; buckets: number }>();
  for (const v of loaded.variants) {
    v.points.forEach((s, point) => {
      let actions = 0;
      for (const rate of populationRates(s.clients, s.horizon).values()) actions += rate * s.horizon;
      per.set(`${point}\u0000${v.name}`, { actions, buckets: Math.max(1, Math.ceil(s.horizon / bucketWidth(s) - 1e-9)) });
    });
  }
  let runs = 0, actions = 0, buckets = 0;
  for (const r of expandRuns(loaded, opts)) {
    if (!inShard(r, opts.shard)) continue;
    const p = per.get(`${r.point}\u0000${r.variant}`)!;
    runs++;
    actions += p.actions;
    buckets += p.buckets;
  }
  return { runs, actions, cpuS: actions / ATTEMPTS_PER_S, buckets, resultBytes: buckets * BYTES_PER_BUCKET };
}
