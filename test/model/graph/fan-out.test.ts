/**
 * Fan-out and fan-in (issue 14 item 1): a route calls two services, one always failing and
 * one always answering. Sequentially, the first failure fails the request and the second
 * service is never called; in parallel, waiting for the first success (fanIn 1) succeeds
 * and cancels the loser, waiting for both (the default) fails. Counts are exact: constant
 * service times, no retries anywhere.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';

function run(route: string) {
  const rec = simulate(loadScenario(`
name: fan
horizon: 10m
clients:
  users:
    arrivals: { kind: steps, steps: [ { at: 0s, rate: 1/s }, { at: 5m, rate: 0/s } ] }
server:
  slots: 1000
  serviceTime: { kind: constant, value: 1ms }
  routes:
    default: ${route}
services:
  broken: { slots: 1000, serviceTime: { kind: constant, value: 10ms }, failFastTime: 5ms }
  fine: { slots: 1000, serviceTime: { kind: constant, value: 10ms } }
faults:
  - { kind: error-rate, service: broken, at: 0s, duration: 1h, probability: 1, status: 503 }
`, 'fan.yaml').base, 3);
  const tier = (n: string) => rec.tiers!.find((t) => t.name === n)!.totals;
  return { actions: rec.totals.actionsStarted, ok: rec.totals.actionsOk, broken: tier('broken'), fine: tier('fine') };
}

describe('a route calling two services, one of them always failing', () => {
  it('sequential, the broken one first: every request fails and the second service is never called', () => {
    const r = run('{ services: [ { service: broken }, { service: fine } ] }');
    expect(r.actions).toBeGreaterThan(200);
    expect(r.ok).toBe(0);
    expect(r.broken.attempts).toBe(r.actions);
    expect(r.fine.attempts).toBe(0);
  });

  it('sequential, the fine one first: both are called, and the request still fails', () => {
    const r = run('{ services: [ { service: fine }, { service: broken } ] }');
    expect(r.ok).toBe(0);
    expect(r.fine.callsOk).toBe(r.actions);
    expect(r.broken.attempts).toBe(r.actions);
  });

  it('parallel, waiting for the first success: every request succeeds', () => {
    const r = run('{ services: [ { service: broken }, { service: fine } ], fanOut: parallel, fanIn: 1 }');
    expect(r.ok).toBe(r.actions);
    expect(r.fine.callsOk).toBe(r.actions);
    expect(r.broken.callsFailed).toBe(r.actions);
  });

  it('parallel, waiting for both: the broken one fails every request, and the fine call still out is cancelled', () => {
    const r = run('{ services: [ { service: broken }, { service: fine } ], fanOut: parallel }');
    expect(r.ok).toBe(0);
    // The broken service answers in 5 ms, the fine one would take 10 ms: each fine call is cancelled (counted as failed).
    expect(r.fine.callsOk).toBe(0);
    expect(r.fine.callsFailed).toBe(r.actions);
    expect(r.fine.attempts).toBe(r.actions);
  });
});

describe('parallel calls whose first call fails at once', () => {
  // One slot, a queue behind it; a's calls are reset before a sees them half the time, which
  // ends the request at once (failFastTime 0): its slot goes to the next request in the queue
  // before the first request's loop has started its call to b. That loop once took the next
  // request's calls for its own and started b a second time for it, uncancelled.
  it('calls b once for each request whose call to a did not fail at once', () => {
    const rec = simulate(loadScenario(`
name: fan-reentry
horizon: 2m
clients:
  u:
    clients: 1000
    arrivals: { kind: constant, rate: 30/s }
    retry: { maxAttempts: 1, timeout: 100s }
server:
  slots: 1
  queue: unbounded
  serviceTime: { kind: constant, value: 1ms }
  routes:
    default:
      fanOut: parallel
      services:
        - service: a
        - service: b
services:
  a: { slots: 100, serviceTime: { kind: constant, value: 20ms } }
  b: { slots: 100, serviceTime: { kind: constant, value: 20ms } }
faults:
  - { kind: reset, service: a, at: 0s, duration: 10m, probability: 0.5, when: before }
`, 'fan.yaml').base, 1);
    const tier = (n: string) => rec.tiers!.find((t) => t.name === n)!.totals;
    const a = tier('a'), b = tier('b');
    expect(a.calls).toBeGreaterThan(1000);
    expect(a.callsFailed).toBeGreaterThan(0.4 * a.calls);
    expect(b.calls).toBe(a.calls - a.callsFailed);
  });
});

describe('a fan-in that cancels the calls it no longer needs', () => {
  // fast (1 ms) and slow (10 ms, healthy) in parallel, fanIn 1: fast answers first, and the
  // call to slow is cancelled. A cancelled call has no outcome: slow's breaker must not count
  // it as a failure. It once did, opened within 10 calls and let through only its probes.
  it('leaves the slower service\'s breaker closed: every call reaches it', () => {
    const rec = simulate(loadScenario(`
name: fan-in-cancel
horizon: 5m
clients:
  users:
    arrivals: { kind: constant, rate: 20/s }
server:
  slots: 1000
  serviceTime: { kind: constant, value: 1ms }
  routes:
    default:
      services:
        - { service: fast }
        - { service: slow, retry: { maxAttempts: 1, timeout: 10s, breaker: { window: { calls: 20 }, minimumCalls: 10, failureRateThreshold: 0.5, openFor: 60s } } }
      fanOut: parallel
      fanIn: 1
services:
  fast: { slots: 1000, serviceTime: { kind: constant, value: 1ms } }
  slow: { slots: 1000, serviceTime: { kind: constant, value: 10ms } }
`, 'fan.yaml').base, 1);
    const slow = rec.tiers!.find((t) => t.name === 'slow')!.totals;
    expect(rec.totals.actionsOk).toBe(rec.totals.actionsStarted);
    expect(rec.totals.actionsStarted).toBeGreaterThan(5000);
    expect(slow.attempts).toBe(rec.totals.actionsStarted); // the breaker never refused one
    expect(slow.served).toBe(slow.attempts);
  });
});
