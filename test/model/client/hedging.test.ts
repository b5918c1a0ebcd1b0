/**
 * Hedged requests (layer option `hedge`, src/model/client/hedging.ts): while a try's
 * attempt is still out after a delay, another goes out; the first success wins and the
 * others are cancelled, though the server still does their work.
 *
 * The partial outage: two instances behind a random balancer, 200 actions/s, a constant
 * service time S = 10 ms on 20 slots each, and instance 0 paused (stop-the-world) for
 * P = 10 s: it keeps accepting requests and serves none. Half the requests of the window
 * land on it and wait for the pause to end. With hedges d = 100 ms apart (far above the
 * healthy latency, so a healthy run sends none), a request that arrived with r of the
 * pause left sends hedge k at k d if r > k d and its k - 1 hedges also landed on the paused
 * instance (probability 1/2 each). So, per action of the window:
 *   attempts = 1 + 1/2 sum_{k=1..h} (1/2)^(k-1) (P - k d) / P       (1.495 for h = 1, 1.74 for h = 2)
 * and the wait of a stuck request, integrated over its arrival:
 *   E[wait | r] = sum_{k <= min(h, r/d)} (1/2)^k (k d + S) + (1/2)^min(h, floor(r/d)) r
 * plus, for those still waiting when the pause ends, their place in the backlog the instance
 * then drains at 2,000/s (primaries and stuck hedges, FIFO): on average half of it.
 * Every hedge is work done for nothing: the loser's full service time, so the wasted work
 * is exactly (attempts - actions) x S once the backlog is served.
 */
import { describe, it, expect } from 'vitest';
import { failures, run, sum } from './harness.js';
import { positionedProblems } from '../../helpers/positioned-problems.js';
import type { RunRecord } from '../../../src/model/series.js';

const LAMBDA = 200, P = 10, D = 0.1, S = 0.01, DRAIN = 2000;

const world = (hedge: string, opts: { faults?: string; horizon?: string; service?: string } = {}) => `
name: hedge
horizon: ${opts.horizon ?? '120s'}
measures: { bucket: 1s }
clients:
  app:
    arrivals: { kind: constant, rate: ${LAMBDA}/s }
    retry: { timeout: none${hedge} }
server:
  instances: 2
  loadBalancer: random
  slots: 20
  serviceTime: ${opts.service ?? '{ kind: constant, value: 10ms }'}
faults: ${opts.faults ?? '[]'}
`;
const PAUSE = '[{ kind: pause, at: 60s, duration: 10s, instance: 0 }]';

/** Attempts per action started in the pause window [60 s, 70 s). */
const loadInPause = (r: RunRecord) => sum(r.series.attempts, 60, 70) / sum(r.series.actionsStarted, 60, 70);
/** Summed response time of the run's actions. */
const totalWait = (r: RunRecord) => r.actionTimes[0].timeS;

/** The derivation above: attempts per action of the window, and the excess wait of the stuck requests (s), for h hedges. */
function derived(h: number): { load: number; excess: number } {
  let load = 1;
  for (let k = 1; k <= h; k++) load += 0.5 * 0.5 ** (k - 1) * (P - k * D) / P;
  const n = 100_000;
  let wait = 0;
  for (let i = 0; i < n; i++) {
    const r = P * (i + 0.5) / n;
    const m = Math.min(h, Math.floor(r / D));
    let e = 0;
    for (let k = 1; k <= m; k++) e += 0.5 ** k * (k * D + S);
    wait += e + 0.5 ** m * r;
  }
  const stuck = LAMBDA * P / 2;
  const awaited = stuck * 0.5 ** h;
  const backlog = stuck * (2 - 0.5 ** h); // each stuck request's primary and its hedges that also got stuck
  return { load, excess: stuck * wait / n + awaited * backlog / (2 * DRAIN) };
}

describe('hedged requests: healthy', () => {
  it('at a 5% budget with a p95 delay, the load grows by at most about 5%, and latency does not get worse', () => {
    const service = '{ kind: exponential, mean: 10ms }';
    const plain = run(world('', { horizon: '10m', service }));
    const hedged = run(world(', hedge: { delay: p95, budget: 0.05 }', { horizon: '10m', service }));
    const load = (r: RunRecord) => r.totals.attempts / r.totals.actionsStarted;
    expect(load(plain)).toBe(1);
    // The budget's bound: 5% of tries, plus the 10 tokens it starts with (0.01% of 120,000).
    expect(load(hedged)).toBeLessThanOrEqual(1.0501);
    // And it is spent: the observed p95 is of the attempts that were answered (a slow one
    // that lost to its hedge is never seen), so more than 5% of tries outlive it.
    expect(load(hedged)).toBeGreaterThan(1.045);
    expect(totalWait(hedged)).toBeLessThan(totalWait(plain));
  });

  it('a delay no healthy request reaches sends no hedge at all', () => {
    const r = run(world(', hedge: { delay: 100ms, budget: 1 }'));
    expect(r.totals.attempts).toBe(r.totals.actionsStarted);
    expect(r.totals.wastedWorkS).toBe(0);
  });
});

