/**
 * Expectations: checkExpectations on synthetic aggregates (each kind, its boundary, and the
 * `at` filter), and the CLI contract CI relies on: exit 1 naming what failed, exit 0 with
 * PASS lines.
 */
import { runCliProcess, type CliResult } from '../helpers/cli.js';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExpectations } from '../../src/experiment/expectations.js';
import type { PointAggregate, VariantAggregate } from '../../src/experiment/aggregate.js';
import type { RunSummary } from '../../src/measures/measures.js';
import type { Expectation } from '../../src/scenario/schema.js';

const ROOT = resolve(import.meta.dirname, '../..');

// ── checkExpectations on synthetic aggregates ───────────────────────────────

function summary(over: Partial<RunSummary> = {}): RunSummary {
  // Only the fields expectations read matter here; the cast lets RunSummary grow.
  return ({
    baselineRate: 100,
    preFaultSuccessRatio: 1,
    preFaultLoadMultiple: 1,
    lastFaultEndS: 300,
    recovered: true,
    recoveryTimeS: 90,
    perceivedOutageS: 60,
    peakLoadMultiple: 2.5,
    peakRetryShare: 0.4,
    attemptsPerAction: { mean: 1.5, p99: 4, max: 4 },
    wastedWorkS: 10,
    wastedWorkShare: 0.1,
    successRatio: 0.95,
    goodputMean: 95,
    actionsStarted: 1000,
    actionsOk: 950,
    actionsFailed: 50,
    attempts: 1500,
    utilisation: 0.8,
    meanQueueWaitS: 0.01,
    ...over,
  }) as RunSummary;
}

/** A point whose mean measures are `measures`, with per-seed recovery as given. */
function point(index: number, values: Record<string, string | number>, measures: Partial<RunSummary> = {}, recoveredSeeds: boolean[] = [true, true, true]): PointAggregate {
  const runs = recoveredSeeds.length;
  return {
    point: index,
    values,
    runs,
    recoveredFraction: runs ? recoveredSeeds.filter(Boolean).length / runs : 0,
    measures: summary(measures),
    intervals: {},
    perSeed: recoveredSeeds.map((recovered, i) => ({ seed: i + 1, ...summary({ recovered, recoveryTimeS: recovered ? 90 : null }) })),
  };
}

const variant = (name: string, ...points: PointAggregate[]): VariantAggregate => ({ name, points });
const expectation = (e: Omit<Expectation, 'variant'> & { variant?: string }): Expectation => ({ variant: 'v', ...e }) as Expectation;

function check(e: Omit<Expectation, 'variant'>, p: PointAggregate) {
  const results = checkExpectations([expectation(e)], [variant('v', p)]);
  expect(results).toHaveLength(1);
  return results[0];
}

