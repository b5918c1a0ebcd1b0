/**
 * How big an experiment is (variants, sweep points, seeds, runs, buckets of results held in
 * memory) and whether it is within LIMITS. The loader checks a file with it before
 * building a scenario per variant and point; the command line checks it again when
 * `--seeds` overrides the file, so a flag cannot ask for what the file may not.
 *
 * Each message names the limit and the ways to get under it.
 */
import type { Scenario } from './schema.js';
import { AUTO_BUCKETS_AT_MOST, LIMITS, formatCount } from './limits.js';
import type { PathSegment } from './raw-path.js';

export interface SizeProblem {
  /** Where in the file the count comes from (for the loader's position). */
  path: PathSegment[];
  message: string;
}

/** Where the seed count came from: the file, or a flag that overrides it. */
export type SeedsFrom = 'file' | '--seeds';

const seedsText = (seeds: number, from: SeedsFrom) => (from === 'file' ? `${formatCount(seeds)} seed(s)` : `${formatCount(seeds)} seed(s) (--seeds)`);

/** Problems with the shape of the experiment, known before any variant is built: variants, sweep points, runs. */
export function shapeProblems(variants: number, valuesPerParameter: number[], seeds: number, from: SeedsFrom = 'file'): SizeProblem[] {
  const out: SizeProblem[] = [];
  const points = valuesPerParameter.reduce((a, b) => a * b, 1);
  if (from === '--seeds' && seeds > LIMITS.seeds) {
    out.push({ path: ['seeds'], message: `--seeds ${formatCount(seeds)} is above the limit of ${formatCount(LIMITS.seeds)} seeds per variant; use fewer seeds, or run them in batches with --seed (each batch starting where the last ended) and compare the results` });
  }
  if (variants > LIMITS.variants) {
    out.push({ path: ['variants'], message: `${formatCount(variants)} variants is above the limit of ${formatCount(LIMITS.variants)}; compare fewer policies at once, or split them over several scenario files` });
  }
  if (valuesPerParameter.length > 1 && points > LIMITS.sweepPoints) {
    out.push({ path: ['sweep'], message: `${valuesPerParameter.map(formatCount).join(' x ')} = ${formatCount(points)} sweep points is above the limit of ${formatCount(LIMITS.sweepPoints)}; use fewer values or range steps, or split the sweep over several files` });
  }
  if (out.length > 0) return out;
  if (variants * points > LIMITS.variantPoints) {
    out.push({ path: ['variants'], message: `${formatCount(variants)} variants x ${formatCount(points)} sweep points = ${formatCount(variants * points)} scenarios to build, above the limit of ${formatCount(LIMITS.variantPoints)}; use fewer variants or sweep points, or split them over several files` });
    return out;
  }
  const runs = variants * points * seeds;
  if (runs > LIMITS.runs) {
    out.push({ path: ['seeds'], message: `${formatCount(variants)} variant(s) x ${formatCount(points)} sweep point(s) x ${seedsText(seeds, from)} = ${formatCount(runs)} runs, above the limit of ${formatCount(LIMITS.runs)}; use fewer seeds, variants or sweep points, or split the experiment over several files` });
  }
  return out;
}

/** Buckets one run of this scenario holds: its series' length (at most AUTO_BUCKETS_AT_MOST when the bucket is "auto"). */
export function bucketsPerRun(s: Scenario): number {
  const bucket = s.measures.bucket;
  if (bucket === undefined || bucket <= 0) return Math.min(AUTO_BUCKETS_AT_MOST, Math.max(1, Math.ceil(s.horizon)));
  return Math.max(1, Math.ceil(s.horizon / bucket - 1e-9));
}

/** Buckets of results held at once: every run's series (variants x points, each at its own bucket width) x seeds. */
export function bucketsHeld(scenarios: ReadonlyArray<ReadonlyArray<Scenario>>, seeds: number): number {
  let perSeed = 0;
  for (const points of scenarios) for (const s of points) perSeed += bucketsPerRun(s);
  return perSeed * seeds;
}

/** The memory limit on results, once every variant and point is built. */
export function heldProblems(held: number, runs: number, bucketSet: boolean, from: SeedsFrom = 'file'): SizeProblem[] {
  if (held <= LIMITS.bucketsHeld) return [];
  const perRun = held / Math.max(runs, 1);
  return [{
    path: bucketSet ? ['measures', 'bucket'] : ['seeds'],
    message:
      `${formatCount(runs)} runs x ${formatCount(perRun)} buckets${from === '--seeds' ? ' (with --seeds)' : ''} = ${formatCount(held)} buckets of results held in memory, above the limit of ${formatCount(LIMITS.bucketsHeld)} (about 3 kB each while the outputs are written); ` +
      `use a wider measures.bucket, or fewer seeds, variants or sweep points`,
  }];
}
