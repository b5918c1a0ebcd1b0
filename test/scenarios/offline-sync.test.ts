// The shipped offline-sync scenario (story 000): devices reconnecting at once knock the
// server into a storm it does not leave; a flush spread per device does not.
import { describe, it, expect } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';

const loaded = loadScenarioFile('scenarios/offline-sync.yaml');
const run = (name: string) => {
  const v = loaded.variants.find((x) => x.name === name)!;
  return runOne(v.scenario, name, 0, 1);
};
const RECONNECT_S = 30 * 60;

describe('scenarios/offline-sync.yaml', () => {
  const atOnce = run('at-once');
  const spread = run('spread');

  it('runOne(at-once): the reconnect burst is hundreds of times the load and the server never recovers', () => {
    const s = atOnce.summary.measures;
    expect(s.peakLoadMultiple).toBeGreaterThan(100);
    expect(s.recovered).toBe(0);
    expect(s.successRatio!).toBeLessThan(0.5);
    // After the reconnect almost nothing succeeds: queued attempts time out and are retried.
    const t = atOnce.columns.t_s;
    const after = t.map((x, i) => [x, atOnce.columns.success_ratio[i]] as const).filter(([x]) => x >= RECONNECT_S + 60);
    const good = after.filter(([, r]) => r > 0.5).length;
    expect(good / after.length).toBeLessThan(0.05);
    expect(s.wastedWorkShare).toBeGreaterThan(0.5);
  });

  it('runOne(spread): the same queues flushed over per-device windows stay under the server capacity', () => {
    const s = spread.summary.measures;
    expect(s.peakLoadMultiple).toBeLessThan(2.5);
    expect(s.successRatio!).toBeGreaterThan(0.99);
    expect(s.attemptsPerActionMax).toBe(1);
    // The backlog drains, and the service counts as recovered once the load is back to normal.
    expect(s.recovered).toBe(1);
  });
});
