/**
 * The retry breaker (breaker mode: retries, src/model/client/gates.ts; Marc Brooker, "Fixing
 * retries with token buckets and circuit breakers", 2022): first tries always go; retries
 * only while the failure ratio in the window is below the threshold. Against the classic
 * breaker, which refuses first tries too while open.
 */
import { describe, it, expect } from 'vitest';
import { run, sum, failures, drive } from './harness.js';
import { OUTCOME_OK, OUTCOME_DEPENDENCY } from '../../../src/model/outcomes.js';
import { positionedProblems } from '../../helpers/positioned-problems.js';

/** 20 actions/s from one proxy (scope population), 3 tries each, no wait; the dependency is down from 1m to 3m. */
const world = (breaker: string) => `
name: retry-breaker
horizon: 5m
measures: { bucket: 10s }
clients:
  app:
    clients: 1000
    arrivals: { kind: constant, rate: 20/s }
    retry: { maxAttempts: 3, backoff: { kind: none }, breaker: ${breaker} }
server:
  slots: 100
  serviceTime: { kind: constant, value: 10ms }
faults:
  - { kind: dependency-down, at: 1m, duration: 2m }
`;

const RETRIES = '{ mode: retries, window: { time: 10s }, failureRateThreshold: 0.5, minimumCalls: 20, scope: population }';

describe('breaker mode: retries', () => {
  const r = run(world(RETRIES));
  const s = r.series;

  it('stops retries during the outage, but every first try still goes', () => {
    // Outside the outage nothing fails, so the breaker lets retries through (none are needed).
    expect(sum(s.retries, 0, 6)).toBe(0);
    // Inside it, after the first seconds the ratio is 100% failures: no retries at all…
    expect(sum(s.retries, 8, 18)).toBe(0);
    // …and every action still makes its first attempt: nothing is refused locally.
    expect(sum(s.firstTries, 6, 18)).toBe(sum(s.actionsStarted, 6, 18));
    expect(failures(s, 'refused-locally')).toBe(0);
  });

  it('lets the first retries through before the window fills, then none until the ratio falls', () => {
    // The window still holds 10 s of successes when the outage starts: failures reach half of
    // it after about 3 s, and until then the failed first tries are retried (twice each).
    const early = sum(s.retries, 6, 7);
    expect(early).toBeGreaterThan(20);
    expect(early).toBeLessThan(150);
    expect(sum(s.retries, 7, 18)).toBe(0);
    // After the outage the window drains of failures in 10 s, and everything succeeds again.
    expect(sum(s.actionsFailed, 19)).toBe(0);
  });

  it('a classic breaker refuses first tries too while it is open', () => {
    const classic = run(world('{ window: { time: 10s }, failureRateThreshold: 0.5, minimumCalls: 20, openFor: 30s, scope: population }'));
    expect(failures(classic.series, 'refused-locally')).toBeGreaterThan(1000);
    expect(sum(classic.series.firstTries, 6, 18)).toBeLessThan(sum(classic.series.actionsStarted, 6, 18));
  });

  it('keeps measuring through first tries: a failure ratio that falls below the threshold lets retries back', () => {
    // A scripted server: 60% of attempts fail before 60 s, 10% after. The breaker stops retries
    // while the ratio in its 10 s window is at or above 50%, so retries resume after 60 s.
    let i = 0;
    const d = drive(world(RETRIES).replace('faults:\n  - { kind: dependency-down, at: 1m, duration: 2m }', ''), (sent) => {
      i++;
      const failing = sent.t < 60 ? i % 5 < 3 : i % 10 === 0;
      return { after: 0.001, outcome: failing ? OUTCOME_DEPENDENCY : OUTCOME_OK };
    });
    const retriesIn = (from: number, to: number) => d.sent.filter((x) => x.n > 1 && x.t >= from && x.t < to).length;
    expect(retriesIn(20, 55)).toBe(0);
    // After 60 s one attempt in ten fails and is retried: about 2 retries/s.
    expect(retriesIn(80, 300) / 220).toBeGreaterThan(1.5);
    expect(retriesIn(80, 300) / 220).toBeLessThan(3);
  });

  it('has no open state to configure', () => {
    expect(positionedProblems(world('{ mode: retries, openFor: 30s }'))).toEqual([
      '9:90 clients.app.retry.breaker.openFor: a breaker in mode retries never opens: it only stops retries while the failure ratio is at or above the threshold, so openFor does not apply',
    ]);
  });
});
