// The shipped offline-sync scenario, for offline-sync-first-40m.slow.test.ts (the first 40
// minutes of at-once) and offline-sync.slow.test.ts (the full hour): the runs and what both assert.
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { loadScenario, type LoadedScenario } from '../../src/scenario/load.js';
import { runOne, type RunResult } from '../../src/experiment/run-one.js';

export const FILE = 'scenarios/offline-sync.yaml';
export const RECONNECT_S = 30 * 60;

export const run = (loaded: LoadedScenario, name: string): RunResult => {
  const v = loaded.variants.find((x) => x.name === name);
  if (!v) throw new Error(`no variant ${name}`);
  return runOne(v.scenario, name, 0, 1);
};

/** The shipped scenario cut at `horizon` (a YAML duration). */
export const cutAt = (horizon: string) => loadScenario(readFileSync(FILE, 'utf8').replace(/^horizon: 1h$/m, `horizon: ${horizon}`), FILE);

/** What at-once does after the reconnect: asserted on the cut and on the full hour. */
export function expectAtOnceStorm(atOnce: RunResult): void {
  const s = atOnce.summary.measures;
  expect(s.peakLoadMultiple).toBeGreaterThan(100);
  expect(s.recovered).toBe(0);
  expect(s.successRatio!).toBeLessThan(0.5);
  // After the reconnect almost nothing succeeds: queued attempts time out and are retried.
  const t = atOnce.columns.t_s;
  const after = t.map((x, i) => [x, atOnce.columns.success_ratio[i]] as const).filter(([x]) => x >= RECONNECT_S + 60);
  expect(after.length).toBeGreaterThan(0);
  const good = after.filter(([, r]) => r > 0.5).length;
  expect(good / after.length).toBeLessThan(0.05);
  expect(s.wastedWorkShare).toBeGreaterThan(0.5);
}
