/**
 * behaviour.offline tied to a fault (`offline: { fault: N, flush }`, src/model/client/offline.ts):
 * the devices are offline exactly while faults[N] is active and flush when it ends, at
 * every sweep point (the window follows a swept `faults[0].at` / `faults[0].duration`).
 */
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import type { RunRecord } from '../../../src/model/series.js';
import { run, sum } from './harness.js';
import { scenarioProblems } from '../../helpers/scenario-problems.js';

/**
 * Devices start 10 sync actions/s from 10 s to 4 m, one try each, on a healthy server
 * (1 ms, 1,000 slots); faults[0] takes the dependency down. Buckets of 1 s. `offline` is
 * written as given; `sweep` is appended.
 */
const world = (offline: string, opts: { at?: string; duration?: string; sweep?: string; variants?: string } = {}) => `
name: offline-fault
horizon: 5m
measures: { bucket: 1s }
clients:
  devices:
    clients: 50
    arrivals: { kind: steps, steps: [{ at: 10s, rate: 10/s }, { at: 240s, rate: 0/s }] }
    retry: { maxAttempts: 1 }
    behaviour: { offline: ${offline} }
server: { slots: 1000, serviceTime: { kind: constant, value: 1ms } }
faults:
  - { kind: dependency-down, at: ${opts.at ?? '60s'}, duration: ${opts.duration ?? '60s'} }
${opts.sweep ? `sweep:\n${opts.sweep}` : ''}
${opts.variants ? `variants:\n${opts.variants}` : ''}
`;

/** What the devices did around an offline window [from, to) (whole seconds). */
function around(r: RunRecord, from: number, to: number) {
  const s = r.series;
  return {
    queued: sum(s.actionsStarted, from, to),
    sentWhileOffline: sum(s.attempts, from, to),
    sentBefore: sum(s.attempts, from - 10, from),
    flushed: s.attempts[to],
    dependencyFailures: sum(s.failures[1]),
  };
}

describe('offline: { fault: N } follows the fault', () => {
  it('sends nothing during the fault, flushes every queued action when it ends, and none meets the outage', () => {
    const r = run(world('{ fault: 0, flush: at-once }'));
    const w = around(r, 60, 120);
    expect(w.sentBefore).toBeGreaterThan(80); // online before: ~100 in the 10 s before
    expect(w.queued).toBeGreaterThan(500); // ~600 actions started while offline
    expect(w.sentWhileOffline).toBe(0);
    expect(w.flushed).toBe(w.queued + r.series.actionsStarted[120]); // the queue, plus the bucket's own arrivals
    // The dependency is back when they flush (the fault ends before the flush at the same instant).
    expect(w.dependencyFailures).toBe(0);
    expect(r.totals.actionsOk).toBe(r.totals.actionsStarted);
    // The measures see the offline window, the same as the fault's.
    expect(r.faults).toContainEqual({ kind: 'offline:devices', startS: 60, endS: 120 });
  });

  it.each(['at-once', '{ spreadPerAction: 1s }'])('is the same run as the fixed window from/to of the fault (flush %s)', (flush) => {
    const tied = run(world(`{ fault: 0, flush: ${flush} }`));
    const fixed = run(world(`{ from: 60s, to: 120s, flush: ${flush} }`));
    expect(Array.from(tied.series.attempts)).toEqual(Array.from(fixed.series.attempts));
    expect(Array.from(tied.series.actionsOk)).toEqual(Array.from(fixed.series.actionsOk));
    expect(tied.faults).toEqual(fixed.faults);
  });

  it('moves with a sweep of faults[0].at and faults[0].duration', () => {
    const loaded = loadScenario(world('{ fault: 0, flush: at-once }', {
      sweep: [
        '  - { parameter: "faults[0].at", values: [30s, 90s] }',
        '  - { parameter: "faults[0].duration", values: [20s, 100s] }',
      ].join('\n'),
    }), 'sweep.yaml');
    const points = loaded.variants[0].points;
    expect(points).toHaveLength(4);
    const windows: Array<[number, number]> = [];
    for (const s of points) {
      const from = s.faults[0].at, to = from + s.faults[0].duration;
      windows.push([from, to]);
      const r = simulate(s, 1);
      const w = around(r, from, to);
      expect(w.sentBefore, `window [${from}, ${to})`).toBeGreaterThan(80);
      expect(w.sentWhileOffline, `window [${from}, ${to})`).toBe(0);
      expect(w.queued).toBeGreaterThan(9 * (to - from)); // 10/s while offline
      expect(w.flushed).toBe(w.queued + r.series.actionsStarted[to]);
      // Online again after the flush: the next bucket carries ~10 fresh attempts, not a queue.
      expect(r.series.attempts[to + 1]).toBeLessThan(25);
      expect(r.faults).toContainEqual({ kind: 'offline:devices', startS: from, endS: to });
    }
    // Every point really has its own window (the sweep was applied, not the base's 60 s..120 s).
    expect(windows).toEqual([[30, 50], [30, 130], [90, 110], [90, 190]]);
  });

  it('a fault that outlasts the horizon keeps the devices offline to the end: nothing is ever sent', () => {
    const r = run(world('{ fault: 0, flush: at-once }', { at: '60s', duration: '1h' }));
    expect(sum(r.series.attempts, 60, 300)).toBe(0);
    expect(sum(r.series.attempts, 0, 60)).toBeGreaterThan(400);
    expect(r.faults).toContainEqual({ kind: 'offline:devices', startS: 60, endS: 300 });
  });
});

