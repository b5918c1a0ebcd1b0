/**
 * The load surge fault (`kind: surge`): new user actions arrive `factor` times as fast for
 * the window, for one population or all; overlapping surges multiply; the surge is a fault
 * window like any other, so recovery is measured from its end.
 */
import { describe, it, expect } from 'vitest';
import { run, sum } from './client/harness.js';
import { loadScenario } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';
import { positionedProblems } from '../helpers/positioned-problems.js';

/** Two populations of 50 actions/s on their own routes, a server that never saturates; buckets of 10 s. */
const world = (faults: string, opts: { arrivals?: string; slots?: number; horizon?: string } = {}) => `
name: surge
horizon: ${opts.horizon ?? '6m'}
measures: { bucket: 10s }
clients:
  web:
    arrivals: ${opts.arrivals ?? '{ kind: constant, rate: 50/s }'}
    identity: { route: web }
    retry: { timeout: 2s }
  mobile:
    arrivals: { kind: constant, rate: 50/s }
    identity: { route: mobile }
    retry: { timeout: 2s }
server: { slots: ${opts.slots ?? 1000}, serviceTime: { kind: constant, value: 1ms } }
faults:
${faults}
`;

/** Actions of a route that ended in buckets [from, to) of 10 s. */
const ended = (r: ReturnType<typeof run>, route: string, fromS: number, toS: number) => {
  const i = r.routes.indexOf(route);
  return sum(r.series.routeActionsOk[i], fromS / 10, toS / 10) + sum(r.series.routeActionsFailed[i], fromS / 10, toS / 10);
};

/** |observed - expected| within 4 standard errors of a Poisson count. */
const poissonClose = (observed: number, expected: number) => expect(Math.abs(observed - expected)).toBeLessThan(4 * Math.sqrt(expected));

describe('surge: arrivals', () => {
  it('multiplies one population\'s arrival rate by the factor inside the window only', () => {
    const r = run(world('  - { kind: surge, at: 2m, duration: 2m, factor: 3, population: web }'));
    poissonClose(ended(r, 'web', 120, 240), 150 * 120);
    poissonClose(ended(r, 'web', 0, 120), 50 * 120);
    poissonClose(ended(r, 'web', 240, 360), 50 * 120);
    // The other population is untouched.
    poissonClose(ended(r, 'mobile', 120, 240), 50 * 120);
    expect(r.faults).toContainEqual({ kind: 'surge', startS: 120, endS: 240 });
  });

  it('surges every population when none is named, and overlapping surges multiply', () => {
    const r = run(world('  - { kind: surge, at: 1m, duration: 2m, factor: 2 }\n  - { kind: surge, at: 2m, duration: 2m, factor: 1.5 }'));
    for (const route of ['web', 'mobile']) {
      poissonClose(ended(r, route, 60, 120), 100 * 60); // x2
      poissonClose(ended(r, route, 120, 180), 150 * 60); // x2 x 1.5
      poissonClose(ended(r, route, 180, 240), 75 * 60); // x1.5
      poissonClose(ended(r, route, 240, 360), 50 * 120);
    }
  });

  it('follows a varying profile exactly (thinning): a diurnal rate times the factor', () => {
    // mean 50/s, amplitude 0.5, period 6 min peaking at 3 min: the surge covers [2m, 4m).
    const arrivals = '{ kind: diurnal, mean: 50/s, amplitude: 0.5, period: 6m, peakAt: 3m }';
    const r = run(world('  - { kind: surge, at: 2m, duration: 2m, factor: 4, population: web }', { arrivals }));
    // integral of 50 (1 + 0.5 cos(2 pi (t - 180) / 360)) over [120, 240) = 50 (120 + 0.5 * 360/pi * 2 sin(pi/3))
    const base = 50 * (120 + (0.5 * 360 * 2 * Math.sin(Math.PI / 3)) / (2 * Math.PI));
    poissonClose(ended(r, 'web', 120, 240), 4 * base);
  });

  it('sets an absolute rate for one population, even one whose profile is silent (a flood from a botnet)', () => {
    const arrivals = '{ kind: steps, steps: [{ at: 0s, rate: 0/s }] }';
    const r = run(world('  - { kind: surge, at: 2m, duration: 2m, rate: 30/s, population: web }', { arrivals }));
    expect(ended(r, 'web', 0, 120)).toBe(0);
    poissonClose(ended(r, 'web', 120, 240), 30 * 120);
    expect(ended(r, 'web', 250, 360)).toBe(0);
    poissonClose(ended(r, 'mobile', 120, 240), 50 * 120);
  });

  it('a factor surge on top of an absolute one multiplies it', () => {
    const r = run(world('  - { kind: surge, at: 2m, duration: 2m, rate: 20/s, population: web }\n  - { kind: surge, at: 3m, duration: 1m, factor: 3 }'));
    poissonClose(ended(r, 'web', 120, 180), 20 * 60);
    poissonClose(ended(r, 'web', 180, 240), 60 * 60);
    poissonClose(ended(r, 'web', 250, 360), 50 * 110);
  });

  it('a lull (factor below 1) lowers the rate', () => {
    const r = run(world('  - { kind: surge, at: 2m, duration: 2m, factor: 0.2, population: mobile }'));
    poissonClose(ended(r, 'mobile', 120, 240), 10 * 120);
  });

  it('leaves the arrivals of a world without surges as they were (same draws)', () => {
    const plain = run(world('  - { kind: dependency-down, at: 5m, duration: 10s }'));
    const other = run(world('  - { kind: dependency-down, at: 5m, duration: 10s }\n  - { kind: surge, at: 2m, duration: 1m, factor: 2, population: mobile }'));
    const web = plain.routes.indexOf('web');
    expect(Array.from(other.series.routeActionsOk[web])).toEqual(Array.from(plain.series.routeActionsOk[web]));
  });
});