describe('checkExpectations', () => {
  it('gives nothing without expectations', () => {
    expect(checkExpectations(undefined, [variant('v', point(0, {}))])).toEqual([]);
    expect(checkExpectations([], [variant('v', point(0, {}))])).toEqual([]);
  });

  describe('recoveryTime', () => {
    it('passes at or under the bound and says the mean recovery time', () => {
      const r = check({ recoveryTime: { atMost: 120 } }, point(0, {}, { recoveryTimeS: 90 }));
      expect(r).toEqual({ name: 'v: recovery time at most 2m', variant: 'v', at: {}, passed: true, actual: 'recovered after 1m30s (mean)' });
      expect(check({ recoveryTime: { atMost: 90 } }, point(0, {}, { recoveryTimeS: 90 })).passed).toBe(true);
    });

    it('fails over the bound', () => {
      const r = check({ recoveryTime: { atMost: 60 } }, point(0, {}, { recoveryTimeS: 90 }));
      expect(r.passed).toBe(false);
      expect(r.name).toBe('v: recovery time at most 1m');
    });

    it('fails when the recovery time is null (a seed did not recover), whatever the bound, and says how many did not', () => {
      const r = check({ recoveryTime: { atMost: 1e9 } }, point(0, {}, { recoveryTimeS: null, recovered: false }, [true, false, true]));
      expect(r.passed).toBe(false);
      expect(r.actual).toBe('not recovered in 1 of 3 seed(s)');
    });
  });

  describe('recovered', () => {
    it('compares the fraction of seeds that recovered, inclusive', () => {
      const twoOfThree = point(0, {}, {}, [true, false, true]);
      const fail = check({ recovered: { atLeast: 0.9 } }, twoOfThree);
      expect(fail.passed).toBe(false);
      expect(fail.name).toBe('v: recovered in at least 90% of seeds');
      expect(fail.actual).toBe('recovered in 66.7% of 3 seed(s)');
      expect(check({ recovered: { atLeast: 2 / 3 } }, twoOfThree).passed).toBe(true);
      expect(check({ recovered: { atLeast: 1 } }, point(0, {}, {}, [true, true])).passed).toBe(true);
      expect(check({ recovered: { atLeast: 0.01 } }, point(0, {}, {}, [false, false])).passed).toBe(false);
    });
  });

  describe('perceivedOutage', () => {
    it('compares the mean perceived outage with the bound', () => {
      const p = point(0, {}, { perceivedOutageS: 150 });
      expect(check({ perceivedOutage: { atMost: 180 } }, p)).toMatchObject({ passed: true, name: 'v: perceived outage at most 3m', actual: 'perceived outage 2m30s' });
      expect(check({ perceivedOutage: { atMost: 150 } }, p).passed).toBe(true);
      expect(check({ perceivedOutage: { atMost: 120 } }, p).passed).toBe(false);
    });
  });

  describe('peakLoadMultiple', () => {
    it('compares the mean peak load multiple with the bound', () => {
      const p = point(0, {}, { peakLoadMultiple: 2.5 });
      expect(check({ peakLoadMultiple: { atMost: 3 } }, p)).toMatchObject({ passed: true, name: 'v: peak load at most 3x', actual: 'peak load 2.50x' });
      expect(check({ peakLoadMultiple: { atMost: 2.5 } }, p).passed).toBe(true);
      expect(check({ peakLoadMultiple: { atMost: 2.49 } }, p).passed).toBe(false);
    });
  });

  describe('peakRetryShare', () => {
    it('compares the mean peak retry share with the bound', () => {
      const p = point(0, {}, { peakRetryShare: 0.4 });
      expect(check({ peakRetryShare: { atMost: 0.5 } }, p)).toMatchObject({ passed: true, name: 'v: peak retry share at most 50%', actual: 'peak retry share 40%' });
      expect(check({ peakRetryShare: { atMost: 0.3 } }, p).passed).toBe(false);
    });
  });

  describe('successRatio', () => {
    it('compares the mean success ratio with the bound, and fails when no action ended', () => {
      const p = point(0, {}, { successRatio: 0.95 });
      expect(check({ successRatio: { atLeast: 0.9 } }, p)).toMatchObject({ passed: true, name: 'v: success ratio at least 90%', actual: 'success ratio 95%' });
      expect(check({ successRatio: { atLeast: 0.95 } }, p).passed).toBe(true);
      expect(check({ successRatio: { atLeast: 0.99 } }, p).passed).toBe(false);
      const none = check({ successRatio: { atLeast: 0 } }, point(0, {}, { successRatio: null }));
      expect(none).toMatchObject({ passed: false, actual: 'no user action ended' });
    });
  });

  describe('attemptsPerAction', () => {
    it('compares the mean attempts per action (not p99 or max) with the bound', () => {
      const p = point(0, {}, { attemptsPerAction: { mean: 1.5, p99: 4, max: 4 } });
      expect(check({ attemptsPerAction: { atMost: 2 } }, p)).toMatchObject({ passed: true, name: 'v: at most 2 attempts per action', actual: '1.50 attempts per action' });
      expect(check({ attemptsPerAction: { atMost: 1.5 } }, p).passed).toBe(true);
      expect(check({ attemptsPerAction: { atMost: 1.4 } }, p).passed).toBe(false);
    });
  });

  it('gives one result per kind when one expectation has several, in a fixed order', () => {
    const results = checkExpectations(
      [expectation({ attemptsPerAction: { atMost: 1 }, recoveryTime: { atMost: 600 }, successRatio: { atLeast: 0.5 } })],
      [variant('v', point(0, {}))],
    );
    expect(results.map((r) => [r.name, r.passed])).toEqual([
      ['v: recovery time at most 10m', true],
      ['v: success ratio at least 50%', true],
      ['v: at most 1 attempts per action', false],
    ]);
  });

  describe('at', () => {
    const swept = variant(
      'v',
      point(0, { 'faults[0].duration': '1m', load: 0.8 }, { perceivedOutageS: 60 }),
      point(1, { 'faults[0].duration': '1m', load: 1.2 }, { perceivedOutageS: 600 }),
      point(2, { 'faults[0].duration': '10m', load: 0.8 }, { perceivedOutageS: 700 }),
      point(3, { 'faults[0].duration': '10m', load: 1.2 }, { perceivedOutageS: 900 }),
    );

    it('without at, checks every point and names each', () => {
      const results = checkExpectations([expectation({ perceivedOutage: { atMost: 120 } })], [swept]);
      expect(results.map((r) => [r.name, r.passed])).toEqual([
        ['v at faults[0].duration=1m, load=0.8: perceived outage at most 2m', true],
        ['v at faults[0].duration=1m, load=1.2: perceived outage at most 2m', false],
        ['v at faults[0].duration=10m, load=0.8: perceived outage at most 2m', false],
        ['v at faults[0].duration=10m, load=1.2: perceived outage at most 2m', false],
      ]);
      expect(results[1].at).toEqual({ 'faults[0].duration': '1m', load: 1.2 });
    });

    it('selects the points with the given values (one or both parameters, strings and numbers)', () => {
      const at = (a: Record<string, string | number>) =>
        checkExpectations([expectation({ at: a, perceivedOutage: { atMost: 120 } })], [swept]).map((r) => r.at);
      expect(at({ 'faults[0].duration': '1m' })).toEqual([swept.points[0].values, swept.points[1].values]);
      expect(at({ load: 1.2 })).toEqual([swept.points[1].values, swept.points[3].values]);
      expect(at({ 'faults[0].duration': '10m', load: 0.8 })).toEqual([swept.points[2].values]);
      expect(at({ 'faults[0].duration': '30m' })).toEqual([]);
    });

    it('checks only the variant it names', () => {
      const results = checkExpectations(
        [expectation({ variant: 'b', perceivedOutage: { atMost: 120 } })],
        [variant('a', point(0, {}, { perceivedOutageS: 1000 })), variant('b', point(0, {}, { perceivedOutageS: 10 }))],
      );
      expect(results.map((r) => [r.variant, r.passed])).toEqual([['b', true]]);
    });
  });

  it('skips points without runs (partial results) instead of failing them', () => {
    const empty = { ...point(1, { x: 2 }, { recoveryTimeS: null }, []), runs: 0 };
    const results = checkExpectations([expectation({ recoveryTime: { atMost: 600 } })], [variant('v', point(0, { x: 1 }), empty)]);
    expect(results.map((r) => r.at)).toEqual([{ x: 1 }]);
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
  if (!existsSync(join(ROOT, 'dist/src/cli/main.js'))) {
    spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  }
  expect(existsSync(join(ROOT, 'dist/src/cli/main.js')), 'dist/ is missing: run `npm run build`').toBe(true);
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
      '    perceivedOutage: { atMost: 1s }',
      '  - variant: short-queue',
      '    attemptsPerAction: { atMost: 4 }',
    ].join('\n')));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^FAIL {2}retries at faults\[0\]\.duration=1m: perceived outage at most 1s \(perceived outage \d+(m\d+s|m|s)\)$/m);
    // `at` restricts the check to that point: the 10s point of "retries" is not checked.
    expect(r.stdout).not.toMatch(/retries at faults\[0\]\.duration=10s/);
    expect(r.stdout.match(/^PASS {2}short-queue at faults\[0\]\.duration=(10s|1m): at most 4 attempts per action \(\d\.\d\d attempts per action\)$/gm)).toHaveLength(2);
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
    expect(pass).toContainEqual(expect.stringMatching(/^PASS {2}retries at faults\[0\]\.duration=10s: success ratio at least 0% \(success ratio [\d.]+%\)$/));
    expect(r.stdout).not.toMatch(/^FAIL/m);
    expect(r.stderr).not.toMatch(/failed/);
  });
});

describe('checkExpectations: rounding slack', () => {
  it('passes a bound equal to the mean of identical values that floating point lands just below', () => {
    const mean = (0.95 + 0.95 + 0.95) / 3;
    expect(mean).toBeLessThan(0.95); // 0.9499999999999998
    const p = point(0, {}, { successRatio: mean });
    expect(check({ successRatio: { atLeast: 0.95 } }, p)).toMatchObject({ passed: true });
    expect(check({ successRatio: { atLeast: 0.951 } }, p)).toMatchObject({ passed: false });
  });
});