describe('hedged requests: one of two instances paused', () => {
  const none = run(world('', { faults: PAUSE }));
  const healthy = run(world(''));
  const excess = (r: RunRecord) => totalWait(r) - totalWait(healthy);

  it('without hedges, the stuck half waits out the pause: lambda P^2 / 4 plus the drain', () => {
    expect(loadInPause(none)).toBe(1);
    const d = derived(0).excess; // 5,000 s + 250 s of drain
    expect(d).toBeCloseTo(5250, -1);
    // The stuck count is Poisson-split (1,000 +- 32): 5% covers it.
    expect(Math.abs(excess(none) - d) / d).toBeLessThan(0.05);
  });

  it.each([1, 2])('with %i hedge(s) of ample budget: the load and the stuck tail are the derived ones', (h) => {
    const r = run(world(`, hedge: { delay: 100ms, budget: 1, maxHedges: ${h} }`, { faults: PAUSE }));
    const d = derived(h);
    expect(Math.abs(loadInPause(r) - d.load) / d.load).toBeLessThan(0.02);
    // Relative to the unhedged run of the same seed (same arrivals, so the split's noise
    // mostly cancels): 0.52 of it with one hedge, 0.28 with two. The derivation leaves out
    // the requests that land on the instance while it drains (~0.5-0.9 s of arrivals), which
    // is why the runs sit up to 8% above it.
    const ratio = excess(r) / excess(none);
    const expected = d.excess / derived(0).excess;
    expect(ratio).toBeGreaterThan(expected * 0.97);
    expect(ratio).toBeLessThan(expected * 1.1);
    // The server still does the losers' work: one service time per hedge sent.
    const hedges = r.totals.attempts - r.totals.actionsStarted;
    expect(Math.abs(r.totals.wastedWorkS - hedges * S) / (hedges * S)).toBeLessThan(0.01);
  });

  it('a first try won by its hedge is an original request served (every user is, here: one try, no timeout)', () => {
    const r = run(world(', hedge: { delay: 100ms, budget: 1, maxHedges: 2 }', { faults: PAUSE }));
    // Actions started before 100 s all end well inside the 120 s horizon, each on its only
    // try: the share of first tries served is 1, whichever attempt of the try won. Counted
    // by the winning attempt's number instead, the pause's tries won by a hedge (about 75%
    // of the stuck half, 750 of the window's 2,000) read as originals not served.
    const served = sum(r.series.firstTriesOk, 0, 100) / sum(r.series.firstTries, 0, 100);
    expect(sum(r.series.firstTries, 60, 70)).toBeGreaterThan(1900);
    expect(served).toBe(1);
    expect(sum(r.fine.firstTriesOk, 0, 100)).toBe(sum(r.fine.firstTries, 0, 100));
  });

  it('a hedged retry is not a first try: only the tries that were their action\'s first count, whichever attempt won', () => {
    // Every attempt during a 10 s dependency outage is answered 503 at once, so the first tries
    // sent then fail (no hedge is sent: nothing is left out) and are retried 20 s later, hedged
    // and served. Counted as first tries, those retries would double the served count of 80-90 s.
    const r = run(world(', maxAttempts: 2, backoff: { kind: constant, base: 20s, jitter: none }, hedge: { delay: 100ms, budget: 1 }', { faults: '[{ kind: dependency-down, at: 60s, duration: 10s }]' }));
    const f = r.fine;
    expect(sum(r.series.retries, 80, 90)).toBeGreaterThan(1900);
    for (let i = 0; i < 110; i++) expect(f.firstTriesOk[i], `second ${i}`).toBeLessThanOrEqual(f.firstTries[i]);
    expect(sum(f.firstTriesOk, 60, 70)).toBe(0);
    // Outside the outage every first try is served.
    expect(sum(f.firstTriesOk, 0, 60) + sum(f.firstTriesOk, 70, 110)).toBe(sum(f.firstTries, 0, 60) + sum(f.firstTries, 70, 110));
  });

  it('at a 5% budget, the load grows by the budget and the tail shrinks by what 5% of hedges can rescue', () => {
    const r = run(world(', hedge: { delay: 100ms, budget: 0.05 }', { faults: PAUSE }));
    // 2,000 tries in the window earn 100 hedges, all wanted by stuck requests.
    expect(loadInPause(r)).toBeGreaterThan(1.045);
    expect(loadInPause(r)).toBeLessThan(1.056);
    // Half of the 100 land on the healthy instance and save the rest of the pause, 5 s on
    // average: 250 s of the 5,250 s, a ratio of 0.95.
    const ratio = excess(r) / excess(none);
    expect(ratio).toBeGreaterThan(0.92);
    expect(ratio).toBeLessThan(0.975);
  });
});

