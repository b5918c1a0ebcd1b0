/**
 * Sweeps in the loader: points from values and from ranges (with units), the cartesian
 * product of two parameters in row-major order, the `load` parameter, and the problems a
 * sweep or an expectation can have, each reported at its line:col.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario, type LoadedScenario } from '../../src/scenario/load.js';
import { ScenarioError, formatProblem, type Problem } from '../../src/scenario/problems.js';
import { rangeValues, sweepPoints, parsePath, sameValue } from '../../src/scenario/sweep.js';
import { expandRuns } from '../../src/experiment/expand.js';

// Lines are numbered: the problem positions below depend on them.
const BASE = [
  'name: sw', //                                                          1
  'horizon: 10m', //                                                      2
  'clients:', //                                                          3
  '  app:', //                                                            4
  '    arrivals: { kind: constant, rate: 100/s }', //                     5
  '    retry: { maxAttempts: 3, timeout: 1s }', //                        6
  'server:', //                                                           7
  '  slots: 20', //                                                       8
  '  serviceTime: { kind: exponential, mean: 100ms }', //                 9
  'faults:', //                                                          10
  '  - { kind: dependency-down, at: 2m, duration: 1m }', //              11
  'variants:', //                                                        12
  '  retries: {}', //                                                    13
  '  short-queue:', //                                                   14
  '    overlay: { server: { queue: 50 } }', //                           15
];
const scenario = (...append: string[]) => [...BASE, ...append].join('\n') + '\n';

function load(...append: string[]): LoadedScenario {
  return loadScenario(scenario(...append), 'sw.yaml');
}

function problemsOf(...append: string[]): Problem[] {
  try {
    load(...append);
  } catch (e) {
    if (e instanceof ScenarioError) return e.problems;
    throw e;
  }
  throw new Error('expected a ScenarioError, but the scenario loaded');
}

/** Exactly one problem, at line:col and path, saying `message` (col undefined: any column). */
function expectProblem(append: string[], line: number, col: number | undefined, path: string, message: RegExp): void {
  const got = problemsOf(...append);
  expect(got.map(formatProblem)).toHaveLength(1);
  expect({ file: got[0].file, line: got[0].line, col: got[0].col, path: got[0].path }, formatProblem(got[0])).toEqual({ file: 'sw.yaml', line, col: col ?? got[0].col, path });
  expect(got[0].message).toMatch(message);
}

/**
 * A bad sweep value: reported at the sweep's values (or range), naming the parameter, the
 * value and the variant. Today it is said once per variant at the same position; once is
 * enough, so both are accepted.
 */
function expectPointProblem(append: string[], line: number, col: number, path: string, message: RegExp, point: string): void {
  const got = problemsOf(...append);
  expect(got.length).toBeGreaterThanOrEqual(1);
  expect(got.length).toBeLessThanOrEqual(2); // two variants
  for (const p of got) {
    expect({ file: p.file, line: p.line, col: p.col, path: p.path }, formatProblem(p)).toEqual({ file: 'sw.yaml', line, col, path });
    expect(p.message).toMatch(message);
    expect(p.message).toContain(`(at ${point}`);
  }
}

const durationsOf = (l: LoadedScenario, variant = 'retries') => l.variants.find((v) => v.name === variant)!.points.map((s) => s.faults[0].duration);