const problems = (yaml: string) => scenarioProblems(yaml);

describe('offline: validation', () => {
  it('accepts either form alone', () => {
    expect(problems(world('{ fault: 0, flush: at-once }'))).toEqual([]);
    expect(problems(world('{ from: 1m, to: 2m, flush: at-once }'))).toEqual([]);
  });

  it('refuses a fault index the scenario does not have, at offline.fault', () => {
    expect(problems(world('{ fault: 1, flush: at-once }'))).toEqual([
      'clients.devices.behaviour.offline.fault: no fault with index 1 (the scenario has 1 fault: use 0)',
    ]);
  });

  it('refuses a variant that removes the fault the devices are tied to', () => {
    const got = problems(world('{ fault: 0, flush: at-once }', { variants: '  calm: { overlay: { faults: [] } }\n  as-is: {}' }));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^clients\.devices\.behaviour\.offline\.fault: no fault with index 0 \(the scenario has no faults\) \(in variant "calm"\)$/);
  });

  it('refuses both forms at once, and neither', () => {
    expect(problems(world('{ fault: 0, from: 1m, to: 2m, flush: at-once }'))).toEqual([
      'clients.devices.behaviour.offline.fault: give either from and to (a fixed window) or fault (the window of one of the faults), not both',
    ]);
    expect(problems(world('{ flush: at-once }'))).toEqual([
      'clients.devices.behaviour.offline: give from and to (a fixed window), or fault (the index of the fault whose window the devices are offline for)',
    ]);
    expect(problems(world('{ from: 1m, flush: at-once }'))[0]).toMatch(/"to" is missing$/);
  });

  it('refuses a negative or fractional index, and a fixed window that ends before it starts', () => {
    expect(problems(world('{ fault: -1, flush: at-once }'))).toEqual(['clients.devices.behaviour.offline.fault: expected a fault index: 0 = the first fault (got the number -1)']);
    expect(problems(world('{ fault: 0.5, flush: at-once }'))).toEqual(['clients.devices.behaviour.offline.fault: expected a whole number (a fault index, 0 = the first)']);
    expect(problems(world('{ from: 2m, to: 1m, flush: at-once }'))).toEqual([
      'clients.devices.behaviour.offline.to: the devices must reconnect (to: 1m) after they go offline (from: 2m)',
    ]);
  });
});
