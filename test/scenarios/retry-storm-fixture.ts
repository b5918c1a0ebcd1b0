// Runs of the flagship scenario (scenarios/retry-storm.yaml) by variant, outage and seed,
// shared by its two test files (split so vitest runs them on both cores).
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne, type RunResult } from '../../src/experiment/run-one.js';
import type { MeasureValues } from '../../src/measures/registry.js';

export const flagship = loadScenarioFile('scenarios/retry-storm.yaml');
export const OUTAGE = 'faults[0].duration';

/** The sweep point index of an outage length as written ("12m"). */
export function pointOf(outage: string): number {
  const point = flagship.points.findIndex((p) => p.values[OUTAGE] === outage);
  if (point < 0) throw new Error(`the flagship sweeps no outage of ${outage}`);
  return point;
}

const done = new Map<string, RunResult>();

/** One run of `variant` after an outage of `outage` (a swept value, e.g. "12m"); each is simulated once per test file. */
export function runResult(variant: string, outage: string, seed = 1): RunResult {
  const key = `${variant}/${outage}/${seed}`;
  const cached = done.get(key);
  if (cached) return cached;
  const point = pointOf(outage);
  const v = flagship.variants.find((x) => x.name === variant);
  if (!v) throw new Error(`the flagship has no variant ${variant}`);
  const r = runOne(v.points[point], variant, point, seed);
  done.set(key, r);
  return r;
}

/** The measures of one run of `variant` after an outage of `outage`. */
export function run(variant: string, outage: string, seed = 1): MeasureValues {
  return runResult(variant, outage, seed).summary.measures;
}

export const SEEDS = [1, 2, 3];
export const MINUTE = 60;
