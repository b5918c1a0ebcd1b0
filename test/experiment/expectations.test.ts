/**
 * Expectations on any measure of the registry: what the scenario's keys resolve to (and the
 * positioned problems when they name no measure, or a bound in the wrong unit), how they are
 * checked against aggregates (each bound, its boundary, scopes, the `at` filter), and the CLI
 * contract CI relies on: exit 1 naming what failed, exit 0 with PASS lines.
 */
import { ensureBuilt, runCliProcess, type CliResult } from '../helpers/cli.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExpectations, resolveMeasureReferences } from '../../src/experiment/expectations.js';
import type { Aggregate, PointAggregate, VariantAggregate } from '../../src/experiment/aggregate.js';
import { MEASURES } from '../../src/measures/registry.js';
import { loadScenario } from '../../src/scenario/load.js';
import { measureReferenceProblems } from '../helpers/positioned-problems.js';

const ROOT = resolve(import.meta.dirname, '../..');

const BASE = `
name: e
horizon: 10m
clients:
  app: { arrivals: { kind: constant, rate: 10/s }, identity: { route: login } }
  bots: { role: attacker, arrivals: { kind: constant, rate: 10/s }, identity: { route: signup } }
server: { slots: 10, serviceTime: { kind: constant, value: 10ms } }
faults: [{ kind: dependency-down, at: 2m, duration: 1m }]
sweep: [{ parameter: "faults[0].duration", values: [1m, 10s] }]
variants: { v: {}, w: {} }
`;

/** The expectations of BASE plus these lines, resolved. */
const resolveWith = (lines: string) => resolveMeasureReferences(loadScenario(BASE + 'expectations:\n' + lines, 'e.yaml'), MEASURES).expectations;

/** The positioned problems of BASE plus these lines, as "file:line:col path: message". */
const problems = (lines: string, extra = '') => measureReferenceProblems(BASE + extra + 'expectations:\n' + lines, 'e.yaml');

describe('resolveMeasureReferences', () => {
  it('resolves any measure of the registry, durations in seconds, with atMost and atLeast', () => {
    const [e] = resolveWith('  - { variant: v, recoveryTimeS: { atMost: 10m }, recovered: { atLeast: 0.95 }, peakLoadMultiple: { atMost: 3 } }');
    expect(e.bounds.map((b) => [b.measure.key, b.kind, b.limit])).toEqual([
      ['recoveryTimeS', 'atMost', 600],
      ['recovered', 'atLeast', 0.95],
      ['peakLoadMultiple', 'atMost', 3],
    ]);
    expect(e.scope).toEqual({});
  });

  it('refuses what names no measure, with its position and a suggestion', () => {
    // BASE takes 10 lines, "expectations:" the 11th.
    expect(problems('  - { variant: v, recoveryTime: { atMost: 10m } }')).toEqual([
      'e.yaml:12:19 expectations[0].recoveryTime: "recoveryTime" is not a measure (did you mean "recoveryTimeS"?); the measures are listed in docs/measures.md',
    ]);
  });

  it('refuses a bound in the wrong unit: a bare number for seconds, a share outside [0, 1], a duration for a count', () => {
    expect(problems('  - { variant: v, perceivedOutageS: { atMost: 90 } }')).toEqual([
      'e.yaml:12:39 expectations[0].perceivedOutageS.atMost: perceivedOutageS is in seconds: write the bound with a unit, e.g. "90s" (= 1m30s)',
    ]);
    expect(problems('  - { variant: v, successRatio: { atLeast: 95 } }')[0]).toMatch(/expectations\[0\]\.successRatio\.atLeast: successRatio is a share between 0 and 1 \(0\.95 for 95%\)$/);
    expect(problems('  - { variant: v, retryWaves: { atMost: 2m } }')[0]).toMatch(/expected a number for retryWaves$/);
  });

  it('scopes a check to a population or a route, and refuses a measure that is not kept per population', () => {
    const [p, r] = resolveWith(['  - { variant: v, population: app, successRatio: { atLeast: 0.99 } }', '  - { variant: v, route: login, perceivedOutageS: { atMost: 1m } }'].join('\n'));
    expect(p.scope).toEqual({ population: 'app' });
    expect(r.scope).toEqual({ route: 'login' });
    expect(problems('  - { variant: v, population: app, recoveryTimeS: { atMost: 1m } }')[0]).toMatch(/recoveryTimeS is not measured per population \(those are: perceivedOutageS, attemptsPerAction, successRatio, /);
    expect(problems('  - { variant: v, population: ap, successRatio: { atLeast: 1 } }')[0]).toMatch(/variant "v" has no population named "ap" \(did you mean "app"\?\)/);
    expect(problems('  - { variant: v, route: logn, successRatio: { atLeast: 1 } }')[0]).toMatch(/no population of variant "v" calls route "logn" \(did you mean "login"\?\)/);
  });

  it('asks for at least one measure', () => {
    expect(problems('  - { variant: v }')[0]).toMatch(/an expectation names a measure with atMost, atLeast or worsenBy/);
  });

  it('checks the ranking\'s objectives too', () => {
    expect(problems('  - { variant: v, recovered: { atLeast: 1 } }', 'compare: { objectives: [recovered, peakLoad, baselineRate] }\n')).toEqual([
      'e.yaml:11:36 compare.objectives[1]: "peakLoad" is not a measure (did you mean "peakLoadMultiple"?); the measures are listed in docs/measures.md',
      'e.yaml:11:46 compare.objectives[2]: baselineRate has no better direction (it is context, not an objective)',
    ]);
  });
});

// ── checkExpectations on synthetic aggregates ───────────────────────────────

const agg = (value: number | null): Aggregate => ({ value, lo: null, hi: null });

/** A point whose means are `values` (everything else unknown), and per-population means. */
function point(index: number, at: Record<string, string | number>, values: Record<string, number | null>, runs = 3, app: Record<string, number | null> = {}): PointAggregate {
  return {
    point: index,
    values: at,
    runs,
    measures: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, agg(v)])),
    attemptsHistogram: [],
    populations: [{ name: 'app', measures: Object.fromEntries(Object.entries(app).map(([k, v]) => [k, agg(v)])) }],
    routes: [{ name: 'login', measures: Object.fromEntries(Object.entries(app).map(([k, v]) => [k, agg(v)])) }],
    quotas: [],
    perSeed: [],
    faults: [],
  };
}

