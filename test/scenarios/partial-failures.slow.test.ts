// scenarios/partial-failures.yaml: which partial failures the service rides out, which turn
// into outages, and what answers them (docs/incidents.md). Seed 1 of each variant, on the
// first 30 minutes of the shipped 40: every fault is at 10 to 20 minutes (the crash's warm-up
// ends at 16), and what is asserted after them (recovery within a minute, back to full slots
// at 17) is over well before 30. A shorter horizon is exactly the start of the shipped run
// (nothing in the model looks at the horizon before it is reached); whole-run ratios cover
// the healthy tail less, which only makes the success ratios asserted here harder to reach.
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { loadScenario } from '../../src/scenario/load.js';
import { runOne, type RunResult } from '../../src/experiment/run-one.js';

const FILE = 'scenarios/partial-failures.yaml';
const loaded = loadScenario(readFileSync(FILE, 'utf8').replace(/^horizon: 40m$/m, 'horizon: 30m'), FILE);
const cache = new Map<string, RunResult>();
const run = (name: string): RunResult => {
  if (!cache.has(name)) cache.set(name, runOne(loaded.variants.find((v) => v.name === name)!.scenario, name, 0, 1));
  return cache.get(name)!;
};
const MINUTE = 60;
/** 30 s buckets: the bucket holding minute m. */
const at = (m: number) => (m * MINUTE) / 30;

describe('scenarios/partial-failures.yaml', () => {
  it('has one variant per partial failure, and a healthy baseline that never fails', () => {
    expect(loaded.variants.map((v) => v.name)).toEqual([
      'healthy', 'bad-deploy', 'bad-deploy-retry-breaker', 'flaky-db', 'slow-server', 'slow-db', 'hanging-db', 'hanging-db-deadline', 'resets', 'crash-cold-start',
      'gc-pause', 'surge', 'slow-server-shed',
    ]);
    expect(run('healthy').summary.measures.successRatio).toBe(1);
  });

  it('a bad deploy failing 30% of requests is hidden by the retries; a retry breaker at that threshold shows it to users', () => {
    const hidden = run('bad-deploy').summary.measures;
    expect(hidden.successRatio!).toBeGreaterThan(0.98);
    expect(hidden.perceivedOutageS).toBe(0);
    const shown = run('bad-deploy-retry-breaker').summary.measures;
    expect(shown.perceivedOutageS).toBeGreaterThanOrEqual(5 * MINUTE);
    expect(shown.successRatio!).toBeLessThan(hidden.successRatio!);
    expect(shown.recovered).toBe(1);
  });

  it('a database that hangs one call in ten takes every slot; a 300 ms execution deadline keeps the service up', () => {
    const hanging = run('hanging-db').summary.measures;
    expect(hanging.perceivedOutageS).toBeGreaterThanOrEqual(8 * MINUTE);
    const cut = run('hanging-db-deadline');
    expect(cut.summary.measures.successRatio!).toBeGreaterThan(0.99);
    expect(cut.summary.measures.perceivedOutageS).toBe(0);
    expect(cut.columns.fail_execution_deadline.reduce((a, b) => a + b, 0)).toBeGreaterThan(5000);
  });

  it('a slow database or server is an outage while it lasts, and the service comes back when it ends', () => {
    for (const name of ['slow-db', 'slow-server']) {
      const slow = run(name).summary.measures;
      expect(slow.perceivedOutageS, name).toBeGreaterThanOrEqual(8 * MINUTE);
      expect(slow.recovered, name).toBe(1);
      expect(slow.recoveryTimeS!, name).toBeLessThanOrEqual(MINUTE);
    }
    // Shedding detected retries while the queue is slow keeps a little more of the first tries.
    expect(run('slow-server-shed').summary.measures.successRatio!).toBeGreaterThan(run('slow-server').summary.measures.successRatio!);
    expect(run('slow-server-shed').columns.fail_shed.reduce((a, b) => a + b, 0)).toBeGreaterThan(1000);
  });

  it('resets, before the server sees the request or after its work, are repeated by the partner\'s proxy and retried by the app: users barely notice', () => {
    const r = run('resets');
    expect(r.summary.measures.successRatio!).toBeGreaterThan(0.99);
    const resets = r.columns.fail_reset.slice(at(10), at(20)).reduce((a, b) => a + b, 0);
    const attempts = r.columns.attempts.slice(at(10), at(20)).reduce((a, b) => a + b, 0);
    // 1 - 0.8 x 0.9 = 28% of attempts reset.
    expect(resets / attempts).toBeGreaterThan(0.26);
    expect(resets / attempts).toBeLessThan(0.3);
  });

  it('a crash loses what the instance held, and it comes back with a quarter of its slots, warming up', () => {
    const r = run('crash-cold-start');
    expect(r.columns.lost_attempts[at(10)]).toBeGreaterThan(0);
    expect(r.columns.lost_attempts.reduce((a, b) => a + b, 0)).toBe(r.columns.lost_attempts[at(10)]);
    expect(r.columns.slots[at(10) + 1]).toBe(10); // one instance down
    expect(r.columns.slots[at(11)]).toBeLessThan(14); // back with 2 or 3 of its 10 slots, then more
    expect(r.columns.slots[at(17)]).toBe(20);
    expect(r.summary.measures.recovered).toBe(1);
  });

  it('a 15 s pause is a blip, and a surge three times the load is an outage only while it lasts', () => {
    expect(run('gc-pause').summary.measures.perceivedOutageS).toBeLessThanOrEqual(MINUTE);
    const surge = run('surge').summary.measures;
    expect(surge.perceivedOutageS).toBeGreaterThanOrEqual(5 * MINUTE);
    expect(surge.recovered).toBe(1);
  });
});