describe('loadScenario: sweep points', () => {
  it('without a sweep, has one point with no values', () => {
    const l = load();
    expect(l.points).toEqual([{ index: 0, values: {} }]);
    expect(l.variants.map((v) => v.points.length)).toEqual([1, 1]);
    expect(l.variants[0].points[0]).toBe(l.variants[0].scenario);
  });

  it('expands a list of values, keeping them as written and setting them (parsed) in every variant', () => {
    const l = load('sweep:', '  - parameter: faults[0].duration', '    values: [10s, 1m, 3m]');
    expect(l.points).toEqual([
      { index: 0, values: { 'faults[0].duration': '10s' } },
      { index: 1, values: { 'faults[0].duration': '1m' } },
      { index: 2, values: { 'faults[0].duration': '3m' } },
    ]);
    expect(durationsOf(l, 'retries')).toEqual([10, 60, 180]);
    expect(durationsOf(l, 'short-queue')).toEqual([10, 60, 180]);
    // The variant's overlay still applies at every point; the sweep does not touch the rest.
    expect(l.variants[1].points.map((s) => s.server.queue)).toEqual([50, 50, 50]);
    expect(l.variants[0].points.map((s) => s.faults[0].at)).toEqual([120, 120, 120]);
    expect(l.variants[0].scenario).toBe(l.variants[0].points[0]);
  });

  it('expands a range with units: {from: 1m, to: 5m, steps: 5} is 1m, 2m, 3m, 4m, 5m', () => {
    const l = load('sweep:', '  - parameter: faults[0].duration', '    range: { from: 1m, to: 5m, steps: 5 }');
    expect(l.points.map((p) => p.values['faults[0].duration'])).toEqual(['1m', '2m', '3m', '4m', '5m']);
    expect(durationsOf(l)).toEqual([60, 120, 180, 240, 300]);
  });

  it('expands a range of plain numbers and of fractional steps', () => {
    const slots = load('sweep:', '  - parameter: server.slots', '    range: { from: 10, to: 20, steps: 3 }');
    expect(slots.points.map((p) => p.values['server.slots'])).toEqual([10, 15, 20]);
    expect(slots.variants[0].points.map((s) => s.server.slots)).toEqual([10, 15, 20]);
    expect(rangeValues('1s', '2s', 3)).toEqual(['1s', '1.5s', '2s']);
    expect(rangeValues(0.5, 1.2, 8)).toEqual([0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.1, 1.2]);
    expect(rangeValues('1m', '30s', 2)).toMatch(/same unit/);
    expect(rangeValues('1m', '2m', 1)).toMatch(/at least 2 steps/);
  });

  it('gives the cartesian product of two parameters in row-major order (first parameter slowest)', () => {
    const l = load(
      'sweep:',
      '  - parameter: faults[0].duration',
      '    values: [10s, 1m]',
      '  - parameter: server.slots',
      '    values: [10, 20, 30]',
    );
    const pairs = l.points.map((p) => [p.index, p.values['faults[0].duration'], p.values['server.slots']]);
    expect(pairs).toEqual([
      [0, '10s', 10], [1, '10s', 20], [2, '10s', 30],
      [3, '1m', 10], [4, '1m', 20], [5, '1m', 30],
    ]);
    // Each point's scenario has both values set.
    const s = l.variants[1].points;
    expect(s.map((x) => [x.faults[0].duration, x.server.slots])).toEqual([[10, 10], [10, 20], [10, 30], [60, 10], [60, 20], [60, 30]]);
    expect(sweepPoints([{ parameter: 'a', values: [1, 2] }, { parameter: 'b', values: ['x', 'y'] }]).map((p) => p.values)).toEqual([
      { a: 1, b: 'x' }, { a: 1, b: 'y' }, { a: 2, b: 'x' }, { a: 2, b: 'y' },
    ]);
  });

  it('lays the runs out variant by point by seed', () => {
    const l = load('seeds: 2', 'sweep:', '  - parameter: faults[0].duration', '    values: [10s, 1m]');
    expect(expandRuns(l).map((r) => `${r.index}:${r.variant}/${r.point}/${r.seed}`)).toEqual([
      '0:retries/0/1', '1:retries/0/2', '2:retries/1/1', '3:retries/1/2',
      '4:short-queue/0/1', '5:short-queue/0/2', '6:short-queue/1/1', '7:short-queue/1/2',
    ]);
    expect(expandRuns(l, { seed: 10, seeds: 1 }).map((r) => r.seed)).toEqual([10, 10, 10, 10]);
  });

  it('load multiplies every population\'s arrival rate', () => {
    const l = loadScenario(
      [
        ...BASE.slice(0, 6),
        '  batch:',
        '    arrivals: { kind: steps, steps: [{ at: 0s, rate: 10/s }, { at: 5m, rate: 40/s }] }',
        '  ramped:',
        '    arrivals: { kind: ramp, from: 1/s, to: 3/s, start: 0s, end: 10m }',
        ...BASE.slice(6),
        'sweep:',
        '  - parameter: load',
        '    values: [0.5, 1, 1.5]',
      ].join('\n') + '\n',
      'sw.yaml',
    );
    expect(l.points.map((p) => p.values.load)).toEqual([0.5, 1, 1.5]);
    for (const v of l.variants) {
      const [half, one, more] = v.points;
      expect([half, one, more].map((s) => (s.clients.app.arrivals as { rate: number }).rate)).toEqual([50, 100, 150]);
      expect([half, one, more].map((s) => (s.clients.batch.arrivals as { steps: Array<{ rate: number }> }).steps.map((x) => x.rate))).toEqual([[5, 20], [10, 40], [15, 60]]);
      expect([half, one, more].map((s) => { const a = s.clients.ramped.arrivals as { from: number; to: number }; return [a.from, a.to]; })).toEqual([[0.5, 1.5], [1, 3], [1.5, 4.5]]);
    }
  });
});

