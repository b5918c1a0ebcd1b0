// Runs of the flagship scenario (scenarios/retry-storm.yaml) by variant, outage and seed,
// shared by its test files: the full 4-hour runs (retry-storm*.slow.test.ts, split so vitest
// runs them on both cores) and the first 90 minutes of the same runs (retry-storm.test.ts).
import { readFileSync } from 'node:fs';
import { loadScenario, type LoadedScenario } from '../../src/scenario/load.js';
import { runOne, type RunResult } from '../../src/experiment/run-one.js';
import type { MeasureValues } from '../../src/measures/registry.js';

const FILE = 'scenarios/retry-storm.yaml';
const SOURCE = readFileSync(FILE, 'utf8');
export const flagship = loadScenario(SOURCE, FILE);
export const OUTAGE = 'faults[0].duration';

/**
 * The flagship with another horizon. Nothing in the model looks at the horizon before it is
 * reached (the buckets are 1 minute wide either way), so a shorter run is exactly the first
 * part of the full one: the same events, the same per-minute series (checked by
 * retry-storm.test.ts); only measures over the whole run (perceived outage, wasted share,
 * success ratio) cover less time.
 */
export function flagshipUntil(horizon: string): LoadedScenario {
  const text = SOURCE.replace(/^horizon: 4h$/m, `horizon: ${horizon}`);
  if (text === SOURCE) throw new Error(`${FILE} no longer says "horizon: 4h"`);
  return loadScenario(text, FILE);
}

/** The sweep point index of an outage length as written ("12m"). */
export function pointOf(outage: string, scenario: LoadedScenario = flagship): number {
  const point = scenario.points.findIndex((p) => p.values[OUTAGE] === outage);
  if (point < 0) throw new Error(`the flagship sweeps no outage of ${outage}`);
  return point;
}

const done = new WeakMap<LoadedScenario, Map<string, RunResult>>();

/** The result of one run of `variant` after an outage of `outage` (a swept value, e.g. "12m"); each is simulated once per test file. */
export function runResult(variant: string, outage: string, seed = 1, scenario: LoadedScenario = flagship): RunResult {
  let cache = done.get(scenario);
  if (!cache) done.set(scenario, (cache = new Map()));
  const key = `${variant}/${outage}/${seed}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const point = pointOf(outage, scenario);
  const v = scenario.variants.find((x) => x.name === variant);
  if (!v) throw new Error(`the flagship has no variant ${variant}`);
  const r = runOne(v.points[point], variant, point, seed);
  cache.set(key, r);
  return r;
}

/** The measures of one run of `variant` after an outage of `outage` (a swept value, e.g. "12m"). */
export function run(variant: string, outage: string, seed = 1, scenario: LoadedScenario = flagship): MeasureValues {
  return runResult(variant, outage, seed, scenario).summary.measures;
}

export const SEEDS = [1, 2, 3];
export const MINUTE = 60;