const variant = (name: string, ...points: PointAggregate[]): VariantAggregate => ({ name, points });

function check(line: string, p: PointAggregate) {
  const results = checkExpectations(resolveWith(line), [variant('v', p)]);
  expect(results).toHaveLength(1);
  return results[0];
}

describe('checkExpectations', () => {
  it('gives nothing without expectations', () => {
    expect(checkExpectations([], [variant('v', point(0, {}, {}))])).toEqual([]);
  });

  it('treats bounds as inclusive, and says the check and the value in the measure\'s unit', () => {
    const p = point(0, {}, { recoveryTimeS: 90 });
    expect(check('  - { variant: v, recoveryTimeS: { atMost: 2m } }', p)).toMatchObject({
      name: 'v: recovery time at most 2m', check: 'recovery time at most 2m', passed: true, actual: '1m30s (mean)', value: 90, limit: 120, measure: 'recoveryTimeS', kind: 'atMost',
    });
    expect(check('  - { variant: v, recoveryTimeS: { atMost: 90s } }', p).passed).toBe(true);
    expect(check('  - { variant: v, recoveryTimeS: { atMost: 89s } }', p).passed).toBe(false);
    expect(check('  - { variant: v, recoveryTimeS: { atLeast: 90s } }', p).passed).toBe(true);
  });

  it('fails a measure with no value, and for recovery time says how many seeds recovered', () => {
    const r = check('  - { variant: v, recoveryTimeS: { atMost: 1h } }', point(0, {}, { recoveryTimeS: null, recovered: 2 / 3 }));
    expect(r).toMatchObject({ passed: false, value: null, actual: 'not every seed recovered (2 of 3 did)' });
  });

  it('reads a fraction of seeds for recovered', () => {
    expect(check('  - { variant: v, recovered: { atLeast: 0.95 } }', point(0, {}, { recovered: 2 / 3 }))).toMatchObject({ passed: false, actual: '2 of 3 seeds' });
  });

  it('reads a population\'s or a route\'s users when the expectation names one', () => {
    const p = point(0, {}, { successRatio: 0.5 }, 3, { successRatio: 0.995 });
    expect(check('  - { variant: v, population: app, successRatio: { atLeast: 0.99 } }', p)).toMatchObject({ passed: true, check: 'success (population app) at least 99%' });
    expect(check('  - { variant: v, route: login, successRatio: { atLeast: 0.99 } }', p)).toMatchObject({ passed: true, check: 'success (route login) at least 99%' });
    expect(check('  - { variant: v, successRatio: { atLeast: 0.99 } }', p).passed).toBe(false);
  });

  it('gives one result per bound, in the order written', () => {
    const results = checkExpectations(resolveWith('  - { variant: v, attemptsPerAction: { atMost: 1 }, recoveryTimeS: { atMost: 10m }, successRatio: { atLeast: 0.5 } }'), [
      variant('v', point(0, {}, { attemptsPerAction: 1.5, recoveryTimeS: 90, successRatio: 0.95 })),
    ]);
    expect(results.map((r) => [r.check, r.passed])).toEqual([
      ['attempts per action at most 1', false],
      ['recovery time at most 10m', true],
      ['success at least 50%', true],
    ]);
  });

  describe('at', () => {
    const swept = variant('v', point(0, { 'faults[0].duration': '1m' }, { perceivedOutageS: 60 }), point(1, { 'faults[0].duration': '10s' }, { perceivedOutageS: 600 }));

    it('without at, checks every point and names each', () => {
      const results = checkExpectations(resolveWith('  - { variant: v, perceivedOutageS: { atMost: 2m } }'), [swept]);
      expect(results.map((r) => [r.name, r.passed])).toEqual([
        ['v at faults[0].duration=1m: perceived outage at most 2m', true],
        ['v at faults[0].duration=10s: perceived outage at most 2m', false],
      ]);
    });

    it('selects the points with the given values, compared by meaning (60s is 1m)', () => {
      const results = checkExpectations(resolveWith('  - { variant: v, at: { "faults[0].duration": 60s }, perceivedOutageS: { atMost: 2m } }'), [swept]);
      expect(results.map((r) => r.at)).toEqual([{ 'faults[0].duration': '1m' }]);
    });

    it('checks only the variant it names', () => {
      const results = checkExpectations(resolveWith('  - { variant: w, perceivedOutageS: { atMost: 2m } }'), [variant('v', point(0, {}, { perceivedOutageS: 1000 })), variant('w', point(0, {}, { perceivedOutageS: 10 }))]);
      expect(results.map((r) => [r.variant, r.passed])).toEqual([['w', true]]);
    });
  });

  it('skips points without runs (partial results) instead of failing them', () => {
    const results = checkExpectations(resolveWith('  - { variant: v, recoveryTimeS: { atMost: 10m } }'), [variant('v', point(0, { x: 1 }, { recoveryTimeS: 1 }), point(1, { x: 2 }, { recoveryTimeS: null }, 0))]);
    expect(results.map((r) => r.at)).toEqual([{ x: 1 }]);
  });

  it('passes a bound equal to the mean of identical values that floating point lands just below', () => {
    const mean = (0.95 + 0.95 + 0.95) / 3;
    expect(mean).toBeLessThan(0.95); // 0.9499999999999998
    expect(check('  - { variant: v, successRatio: { atLeast: 0.95 } }', point(0, {}, { successRatio: mean })).passed).toBe(true);
    expect(check('  - { variant: v, successRatio: { atLeast: 0.951 } }', point(0, {}, { successRatio: mean })).passed).toBe(false);
  });
});

