/**
 * A shared rate-limit store with a capacity (stage `rate-limit`, `storeCapacity`): it serves
 * one check at a time, each taking 1 / capacity, in arrival order, so under the Poisson
 * arrivals of an open population it is an M/D/1 queue, whose mean wait is
 * Pollaczek-Khinchine's Wq = rho / (2 mu (1 - rho)). Past `storeTimeout` a check is a store
 * failure: it never runs at the store, and onStoreFailure decides.
 *
 * The limiter here never refuses (a token bucket of a million per second), so every refusal
 * is the store's doing, and the server has room for everything (1000 slots, 1 ms of work).
 */
import { describe, it, expect } from 'vitest';
import { run, failures, sum } from '../client/harness.js';
import { summarize } from '../../../src/measures/summarize.js';

const world = (rate: string, store: string, horizon = '5m') => `
name: store-queue
horizon: ${horizon}
clients:
  users:
    clients: 1000
    arrivals: { kind: constant, rate: ${rate} }
    retry: { maxAttempts: 1 }
server:
  slots: 1000
  serviceTime: { kind: constant, value: 1ms }
  stages:
    - { kind: rate-limit, key: global, limit: { algorithm: token-bucket, rate: 1000000/s, burst: 1000000 }, store: shared, ${store} }
`;

/** M/D/1 mean wait in queue: rho / (2 mu (1 - rho)). */
const mdOneWait = (lambda: number, mu: number) => {
  const rho = lambda / mu;
  return rho / (2 * mu * (1 - rho));
};

describe('a shared store with a capacity queues the checks (M/D/1)', () => {
  for (const [lambda, tol] of [[500, 0.02], [800, 0.03]] as const) {
    it(`at rho = ${lambda / 1000} the mean wait is rho / (2 mu (1 - rho)) = ${(mdOneWait(lambda, 1000) * 1000).toFixed(2)} ms, within ${tol * 100}%, over three seeds`, () => {
      for (const seed of [1, 2, 3]) {
        const r = run(world(`${lambda}/s`, 'storeCapacity: 1000/s'), seed);
        const s = r.rateLimits![0].sharedStore!;
        expect(s.checks).toBeGreaterThan(lambda * 290);
        expect(s.timeouts).toBe(0);
        const mean = s.waitS / s.checks;
        expect(Math.abs(mean / mdOneWait(lambda, 1000) - 1), `seed ${seed}: ${mean}`).toBeLessThan(tol);
        // The measure in summary.json reads the same number.
        expect(summarize(r).measures.rateLimitStoreWaitMeanS).toBeCloseTo(mean, 12);
        expect(summarize(r).measures.rateLimitStoreTimeouts).toBe(0);
      }
    });
  }

  it('the wait is part of every answer: a check takes the round trip + its wait + 1/capacity', () => {
    const r = run(world('800/s', 'storeCapacity: 1000/s, storeLatency: 2ms', '2m'));
    const s = r.rateLimits![0].sharedStore!;
    // One attempt per action: mean action time = 2 ms + mean wait + 1 ms (store) + 1 ms (work).
    const mean = r.actionTimes[0].timeS / r.actionTimes[0].ended;
    expect(mean).toBeCloseTo(0.004 + s.waitS / s.checks, 5);
  });

  it('without a capacity nothing waits (0, not null), as before', () => {
    const r = run(world('800/s', 'storeLatency: 1ms', '30s'));
    expect(r.rateLimits![0].sharedStore!.waitS).toBe(0);
    expect(summarize(r).measures.rateLimitStoreWaitMeanS).toBe(0);
  });
});

describe('a store shared with other work (storeLoad)', () => {
  it('the checks wait as in an M/D/1 queue loaded by everything: 100/s of ours and 700/s of others at 1000/s wait rho / (2 mu (1 - rho)) = 2 ms, within 5%', () => {
    for (const seed of [1, 2]) {
      const r = run(world('100/s', 'storeCapacity: 1000/s, storeLoad: 700/s'), seed);
      const s = r.rateLimits![0].sharedStore!;
      expect(s.checks).toBeGreaterThan(29_000);
      expect(Math.abs(s.waitS / s.checks / mdOneWait(800, 1000) - 1), `seed ${seed}`).toBeLessThan(0.05);
    }
  });

  it('others beyond the capacity hold the queue near the timeout: checks wait most of it, and the share over capacity times out', () => {
    // 100/s of ours + 1,000/s of others at 1,000/s: 1 in 11 of all operations times out; a
    // check that runs waited at most (20 - 1 - 1) ms, and 2 ms without the others (test above).
    const r = run(world('100/s', 'storeCapacity: 1000/s, storeLoad: 1000/s, storeLatency: 1ms, storeTimeout: 20ms, onStoreFailure: closed', '2m'));
    const s = r.rateLimits![0].sharedStore!;
    expect(s.timeouts / (s.checks + s.timeouts)).toBeCloseTo(1 / 11, 1);
    expect(s.waitS / s.checks).toBeGreaterThan(0.01);
    expect(s.waitMaxS).toBeLessThanOrEqual(0.018 + 1e-9);
  });
});