describe('loadScenario: sweep problems', () => {
  it('sweeping a path the scenario does not set is an error at sweep[0].parameter', () => {
    expectProblem(['sweep:', '  - parameter: faults[3].duration', '    values: [10s, 1m]'], 17, 16, 'sweep[0].parameter', /sets no value at "faults\[3\]\.duration"/);
    expectProblem(['sweep:', '  - parameter: server.queue', '    values: [10, 20]'], 17, 16, 'sweep[0].parameter', /sets no value at "server\.queue"/);
  });

  it('an unreadable path is an error at sweep[i].parameter', () => {
    expectProblem(
      ['sweep:', '  - parameter: faults[0].duration', '    values: [10s]', '  - parameter: faults[first].at', '    values: [1m]'],
      19, 16, 'sweep[1].parameter', /"faults\[first\]\.at" is not a parameter path/,
    );
    expectProblem(['sweep:', '  - parameter: faults[0]duration', '    values: [1m]'], 17, 16, 'sweep[0].parameter', /a "\." is missing before "duration"/);
    expect(parsePath('faults[0].duration')).toEqual(['faults', 0, 'duration']);
    expect(parsePath('clients.app.arrivals.rate')).toEqual(['clients', 'app', 'arrivals', 'rate']);
  });

  it('an invalid value at one point is reported at the sweep\'s values, naming the point', () => {
    expectPointProblem(['sweep:', '  - parameter: faults[0].duration', '    values: [10s, -5s, 1m]'], 18, 13, 'sweep[0].values', /a duration cannot be negative \(got "-5s"\)/, 'faults[0].duration = -5s');
    expectPointProblem(['sweep:', '  - parameter: faults[0].duration', '    values: [10s, ten]'], 18, 13, 'sweep[0].values', /"ten" is not a duration/, 'faults[0].duration = ten');
    expectPointProblem(['sweep:', '  - parameter: server.slots', '    range: { from: 0, to: 10, steps: 3 }'], 18, 12, 'sweep[0].range', /must be at least 1/, 'server.slots = 0');
  });

  it('load must be numbers above 0', () => {
    expectProblem(['sweep:', '  - parameter: load', '    values: [1, 0]'], 18, 13, 'sweep[0].values', /load multiplies every arrival rate.*got 0/);
  });

  it('a range whose ends use different units is an error at sweep[0].range', () => {
    expectProblem(['sweep:', '  - parameter: faults[0].duration', '    range: { from: 1m, to: 90s, steps: 3 }'], 18, 12, 'sweep[0].range', /same unit/);
  });

  it('sweeping the same parameter twice, or the variants, is an error', () => {
    expectProblem(
      ['sweep:', '  - parameter: server.slots', '    values: [10]', '  - parameter: server.slots', '    values: [20]'],
      19, 16, 'sweep[1].parameter', /swept twice/,
    );
    expectProblem(['sweep:', '  - parameter: variants.retries', '    values: [1]'], 17, 16, 'sweep[0].parameter', /cannot be swept/);
  });
});

describe('loadScenario: expectation problems', () => {
  it('an expectation naming an unknown variant is an error with did-you-mean', () => {
    expectProblem(['expectations:', '  - variant: short-queu', '    recovered: { atLeast: 0.9 }'], 17, 14, 'expectations[0].variant', /no variant named "short-queu" \(did you mean "short-queue"\?\)/);
  });

  it('an unknown variant with no close name lists the variants', () => {
    expectProblem(['expectations:', '  - variant: zzzzzzzzzz', '    recovered: { atLeast: 0.9 }'], 17, 14, 'expectations[0].variant', /\(variants: retries, short-queue\)/);
  });

  it('`at` naming a parameter that is not swept is an error', () => {
    expectProblem(
      ['sweep:', '  - parameter: faults[0].duration', '    values: [10s, 1m]', 'expectations:', '  - variant: retries', '    at: { server.slots: 10 }', '    recovered: { atLeast: 0.9 }'],
      21, undefined, 'expectations[0].at.server.slots', /"server\.slots" is not a swept parameter \(swept: faults\[0\]\.duration\)/,
    );
  });
});