// ── As a process: exit codes and what is printed ────────────────────────────

const scenario = (expectations: string) => `
name: expect
horizon: 4m
seeds: 1
measures: { bucket: 10s, hold: 30s }
clients:
  app:
    arrivals: { kind: constant, rate: 80/s }
    retry: { maxAttempts: 4, timeout: 1s, backoff: { kind: exponential, base: 500ms, max: 4s, jitter: full } }
server:
  slots: 10
  serviceTime: { kind: exponential, mean: 100ms }
faults:
  - { kind: dependency-down, at: 90s, duration: 10s }
sweep:
  - parameter: faults[0].duration
    values: [10s, 1m]
variants:
  retries: {}
  short-queue:
    overlay: { server: { queue: 20 } }
expectations:
${expectations}`;

let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'rs-expect-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function run(name: string, text: string): Promise<CliResult> {
  writeFileSync(join(dir, name), text);
  return runCliProcess(dir, ['run', name, '--workers', '1', '--out', name + '.out']);
}

describe.concurrent('retrystorm run with expectations', () => {
  it('exits 1 when one fails, naming the variant, the point and what was measured', async () => {
    // A one-minute dependency outage cannot be perceived as less than a second.
    const r = await run('failing.yaml', scenario([
      '  - variant: retries',
      "    at: { 'faults[0].duration': 1m }", // in a flow map the key needs quotes ([ ] are flow indicators)
      '    perceivedOutageS: { atMost: 1s }',
      '  - variant: short-queue',
      '    attemptsPerAction: { atMost: 4 }',
    ].join('\n')));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}retries at faults\[0\]\.duration=1m: perceived outage at most 1s \(\d+(m\d+s|m|s)\)$/m);
    // `at` restricts the check to that point: the 10s point of "retries" is not checked.
    expect(r.stdout).not.toMatch(/retries at faults\[0\]\.duration=10s/);
    expect(r.stdout.match(/^PASS {2}short-queue at faults\[0\]\.duration=(10s|1m): attempts per action at most 4 \([\d.]+\)$/gm)).toHaveLength(2);
    expect(r.stderr).toMatch(/^1 expectation\(s\) failed: retries at faults\[0\]\.duration=1m: perceived outage at most 1s$/m);
    expect(r.stderr).not.toMatch(/PARTIAL|FAILED RUN|internal error/);
  });

  it('exits 0 when all pass and prints a PASS line for each check at each point', async () => {
    const r = await run('passing.yaml', scenario([
      '  - variant: short-queue',
      '    attemptsPerAction: { atMost: 4 }',
      '    peakRetryShare: { atMost: 1 }',
      '  - variant: retries',
      '    at:',
      '      faults[0].duration: 10s',
      '    successRatio: { atLeast: 0 }',
    ].join('\n')));
    expect(r.code, r.stderr).toBe(0);
    const pass = r.stdout.match(/^PASS {2}.*$/gm) ?? [];
    expect(pass).toHaveLength(5);
    expect(pass.filter((l) => l.startsWith('PASS  short-queue at faults[0].duration='))).toHaveLength(4);
    expect(pass).toContainEqual(expect.stringMatching(/^PASS {2}retries at faults\[0\]\.duration=10s: success at least 0% \([\d.]+%\)$/));
    expect(r.stdout).not.toMatch(/^FAIL/m);
    expect(r.stderr).not.toMatch(/failed/);
  });
});