describe('past storeTimeout a check is a store failure, handled by onStoreFailure', () => {
  // 1,500 checks/s at a store that serves 1,000/s for 60 s: it runs 1,000 a second and the
  // rest time out; the queue never holds more than the timeout allows, (50 - 1 - 1) ms x 1000/s = 48.
  const overload = (mode: string) => run(world('1500/s', `storeCapacity: 1000/s, storeLatency: 1ms, storeTimeout: 50ms, onStoreFailure: ${mode}`, '1m'));

  it('closed: every timed-out check is a 429, the others pass; the store runs exactly its capacity', () => {
    const r = overload('closed');
    const rl = r.rateLimits![0];
    const s = rl.sharedStore!;
    expect(s.checks).toBeGreaterThanOrEqual(60_000);
    expect(s.checks).toBeLessThanOrEqual(60_000 + 49);
    expect(s.checks + s.timeouts).toBe(r.totals.attempts);
    expect(rl.refused).toBe(s.timeouts);
    // Each 429 reaches its client 50 ms after it was sent: those of the last 50 ms are still on their way.
    expect(failures(r.series, 'rate-limited')).toBeLessThanOrEqual(s.timeouts);
    expect(failures(r.series, 'rate-limited')).toBeGreaterThan(s.timeouts - 1500 * 0.05 * 1.5);
    // The longest wait is what the timeout leaves: 50 ms - 1 ms round trip - 1 ms service.
    expect(s.waitMaxS).toBeLessThanOrEqual(0.048 + 1e-9);
    expect(s.waitMaxS).toBeGreaterThan(0.047);
    expect(summarize(r).measures.rateLimitStoreTimeouts).toBe(s.timeouts);
    // A third of the checks: (1500 - 1000) / 1500, to within Poisson noise.
    expect(s.timeouts / r.totals.attempts).toBeCloseTo(1 / 3, 2);
  });

  it('open: the timed-out checks pass after the timeout, nothing is refused', () => {
    const r = overload('open');
    const rl = r.rateLimits![0];
    expect(rl.sharedStore!.timeouts).toBeGreaterThan(25_000);
    expect(rl.refused).toBe(0);
    expect(failures(r.series, 'rate-limited')).toBe(0);
  });

  it('local: the timed-out checks fall to the instance\'s own limiter, a second count beside the store\'s', () => {
    // A fixed window of 200 a second. The store runs 1,000 checks a second and lets 200 of
    // them through; the ~500 a second that time out meet the instance's own window of 200,
    // which lets 200 more through: 400 a second in all, twice what fail-closed lets through.
    // (Up to 49 checks sent before 60 s run after it, in a window of their own.)
    const limited = (mode: string) => {
      const r = run(world('1500/s', `storeCapacity: 1000/s, storeLatency: 1ms, storeTimeout: 50ms, onStoreFailure: ${mode}`, '1m')
        .replace('token-bucket, rate: 1000000/s, burst: 1000000', 'fixed-window, limit: 200, window: 1s'));
      const rl = r.rateLimits![0];
      return rl.checked - rl.refused;
    };
    const local = limited('local');
    const closed = limited('closed');
    expect(closed).toBeGreaterThanOrEqual(60 * 200);
    expect(closed).toBeLessThanOrEqual(60 * 200 + 49);
    expect(local).toBeGreaterThanOrEqual(2 * 60 * 200);
    expect(local).toBeLessThanOrEqual(2 * 60 * 200 + 49);
  });
});

describe('the store\'s settings are checked where they are written', () => {
  const yaml = (x: string) => world('1/s', '', '1m').replace('store: shared, ', x);
  it('refuses a store load without a capacity, and store settings on a local store', () => {
    expect(() => run(yaml('store: shared, storeLoad: 10/s'))).toThrow(/x\.yaml:\d+:\d+ +server\.stages\[0\]\.storeLoad: storeLoad shares the store's capacity: give storeCapacity too/);
    expect(() => run(yaml('storeCapacity: 10/s'))).toThrow(/server\.stages\[0\]\.storeCapacity: storeCapacity describes a shared store: write store: shared/);
    expect(() => run(yaml('storeTimeout: 10ms'))).toThrow(/server\.stages\[0\]\.storeTimeout: storeTimeout describes a shared store/);
    expect(() => run(yaml('store: shared, storeCapacity: 0/s'))).toThrow(/storeCapacity: must be more than 0\/s/);
  });
});