describe('expectation `at`: values compared by meaning', () => {
  const sweep = ['sweep:', '  - { parameter: "faults[0].duration", values: [30s, 1m] }'];

  it('sameValue: "60s" is the sweep point written "1m"; "100/min" equals itself; "2m" is not "1m"', () => {
    expect(sameValue('60s', '1m')).toBe(true);
    expect(sameValue('100/min', '100/min')).toBe(true);
    expect(sameValue(0.8, 0.8)).toBe(true);
    expect(sameValue('2m', '1m')).toBe(false);
  });

  it('loads an expectation whose `at` names a point in other units', () => {
    const l = load(...sweep, 'expectations:', '  - { variant: retries, at: { "faults[0].duration": 60s }, recovered: { atLeast: 0.5 } }');
    expect(l.base.expectations).toHaveLength(1);
  });

  it('refuses an `at` that matches no sweep point (it would check nothing)', () => {
    const ps = problemsOf(...sweep, 'expectations:', '  - { variant: retries, at: { "faults[0].duration": 5m }, recovered: { atLeast: 0.5 } }');
    expect(ps).toHaveLength(1);
    expect(ps[0].path).toBe('expectations[0].at');
    expect(ps[0].line).toBe(19);
    expect(ps[0].message).toMatch(/no sweep point has these values.*faults\[0\]\.duration: 30s, 1m/);
  });
});

describe('loadScenario: compare problems', () => {
  const sweep = ['sweep:', '  - { parameter: "faults[0].duration", values: [30s, 1m] }']; // lines 16-17

  it('loads a compare block whose `at` names a point in other units, and keeps it on the base', () => {
    const l = load(...sweep, 'compare:', '  baseline: short-queue', '  at: { "faults[0].duration": 60s }');
    expect(l.base.compare).toEqual({ baseline: 'short-queue', at: { 'faults[0].duration': '60s' } });
  });

  it('a baseline that is not a variant is an error at the baseline, with did-you-mean or the variants', () => {
    expectProblem(['compare:', '  baseline: retires'], 17, 13, 'compare.baseline', /^no variant named "retires" \(did you mean "retries"\?\)$/);
    expectProblem(['compare:', '  baseline: zzzzzzzzzz'], 17, 13, 'compare.baseline', /\(variants: retries, short-queue\)$/);
  });

  it('without declared variants the one variant is "base"', () => {
    const source = BASE.slice(0, 11).join('\n') + '\ncompare: { baseline: as-is }\n';
    let problems: Problem[] = [];
    try { loadScenario(source, 'sw.yaml'); } catch (e) { problems = (e as ScenarioError).problems; }
    expect(problems.map(formatProblem)).toEqual(['sw.yaml:12:22  compare.baseline: no variant named "as-is" (variants: base)']);
    expect(loadScenario(source.replace('as-is', 'base'), 'sw.yaml').base.compare).toEqual({ baseline: 'base' });
  });

  it('an `at` that matches no sweep point is an error at `at`, listing the sweep', () => {
    expectProblem([...sweep, 'compare:', '  at: { "faults[0].duration": 5m }'], 19, 7, 'compare.at', /^no sweep point has these values, so there would be nothing to rank \(the sweep has faults\[0\]\.duration: 30s, 1m\)$/);
  });

  it('an `at` naming a parameter that is not swept is an error at that key', () => {
    expectProblem([...sweep, 'compare:', '  at:', '    server.slots: 10'], 20, 5, 'compare.at.server.slots', /^"server\.slots" is not a swept parameter \(swept: faults\[0\]\.duration\)$/);
    expectProblem(['compare:', '  at: { load: 1 }'], 17, 9, 'compare.at.load', /^"load" is not a swept parameter \(the scenario has no sweep\)$/);
  });

  it('an unknown key in compare is reported once, with did-you-mean', () => {
    expectProblem(['compare:', '  basline: retries'], 17, 3, 'compare.basline', /^unknown key "basline" \(did you mean "baseline"\?\)/);
  });
});
