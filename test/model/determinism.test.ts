/**
 * A run is a pure function of (scenario, seed): the same inputs give the same record, a
 * different seed gives different numbers, and because every component draws from its own
 * named stream (src/engine/rng.ts), adding a client population does not disturb the
 * random draws of the others or of the server.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { simulate } from '../../src/model/simulate.js';
import { stream } from '../../src/engine/rng.js';
import { sampler } from '../../src/engine/distributions.js';
import type { RunRecord } from '../../src/model/series.js';
import type { Scenario } from '../../src/scenario/schema.js';

/** Everything random in the model at once: two populations, timeouts, jittered retries, faults, a bounded queue. */
const STORM = `
name: determinism
horizon: 10m
clients:
  web:
    clients: 5000
    arrivals: { kind: constant, rate: 300/s }
    retry:
      maxAttempts: 4
      timeout: 500ms
      backoff: { kind: exponential, base: 100ms, multiplier: 2, max: 2s, jitter: full }
  batch:
    clients: 50
    arrivals: { kind: diurnal, mean: 100/s, amplitude: 0.5, period: 5m }
    retry:
      maxAttempts: 3
      backoff: { kind: constant, base: 1s }
server:
  slots: 50
  queue: 2000
  serviceTime: { kind: lognormal, mean: 100ms, p99: 600ms }
  failFastTime: 5ms
faults:
  - { kind: dependency-down, at: 3m, duration: 30s }
  - { kind: capacity-cut, at: 6m, duration: 1m, slots: 20 }
measures: { bucket: 10s }
`;

function load(yaml: string): Scenario {
  return loadScenario(yaml, 'determinism.yaml').base;
}

/** The whole record as JSON (typed arrays as plain arrays; NaN latencies become null). */
function toJson(r: RunRecord | RunRecord['series']): string {
  return JSON.stringify(r, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float64Array) : v));
}

function sum(a: Float64Array): number {
  return a.reduce((x, y) => x + y, 0);
}

describe('simulate is deterministic', () => {
  let scenario: Scenario;
  let first: RunRecord;
  beforeAll(() => {
    scenario = load(STORM);
    first = simulate(scenario, 7);
  });

  it('exercises timeouts, retries and both faults (so the comparison below means something)', () => {
    const t = first.totals;
    expect(t.actionsStarted).toBeGreaterThan(200_000);
    expect(t.attempts).toBeGreaterThan(t.actionsStarted); // there were retries
    expect(sum(first.series.failures[0])).toBeGreaterThan(0); // timeouts
    expect(sum(first.series.failures[1])).toBeGreaterThan(0); // dependency down
    expect(t.wastedWorkS).toBeGreaterThan(0);
    expect(first.faults).toHaveLength(2);
  });

  it('gives an identical record for the same scenario and seed', () => {
    const again = simulate(scenario, 7);
    expect(toJson(again)).toBe(toJson(first));
    // Also from a freshly loaded copy of the same text: nothing leaks between runs.
    const fresh = simulate(load(STORM), 7);
    expect(toJson(fresh.series)).toBe(toJson(first.series));
    expect(fresh.totals).toEqual(first.totals);
  });

  it('gives different numbers for a different seed', () => {
    const other = simulate(scenario, 8);
    expect(other.totals.attempts).not.toBe(first.totals.attempts);
    expect(other.totals.queueWaitS).not.toBe(first.totals.queueWaitS);
    expect(other.totals.workS).not.toBe(first.totals.workS);
    // Not just a total: most buckets differ.
    const a = first.series.attempts;
    const b = other.series.attempts;
    let differ = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differ++;
    expect(differ).toBeGreaterThan(0.8 * a.length);
  });

  it('does not depend on the order in which populations are declared (streams are keyed by name)', () => {
    const swapped = STORM.replace(/ {2}web:[\s\S]*?(?= {2}batch:)/, '').replace(
      'server:',
      STORM.match(/ {2}web:[\s\S]*?(?= {2}batch:)/)![0] + 'server:',
    );
    const s2 = load(swapped);
    expect(Object.keys(s2.clients)).toEqual(['batch', 'web']);
    // Per-population records are laid out in declaration order; keyed by name, they are the same.
    const byName = (r: RunRecord) => {
      const order = r.populations.map((p) => p.name);
      const sorted = [...order].sort();
      const pick = <T,>(xs: T[]) => sorted.map((n) => xs[order.indexOf(n)]);
      return toJson({
        ...r,
        populations: pick(r.populations),
        attemptsPerActionByPopulation: pick(r.attemptsPerActionByPopulation),
        actionTimes: pick(r.actionTimes),
        latency: pick(r.latency),
        series: { ...r.series, populations: pick(r.series.populations) },
      } as RunRecord);
    };
    expect(byName(simulate(s2, 7))).toBe(byName(first));
  });
});

describe('named streams keep components independent', () => {
  /** A population block: `rate` per second until 5m, then nothing (the run drains before the 6m horizon). */
  const pop = (name: string, rate: number) => `
  ${name}:
    arrivals: { kind: steps, steps: [{ at: 0s, rate: ${rate}/s }, { at: 5m, rate: 0/s }] }
    retry: { maxAttempts: 1 }`;
  const scenarioWith = (pops: string) => `
name: streams
horizon: 6m
clients:${pops}
server:
  slots: 10
  queue: unbounded
  serviceTime: { kind: exponential, mean: 10ms }
measures: { bucket: 10s }
`;
  const seed = 11;
  let onlyA: RunRecord;
  let onlyB: RunRecord;
  let both: RunRecord;
  beforeAll(() => {
    onlyA = simulate(load(scenarioWith(pop('alpha', 200))), seed);
    onlyB = simulate(load(scenarioWith(pop('beta', 100))), seed);
    both = simulate(load(scenarioWith(pop('alpha', 200) + pop('beta', 100))), seed);
  });

  it('adding a population leaves the other population\'s arrivals exactly as they were', () => {
    // Arrivals are counted per bucket over all populations: with independent streams the
    // two-population counts are exactly the sums of the one-population counts.
    const a = onlyA.series.actionsStarted;
    const b = onlyB.series.actionsStarted;
    const ab = both.series.actionsStarted;
    expect(Array.from(ab)).toEqual(Array.from(a, (x, i) => x + b[i]));
    expect(both.totals.actionsStarted).toBe(onlyA.totals.actionsStarted + onlyB.totals.actionsStarted);
  });

  it('the k-th service time is the k-th draw of the server\'s own stream, whoever sends the attempts', () => {
    for (const r of [onlyA, both]) {
      const t = r.totals;
      // Every attempt was served and finished before the horizon, so all its work is in series.workS.
      expect(t.served).toBe(t.attempts);
      expect(t.actionsOk).toBe(t.actionsStarted);
      const draw = sampler({ kind: 'exponential', mean: 0.01 }, stream(seed, 'server/service'));
      let expected = 0;
      for (let k = 0; k < t.served; k++) expected += draw();
      // Same draws summed in another order: equal to rounding. One draw out of place would
      // move the sum by ~1e-5 relative.
      expect(Math.abs(sum(r.series.workS) / expected - 1)).toBeLessThan(1e-10);
      // And the busy-slot integral agrees with the work done (nothing in service at the end).
      expect(Math.abs(t.workS / expected - 1)).toBeLessThan(1e-9);
    }
    expect(both.totals.served).toBeGreaterThan(onlyA.totals.served);
  });
});
