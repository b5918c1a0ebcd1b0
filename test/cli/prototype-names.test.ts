// Names that every JavaScript object inherits (constructor, toString, valueOf,
// hasOwnProperty) are ordinary names in a scenario: as populations, layers, routes,
// dependencies, tiers and variants, in a sweep path, an expectation and the ranking, a
// scenario using them validates, runs end to end and keeps every name in its results.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureBuilt } from '../helpers/cli.js';

const SCENARIO = `name: constructor
horizon: 3m
seeds: 2
measures: { bucket: 10s, warmup: 20s, hold: 20s }
clients:
  constructor:
    arrivals: { kind: constant, rate: 40/s }
    identity: { route: toString, tier: valueOf }
    layers:
      toString: { maxAttempts: 2, timeout: 1s }
      valueOf: { maxAttempts: 2, timeout: 500ms }
  hasOwnProperty:
    arrivals: { kind: constant, rate: 10/s }
    identity: { route: valueOf }
server:
  slots: 8
  serviceTime: { kind: exponential, mean: 50ms }
  routes:
    toString: { calls: [constructor] }
    valueOf: {}
  dependencies:
    constructor:
      quota: { limit: 100000, window: 1m }
      guard: { reserve: { toString: 0.5 }, bulkheads: { valueOf: 0.2 } }
  stages:
    - kind: rate-limit
      key: client
      routes: [valueOf]
      tiers:
        valueOf: { algorithm: token-bucket, rate: 100/s, burst: 100 }
        toString: { algorithm: token-bucket, rate: 100/s, burst: 100 }
faults:
  - { kind: dependency-down, at: 1m, duration: 20s }
sweep:
  - { parameter: clients.constructor.arrivals.rate, values: [20/s, 40/s] }
variants:
  constructor: {}
  toString:
    overlay: { clients: { constructor: { layers: { toString: { maxAttempts: 1 } } } } }
  hasOwnProperty:
    overlay: { server: { queue: 20 } }
  valueOf:
    overlay: { clients: { hasOwnProperty: null } }
expectations:
  - variant: toString
    route: toString
    at: { clients.constructor.arrivals.rate: 20/s }
    successRatio: { atLeast: 0.1 }
  - variant: constructor
    recovered: { atLeast: 0 }
compare:
  baseline: valueOf
  at: { clients.constructor.arrivals.rate: 40/s }
`;

let dir: string;
beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-proto-names-'));
  writeFileSync(join(dir, 'names.yaml'), SCENARIO);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('names that collide with Object.prototype members', () => {
  it('run a scenario end to end and keep every name in the results', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/retrystorm.js'), 'run', 'names.yaml', '--out', 'out', '--quiet'], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/internal error|FAILED RUN/);
    const summary = JSON.parse(readFileSync(join(dir, 'out', 'summary.json'), 'utf8'));
    expect(summary.runsFinished).toBe(16);
    expect(summary.variants.map((v: { name: string }) => v.name)).toEqual(['constructor', 'toString', 'hasOwnProperty', 'valueOf']);
    for (const v of summary.variants) {
      expect(v.points.map((p: { values: object }) => p.values)).toEqual([{ 'clients.constructor.arrivals.rate': '20/s' }, { 'clients.constructor.arrivals.rate': '40/s' }]);
      // Both routes are served in every variant but valueOf, which removed the population that calls valueOf.
      const routes = v.points[0].routes as Array<{ name: string; measures: Record<string, { value: number }> }>;
      expect(routes.map((x) => x.name).sort()).toEqual(v.name === 'valueOf' ? ['toString'] : ['toString', 'valueOf']);
      expect(routes.find((x) => x.name === 'toString')!.measures.actionsOk.value).toBeGreaterThan(1000);
      expect(v.points[0].quotas.map((q: { name: string }) => q.name)).toEqual(['constructor']);
    }
    // The variant without retries at its inner layer makes fewer attempts per action than the base.
    const attempts = (name: string) => summary.variants.find((v: { name: string }) => v.name === name).points[0].measures.attemptsPerAction.value;
    expect(attempts('toString')).toBeLessThan(attempts('constructor'));
    expect(summary.expectations.map((e: { variant: string; passed: boolean }) => [e.variant, e.passed])).toEqual([['toString', true], ['constructor', true], ['constructor', true]]);
    expect(summary.ranking.baseline).toBe('valueOf');
    expect(existsSync(join(dir, 'out', 'report.html'))).toBe(true);
  });
});