describe('hedged requests: an action given up before its first try', () => {
  // Devices offline from 30 s to 2 min queue their actions, and their users give up on them
  // after 10 s: those actions end without ever starting a (hedged) try. Giving one up must
  // release nothing: it once read the hedge arrays past their end and put attempt record 0 on
  // the free list again and again, so later attempts shared records and timed out against a
  // healthy server.
  const world = (hedge: string) => `
name: hedge-give-up
horizon: 5m
clients:
  u:
    arrivals: { kind: constant, rate: 20/s }
    behaviour: { giveUpAfter: 10s, offline: { from: 30s, to: 2m, flush: at-once } }
    retry: { maxAttempts: 1, timeout: 5s${hedge} }
server:
  slots: 10
  serviceTime: { kind: exponential, mean: 30ms }
`;

  it('leaves the actions that reach the server as they are without hedging', () => {
    const plain = run(world(''));
    const hedged = run(world(', hedge: { delay: 20ms }'));
    // 6,000 actions; those queued offline for more than 10 s are given up (counted as failed),
    // every other one is served by a healthy server (30 ms against a 5 s timeout): none times out.
    expect(plain.totals.actionsStarted).toBe(6000);
    expect(hedged.totals.actionsStarted).toBe(6000);
    // (A hedge may still save an action its user was about to give up on: within 1%.)
    expect(Math.abs(hedged.totals.actionsOk - plain.totals.actionsOk)).toBeLessThanOrEqual(0.01 * plain.totals.actionsOk);
    expect(hedged.totals.actionsOk).toBeGreaterThan(4000);
    expect(failures(hedged.series, 'timeout')).toBe(0);
    expect(Math.abs(hedged.totals.actionsFailed - plain.totals.actionsFailed)).toBeLessThanOrEqual(0.01 * plain.totals.actionsFailed); // the given-up ones
  });
});

describe('hedged requests: bad input', () => {
  const yaml = (layers: string) => `name: t
horizon: 10m
clients:
  app:
    arrivals: { kind: constant, rate: 5/s }
    layers: ${layers}
server: { slots: 4, serviceTime: { kind: constant, value: 10ms } }
`;

  it('points at a delay that is neither a duration nor a percentile', () => {
    expect(positionedProblems(yaml('{ http: { hedge: { delay: soon } } }'))).toEqual([
      expect.stringMatching(/^6:39 clients\.app\.layers\.http\.hedge\.delay: .*; or a latency percentile such as "p95"$/),
    ]);
    expect(positionedProblems(yaml('{ http: { hedge: { delay: p20 } } }'))).toEqual([
      '6:39 clients.app.layers.http.hedge.delay: a hedge percentile is between p50 and p99.9 (got p20): hedging below the median would send most requests twice',
    ]);
  });

  it('points at too many hedges and a budget above 1', () => {
    expect(positionedProblems(yaml('{ http: { hedge: { delay: 50ms, maxHedges: 5 } } }'))).toEqual([expect.stringMatching(/^6:56 clients\.app\.layers\.http\.hedge\.maxHedges: /)]);
    expect(positionedProblems(yaml('{ http: { hedge: { delay: 50ms, budget: 2 } } }'))).toEqual([expect.stringMatching(/^6:53 clients\.app\.layers\.http\.hedge\.budget: /)]);
  });

  it('refuses a hedge on a layer that does not send attempts', () => {
    expect(positionedProblems(yaml('{ app: { maxAttempts: 2, hedge: { delay: 50ms } }, http: {} }'))).toEqual([
      '6:45 clients.app.layers.app.hedge: only the innermost layer (here "http", the one that sends attempts) can hedge: move hedge there',
    ]);
  });
});