describe('surge: a fault like any other', () => {
  it('recovery is measured from the end of the surge that overloaded the server', () => {
    // 100 actions/s at 1 ms on 1 slot is 10% busy; x15 for a minute is 150% busy: a queue
    // builds (~30 s of work), callers time out after 2 s, and it drains after the surge ends at 3m.
    const yaml = world('  - { kind: surge, at: 2m, duration: 1m, factor: 15 }', { slots: 1, horizon: '10m' })
      .replace('constant, value: 1ms', 'exponential, mean: 1ms');
    const s = loadScenario(yaml, 'surge.yaml').base;
    const result = runOne(s, 'base', 0, 1);
    expect(result.faults).toEqual([{ kind: 'surge', startS: 120, endS: 180 }]);
    const q = result.columns.queue_len;
    expect(Math.max(...q.slice(12, 18))).toBeGreaterThan(1000); // the queue grows during the surge
    expect(result.summary.measures.recovered).toBe(1);
    // ~30 s of backlog drained at 900/s: about 35 s of timeouts after 3m, so recovery starts
    // in the bucket [3m30s, 3m40s) or the next.
    expect(result.summary.measures.recoveryTimeS!).toBeGreaterThanOrEqual(30);
    expect(result.summary.measures.recoveryTimeS!).toBeLessThanOrEqual(50);
  });
});

describe('surge: validation', () => {
  it('reports an unknown population and a factor of 0 where they are written', () => {
    const got = positionedProblems(world('  - { kind: surge, at: 2m, duration: 1m, factor: 0, population: tablet }'));
    // Both at once: the population is checked on the parts the schema accepted (issue 40).
    expect(got).toEqual([
      expect.stringMatching(/^16:50 faults\[0\]\.factor: a surge multiplies the arrival rate: use a factor above 0/),
      expect.stringMatching(/^16:65 faults\[0\]\.population: no client population "tablet" \(the populations are: web, mobile\)/),
    ]);
    const unknown = positionedProblems(world('  - { kind: surge, at: 2m, duration: 1m, factor: 2, population: tablet }'));
    expect(unknown).toEqual([expect.stringMatching(/^16:65 faults\[0\]\.population: no client population "tablet" \(the populations are: web, mobile\)/)]);
  });

  it('wants a factor or a rate, not both, and a rate names its population', () => {
    expect(positionedProblems(world('  - { kind: surge, at: 2m, duration: 1m }'))).toEqual([
      expect.stringMatching(/^16:5 faults\[0\]: say how strong the surge is: factor \(e\.g\. 3, three times the usual rate\) or rate/),
    ]);
    expect(positionedProblems(world('  - { kind: surge, at: 2m, duration: 1m, factor: 2, rate: 10/s, population: web }'))).toEqual([
      expect.stringMatching(/^16:\d+ faults\[0\]\.rate: give either factor \(times the usual rate\) or rate \(an absolute rate\), not both/),
    ]);
    expect(positionedProblems(world('  - { kind: surge, at: 2m, duration: 1m, rate: 10/s }'))).toEqual([
      expect.stringMatching(/^16:\d+ faults\[0\]\.rate: a surge to an absolute rate is one population's: name it with population/),
    ]);
  });

  it('still reports an unknown population', () => {
    const unknown = positionedProblems(world('  - { kind: surge, at: 2m, duration: 1m, factor: 2, population: tablet }'));
    expect(unknown).toEqual([expect.stringMatching(/^16:65 faults\[0\]\.population: no client population "tablet" \(the populations are: web, mobile\)/)]);
  });
});
