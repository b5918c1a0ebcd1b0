/**
 * Network delay between tiers (a call's `networkDelay`, src/model/graph/network.ts): a
 * one-way latency paid by the request on its way to the called service and by the answer on
 * its way back. With constant times and no queueing every user's response time is exact:
 * the edge's call to api (10 ms) crosses the wire twice (2 x 20 ms), then the edge does its
 * own 1 ms: 51 ms, for the fastest and the slowest action alike.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import type { RunRecord } from '../../../src/model/series.js';

function run(call: string): RunRecord {
  return simulate(loadScenario(`
name: network
horizon: 1m
clients:
  users:
    clients: 100
    arrivals: { kind: constant, rate: 20/s }
    retry: { maxAttempts: 1, timeout: 5s }
server:
  slots: 100
  serviceTime: { kind: constant, value: 1ms }
  routes:
    default:
      services: [ { service: api, ${call} } ]
services:
  api:
    slots: 100
    serviceTime: { kind: constant, value: 10ms }
`, 'network.yaml').base, 3);
}

const actions = (r: RunRecord) => r.latency[0].actions;

describe('networkDelay on a call between tiers', () => {
  it('is paid on the way there and on the way back: every action takes 1 + 20 + 10 + 20 ms exactly', () => {
    const r = run('networkDelay: { kind: constant, value: 20ms }');
    expect(actions(r).count).toBeGreaterThan(1000);
    expect(actions(r).min).toBeCloseTo(0.051, 9);
    expect(actions(r).max).toBeCloseTo(0.051, 9);
    expect(r.totals.actionsOk).toBe(actions(r).count);
  });

  it('without it the same call takes 11 ms', () => {
    const r = run('retry: { maxAttempts: 1 }');
    expect(actions(r).min).toBeCloseTo(0.011, 9);
    expect(actions(r).max).toBeCloseTo(0.011, 9);
  });

  it("counts in the call's own timeout: 45 ms is too short for a 50 ms round trip, 55 ms is enough", () => {
    const short = run('networkDelay: { kind: constant, value: 20ms }, retry: { maxAttempts: 1, timeout: 45ms }');
    const long = run('networkDelay: { kind: constant, value: 20ms }, retry: { maxAttempts: 1, timeout: 55ms }');
    expect(short.totals.actionsOk).toBe(0);
    // The call timed out at 45 ms (its answer still on the wire), then the edge failed fast.
    expect(actions(short).max).toBeCloseTo(0.045, 9);
    expect(long.totals.actionsOk).toBe(actions(long).count);
    expect(actions(long).max).toBeCloseTo(0.051, 9);
  });

  it('draws each crossing from the distribution: a uniform delay averages its mean twice over', () => {
    const r = run('networkDelay: { kind: uniform, min: 10ms, max: 30ms }');
    const mean = actions(r).mean();
    // 1 + 10 + 2 x 20 ms on average; two draws per action, ~1,200 actions: sd of the mean ~0.24 ms.
    expect(mean).toBeGreaterThan(0.051 - 0.001);
    expect(mean).toBeLessThan(0.051 + 0.001);
    expect(actions(r).min).toBeGreaterThanOrEqual(0.031 - 1e-9);
    expect(actions(r).max).toBeLessThanOrEqual(0.071 + 1e-9);
  });
});

describe('networkDelay in the scenario format', () => {
  it('refuses a distribution the model cannot draw, at the call', () => {
    expect(() => run('networkDelay: { kind: lognormal, mean: 10ms, p99: 5ms }')).toThrow(/network\.yaml:\d+:\d+ +server\.routes\.default\.services\[0\]\.networkDelay: lognormal: p99 must be above the mean/);
  });
});
