// Runs of the flagship scenario (scenarios/retry-storm.yaml) by variant, outage and seed,
// shared by its two test files (split so vitest runs them on both cores).
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne, type RunResult } from '../../src/experiment/run-one.js';
import type { RunSummary } from '../../src/measures/measures.js';

export const flagship = loadScenarioFile('scenarios/retry-storm.yaml');
export const OUTAGE = 'faults[0].duration';

/** The summary of one run of `variant` after an outage of `outage` (a swept value, e.g. "12m"). */
export function run(variant: string, outage: string, seed = 1): RunSummary {
  return runResult(variant, outage, seed).summary;
}

/** The whole result of one run (summary, series, the actions taken). */
export function runResult(variant: string, outage: string, seed = 1): RunResult {
  const point = flagship.points.findIndex((p) => p.values[OUTAGE] === outage);
  if (point < 0) throw new Error(`the flagship sweeps no outage of ${outage}`);
  const v = flagship.variants.find((x) => x.name === variant);
  if (!v) throw new Error(`the flagship has no variant ${variant}`);
  return runOne(v.points[point], variant, point, seed);
}

export const SEEDS = [1, 2, 3];
export const MINUTE = 60;
