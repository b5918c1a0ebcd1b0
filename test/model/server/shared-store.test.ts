/**
 * A rate limit kept in a shared store (stage `rate-limit`, `store: shared`): every check is a
 * round trip to the store, `storeLatency`, whatever the store answers. A refused request gets
 * its 429 after the round trip, as an allowed one goes on after it; the refusal used to reach
 * the client at once, so a refused request looked faster than the store can answer.
 *
 * The world makes the expected times closed forms: 100 requests/s (one every 10 ms, none
 * retried) against a fixed window of 50 per second, so exactly half are refused; a served
 * request takes a constant 10 ms in a server that never queues. An action's time is then the
 * store's round trip, plus 10 ms when it was served.
 */
import { describe, it, expect } from 'vitest';
import { run, failures, sum } from '../client/harness.js';
import type { RunRecord } from '../../../src/model/series.js';

const world = (store: string, extra = '') => `
name: shared-store
horizon: 2m
clients:
  users:
    clients: 1000
    arrivals: { kind: constant, rate: 100/s }
    retry: { maxAttempts: 1${extra} }
server:
  slots: 100
  serviceTime: { kind: constant, value: 10ms }
  rejectionCost: 1ms
  stages:
    - { kind: rate-limit, key: global, limit: { algorithm: fixed-window, limit: 50, window: 1s }, ${store} }
`;

/** Mean time from an action's start to its end (one attempt each here). */
const meanActionS = (r: RunRecord) => r.actionTimes[0].timeS / r.actionTimes[0].ended;

describe('a shared store: its round trip is paid by every answer', () => {
  it('with a 200 ms round trip a refused request waits 200 ms for its 429, a served one 210 ms', () => {
    const r = run(world('store: shared, storeLatency: 200ms'));
    const ended = r.actionTimes[0].ended;
    const refused = failures(r.series, 'rate-limited');
    expect(ended).toBeGreaterThan(11_000);
    // Half refused (50 of each second's 100), to within the first and last windows.
    expect(refused / ended).toBeCloseTo(0.5, 2);
    // Mean = 0.2 s for everyone + 10 ms for the served half = 0.205 s; refusals at once would give 0.105 s.
    expect(meanActionS(r)).toBeCloseTo(0.205, 4);
  });

  it('a store kept locally answers its refusals at once: 0 s for a 429, 10 ms for the served', () => {
    const r = run(world('store: local'));
    expect(meanActionS(r)).toBeCloseTo(0.005, 4);
  });

  it('a refusal whose client stopped waiting still costs the server its rejection work, and reaches nobody', () => {
    // The client gives up after 100 ms, before the store's 200 ms answer: every action times out.
    const r = run(world('store: shared, storeLatency: 200ms', ', timeout: 100ms'));
    expect(r.totals.actionsOk).toBe(0);
    expect(failures(r.series, 'rate-limited')).toBe(0);
    // The server still refused half the requests (1 ms each), one second's 50 per second, as before.
    const refusals = r.totals.workS - r.totals.served * 0.01;
    expect(refusals / 0.001 / sum(r.series.attempts)).toBeCloseTo(0.5, 2);
  });
});
