/**
 * Partial failures as faults (src/model/faults.ts, instance.ts, frontend.ts): an error rate,
 * added latency, connection resets, a crash with its restart and warm-up, a stop-the-world
 * pause. Each from a fixed seed, on a server that is otherwise healthy.
 */
import { describe, it, expect } from 'vitest';
import { run, sum, failures, histogram } from '../client/harness.js';
import { FAILURE_CAUSES, type RunRecord } from '../../../src/model/series.js';
import { positionedProblems } from '../../helpers/positioned-problems.js';

/** One population of `rate` actions/s, the given retry layers, a roomy server, the given faults; buckets of 10 s. */
const world = (opts: { faults: string; layers?: string; rate?: string; horizon?: string; server?: string; bucket?: string }) => `
name: partial
horizon: ${opts.horizon ?? '10m'}
measures: { bucket: ${opts.bucket ?? '10s'} }
clients:
  app:
    clients: 10000
    arrivals: { kind: constant, rate: ${opts.rate ?? '50/s'} }
    layers: ${opts.layers ?? '{ app: { maxAttempts: 4, backoff: { kind: none } } }'}
server:
${opts.server ?? '  slots: 200\n  serviceTime: { kind: constant, value: 10ms }'}
faults:
${opts.faults}
`;

/** Mean attempts per finished action, and its standard error, from the attempts-per-action histogram. */
function attemptsPerAction(r: RunRecord): { mean: number; se: number } {
  const h = histogram(r);
  let n = 0, s = 0, s2 = 0;
  for (const [k, c] of Object.entries(h)) {
    n += c;
    s += Number(k) * c;
    s2 += Number(k) ** 2 * c;
  }
  const mean = s / n;
  return { mean, se: Math.sqrt((s2 / n - mean * mean) / n) };
}

describe('error-rate', () => {
  it.each([0.1, 0.2, 0.5])('with 3 retries and p = %f, attempts per request are the sum of p^i for i = 0..3', (p) => {
    const r = run(world({ faults: `  - { kind: error-rate, at: 0s, duration: 1h, probability: ${p} }` }));
    const { mean, se } = attemptsPerAction(r);
    const expected = 1 + p + p ** 2 + p ** 3;
    expect(Math.abs(mean - expected)).toBeLessThan(4 * se);
    expect(se).toBeLessThan(0.01); // ~30,000 actions: a tolerance that would see a wrong exponent
    // Each failed attempt answered 500, cause "error"; an action fails when all four did (p^4).
    expect(failures(r.series, 'error')).toBe(r.totals.attempts - sum(r.series.attemptsOk) - inFlight(r));
    expect(r.totals.actionsFailed / (r.totals.actionsOk + r.totals.actionsFailed)).toBeCloseTo(p ** 4, 2);
  });

  it('answers the status and retryable flag it is given: a 503 not retryable is not retried by a layer that honours the flag', () => {
    const r = run(world({
      faults: '  - { kind: error-rate, at: 0s, duration: 1h, probability: 0.5, status: 503, retryable: false }',
      layers: '{ app: { maxAttempts: 4, backoff: { kind: none }, retryable: honour } }',
    }));
    expect(attemptsPerAction(r).mean).toBe(1);
    expect(r.totals.actionsFailed / r.totals.actionsStarted).toBeCloseTo(0.5, 1);
  });

  it('on a dependency: each call fails with p, and the request with it (503)', () => {
    const r = run(world({
      faults: '  - { kind: error-rate, at: 0s, duration: 1h, probability: 0.3, dependency: db }',
      layers: '{ app: { maxAttempts: 1 } }',
      server: '  slots: 200\n  serviceTime: { kind: constant, value: 10ms }\n  routes: { default: { calls: [db] } }\n  dependencies: { db: {} }',
    }));
    const failed = failures(r.series, 'dependency') / r.totals.attempts;
    expect(Math.abs(failed - 0.3)).toBeLessThan(4 * Math.sqrt(0.3 * 0.7 / r.totals.attempts));
  });

  it('only inside its window', () => {
    const r = run(world({ faults: '  - { kind: error-rate, at: 2m, duration: 1m, probability: 0.5 }' }));
    const err = r.series.failures[FAILURE_CAUSES.indexOf('error')];
    expect(sum(err, 0, 12) + sum(err, 18)).toBe(0);
    expect(sum(err, 12, 18)).toBeGreaterThan(2000);
  });
});

/** Attempts still waiting at the horizon (sent, not yet answered): at most a handful. */
function inFlight(r: RunRecord): number {
  const answered = sum(r.series.attemptsOk) + r.series.failures.reduce((x, f) => x + sum(f), 0);
  return r.totals.attempts - answered;
}

describe('reset', () => {
  it('a proxy layer retrying on reset multiplies attempts by (1 - r^m) / (1 - r)', () => {
    for (const [share, m] of [[0.3, 2], [0.3, 3], [0.5, 2]]) {
      const r = run(world({
        faults: `  - { kind: reset, at: 0s, duration: 1h, probability: ${share} }`,
        layers: `{ app: { maxAttempts: 1 }, proxy: { maxAttempts: ${m}, retryOn: [reset] } }`,
      }));
      const { mean, se } = attemptsPerAction(r);
      expect(Math.abs(mean - (1 - share ** m) / (1 - share)), `r=${share} m=${m}`).toBeLessThan(4 * se);
      // Reset before the server saw them: it served only the others.
      expect(Math.abs(r.totals.served / r.totals.attempts - (1 - share))).toBeLessThan(0.01);
    }
  });

  it('after the work: the server serves every attempt, and the answers of a share are lost', () => {
    const r = run(world({
      faults: '  - { kind: reset, at: 0s, duration: 1h, probability: 0.3, when: after }',
      layers: '{ app: { maxAttempts: 1 }, proxy: { maxAttempts: 2, retryOn: [reset] } }',
    }));
    expect(r.totals.served).toBeGreaterThanOrEqual(r.totals.attempts - inFlight(r));
    expect(Math.abs(failures(r.series, 'reset') / r.totals.attempts - 0.3)).toBeLessThan(0.01);
  });

  it('a layer that does not retry resets is not multiplied', () => {
    const r = run(world({ faults: '  - { kind: reset, at: 0s, duration: 1h, probability: 0.3 }', layers: '{ app: { maxAttempts: 3, retryOn: [5xx] } }' }));
    expect(attemptsPerAction(r).mean).toBe(1);
  });
});

describe('latency', () => {
  it('adds to the service time of what starts in its window, on the server or a dependency', () => {
    const add = run(world({ faults: '  - { kind: latency, at: 2m, duration: 2m, add: { kind: constant, value: 90ms } }', layers: '{ app: { maxAttempts: 1 } }' }));
    // 10 ms before and after; 100 ms inside (the histogram's bins are 1% wide).
    expect(add.series.latencyP50S[6]).toBeCloseTo(0.01, 3);
    expect(add.series.latencyP50S[15]).toBeCloseTo(0.1, 2);
    expect(add.series.latencyP50S[30]).toBeCloseTo(0.01, 3);
    // Busy slots follow: 50/s x 100 ms = 5 inside, 0.5 outside.
    expect(add.series.busySlots[15]).toBeCloseTo(5, 0);
    const factor = run(world({ faults: '  - { kind: latency, at: 2m, duration: 2m, factor: 3 }', layers: '{ app: { maxAttempts: 1 } }' }));
    expect(factor.series.latencyP50S[15]).toBeCloseTo(0.03, 3);
    const dep = run(world({
      faults: '  - { kind: latency, at: 2m, duration: 2m, add: { kind: constant, value: 200ms }, dependency: db }',
      layers: '{ app: { maxAttempts: 1 } }',
      server: '  slots: 200\n  serviceTime: { kind: constant, value: 10ms }\n  routes: { default: { calls: [db] } }\n  dependencies: { db: { latency: { kind: constant, value: 20ms } } }',
    }));
    expect(dep.series.latencyP50S[6]).toBeCloseTo(0.03, 3);
    expect(dep.series.latencyP50S[15]).toBeCloseTo(0.23, 2);
  });
});

describe('crash and restart', () => {
  // 20 actions/s served in 1 s each on 40 slots: about 20 busy, a queue only now and then;
  // clients wait up to 30 s. The instance crashes at 60 s and is down for 30 s.
  const server = '  slots: 40\n  queue: 1000\n  serviceTime: { kind: constant, value: 1s }';
  const crash = (extra = '') => world({
    faults: `  - { kind: crash, at: 60s, duration: 30s${extra} }`,
    layers: '{ app: { maxAttempts: 1, timeout: 30s } }',
    rate: '20/s',
    horizon: '4m',
    bucket: '1s',
    server,
  });

  it('loses what was in service and queued, counts it, and answers its callers with a reset', () => {
    const r = run(crash());
    const lost = r.series.lostAttempts;
    expect(sum(lost)).toBe(r.totals.lostAttempts);
    expect(sum(lost, 0, 60) + sum(lost, 61)).toBe(0);
    // About 20 in service at the crash (20/s x 1 s).
    expect(lost[60]).toBeGreaterThan(8);
    expect(lost[60]).toBeLessThan(35);
    // Everyone lost was still waiting and saw a reset at once; so did everyone who arrived
    // in the rest of that second (the only instance is down: connection refused).
    expect(r.series.failures[FAILURE_CAUSES.indexOf('reset')][60]).toBe(lost[60] + r.series.attempts[60]);
    // The elapsed part of their service is wasted work.
    expect(r.series.wastedWorkS[60]).toBeGreaterThan(0);
  });

  it('while down it has no slots and refuses connections (every instance is down), then serves again', () => {
    const r = run(crash());
    expect(Array.from(r.series.slots.slice(61, 90))).toEqual(Array(29).fill(0));
    const resets = r.series.failures[FAILURE_CAUSES.indexOf('reset')];
    expect(sum(resets, 61, 90)).toBe(sum(r.series.attempts, 61, 90));
    expect(r.series.slots[95]).toBe(40);
    expect(sum(r.series.attemptsOk, 100, 200)).toBeGreaterThan(1800);
  });

  it('with answer none its callers hear nothing and time out', () => {
    const r = run(crash(', answer: none'));
    const lost = r.series.lostAttempts[60];
    expect(lost).toBeGreaterThan(8);
    // Only the newcomers refused in that second see a reset.
    expect(r.series.failures[FAILURE_CAUSES.indexOf('reset')][60]).toBe(r.series.attempts[60]);
    expect(r.series.failures[FAILURE_CAUSES.indexOf('timeout')][89]).toBeGreaterThan(0); // 30 s later
  });

  it('with a warm-up, capacity ramps linearly from the given share: floor(40 x (0.25 + 0.75 t / 60 s))', () => {
    const r = run(crash(', warmup: { duration: 60s, capacity: 0.25 }'));
    // Slots in whole numbers, stepping up as t crosses each value; each 1 s bucket holds their time average.
    const slotsAt = (t: number) => Math.floor(40 * (0.25 + (0.75 * t) / 60) + 1e-9);
    for (let b = 90; b < 150; b++) {
      let expected = 0;
      for (let k = 0; k < 1000; k++) expected += slotsAt(b - 90 + (k + 0.5) / 1000) / 1000;
      expect(r.series.slots[b], `bucket ${b}`).toBeCloseTo(expected, 1);
    }
    expect(r.series.slots[90]).toBe(10);
    expect(Array.from(r.series.slots.slice(150, 160))).toEqual(Array(10).fill(40));
    // Fewer slots than callers at first: a queue builds while it warms.
    expect(Math.max(...r.series.queueLen.slice(90, 150))).toBeGreaterThan(50);
  });

  it('with a warm-up that begins inside a capacity cut to 0 slots, it warms with time and takes up its share when the cut ends', () => {
    // The restart (90 s) falls in a cut to no slots (80 s to 120 s): there are no slots to
    // step through, and the warm-up's next step was once computed as 0/0, an event at NaN that
    // ended the run at the restart.
    const r = run(crash(', warmup: { duration: 60s, capacity: 0.25 } }\n  - { kind: capacity-cut, at: 80s, duration: 40s, slots: 0'));
    expect(Array.from(r.series.slots.slice(81, 120))).toEqual(Array(39).fill(0));
    // At 120 s the share is 0.25 + 0.75 x 30/60 = 0.625 of 40 slots, then grows to all 40 at 150 s.
    const slotsAt = (t: number) => Math.floor(40 * (0.25 + (0.75 * t) / 60) + 1e-9);
    expect(r.series.slots[120]).toBeCloseTo(slotsAt(30.5), 0);
    expect(r.series.slots[135]).toBeCloseTo(slotsAt(45.5), 0);
    expect(Array.from(r.series.slots.slice(151, 160))).toEqual(Array(9).fill(40));
    // And the run goes on to its horizon.
    expect(sum(r.series.attemptsOk, 200)).toBeGreaterThan(700); // 20/s over its last 40 s
  });

  it('loses the requests a stage of the crashed instance holds (a leaky bucket\'s queue), as it loses its own queue', () => {
    // 20/s through a leaky bucket draining 10/s on each of two instances (round-robin: 10/s
    // each, so the bucket holds a few requests at a time); instance 0 crashes at 60 s for 60 s.
    // What its bucket held is lost with it (a reset), and nothing the bucket held before the
    // crash lands in the dead instance's queue afterwards: it once did, and waited there
    // for the whole minute.
    const r = run(world({
      faults: '  - { kind: crash, at: 60s, duration: 60s, instance: 0 }',
      layers: '{ app: { maxAttempts: 1, timeout: 1000s } }',
      rate: '20/s',
      horizon: '3m',
      bucket: '5s',
      server: '  instances: 2\n  slots: 10\n  serviceTime: { kind: constant, value: 10ms }\n  stages:\n    - { kind: rate-limit, key: global, limit: { algorithm: leaky-bucket-queue, rate: 10/s, capacity: 2000 } }',
    }));
    expect(r.totals.lostAttempts).toBeGreaterThan(0);
    expect(r.series.lostAttempts[12]).toBe(r.totals.lostAttempts); // all at the crash
    expect(Math.max(...r.series.queueLen.slice(13, 24))).toBeLessThan(1);
  });

  it('with several instances the balancer routes around the one that is down', () => {
    const r = run(world({
      faults: '  - { kind: crash, at: 60s, duration: 30s, instance: 1 }',
      layers: '{ app: { maxAttempts: 1, timeout: 30s } }',
      rate: '20/s',
      horizon: '4m',
      bucket: '1s',
      server: '  instances: 2\n  slots: 20\n  queue: 1000\n  serviceTime: { kind: constant, value: 1s }',
    }));
    expect(r.series.slots[70]).toBe(20);
    expect(r.series.lostAttempts[60]).toBeGreaterThan(3);
    // Only those lost at the crash fail; the others are served by instance 0.
    const resets = r.series.failures[FAILURE_CAUSES.indexOf('reset')];
    expect(sum(resets, 61, 90)).toBe(0);
  });
});

describe('a crash behind a balancer', () => {
  // 4 instances x 10 slots of 100 ms (400/s), 200/s offered: half the capacity. Instance 0 is
  // down from 10 s to 40 s; the 3 left (300/s) still carry the load at two thirds busy, with
  // no queue. A balancer that still counted the crashed instance sent its share to the next
  // one: least-outstanding sent it everything (a crashed instance has nothing outstanding),
  // 10 slots for 200/s, and nothing succeeded; round robin gave the next one twice its share.
  it.each(['least-outstanding', 'round-robin', 'random', 'power-of-two'])('%s spreads the load over the instances that are up', (balancer) => {
    const r = run(world({
      faults: '  - { kind: crash, at: 10s, duration: 30s, instance: 0, answer: none }',
      layers: '{ app: { maxAttempts: 1, timeout: 2s } }',
      rate: '200/s',
      horizon: '60s',
      bucket: '1s',
      server: `  instances: 4\n  loadBalancer: ${balancer}\n  slots: 10\n  queue: unbounded\n  serviceTime: { kind: constant, value: 100ms }`,
    }));
    // The crash loses what instance 0 held (about 5 in service); after that, every action succeeds.
    expect(r.totals.lostAttempts).toBeLessThan(15);
    expect(sum(r.series.attemptsOk, 12, 40)).toBeGreaterThan(0.99 * 200 * 28);
    expect(failures(r.series, 'timeout')).toBeLessThan(15);
    // 20 of the 30 live slots busy on average (one 5th of that at most over the odd second); hardly a queue.
    const busy = sum(r.series.busySlots, 12, 40) / 28;
    expect(busy).toBeGreaterThan(18);
    expect(busy).toBeLessThan(22);
    expect(Math.max(...Array.from(r.series.queueLen).slice(12, 40))).toBeLessThan(5);
  });
});

describe('pause', () => {
  it('stops the instance for its window: nothing completes, arrivals queue, then the work resumes', () => {
    const r = run(world({
      faults: '  - { kind: pause, at: 60s, duration: 10s }',
      layers: '{ app: { maxAttempts: 1 } }',
      rate: '20/s',
      horizon: '3m',
      bucket: '1s',
      server: '  slots: 40\n  serviceTime: { kind: constant, value: 500ms }',
    }));
    // Jobs started before 60 s finish after 70 s, 10 s late: nothing completes in [60.5, 70).
    expect(sum(r.series.attemptsOk, 61, 70)).toBe(0);
    expect(r.series.queueLen[69]).toBeGreaterThan(150);
    expect(sum(r.series.attemptsOk, 70, 80)).toBeGreaterThan(200 - 1);
    expect(r.totals.lostAttempts).toBe(0);
    // Latency of what was caught in it: up to 10.5 s.
    expect(Math.max(...Array.from(r.series.latencyP99S).filter((x) => x === x))).toBeGreaterThan(9);
  });
});

describe('validation', () => {
  it('says where a partial fault is wrong', () => {
    const base = (faults: string) => world({ faults, server: '  slots: 200\n  serviceTime: { kind: constant, value: 10ms }\n  dependencies: { db: {} }' });
    expect(positionedProblems(base('  - { kind: error-rate, at: 0s, duration: 1m, probability: 1.5 }'))).toEqual([
      '15:60 faults[0].probability: a probability is at most 1 (got the number 1.5)',
    ]);
    expect(positionedProblems(base('  - { kind: latency, at: 0s, duration: 1m }'))).toEqual([
      '15:5 faults[0]: give add (a latency added), factor (a multiplier) or both',
    ]);
    expect(positionedProblems(base('  - { kind: crash, at: 0s, duration: 1m, instance: 2 }\n  - { kind: error-rate, at: 0s, duration: 1m, probability: 0.1, dependency: cache }'))).toEqual([
      '15:52 faults[0].instance: no instance 2: the server has 1 instance(s), numbered from 0 to 0',
      '16:77 faults[1].dependency: no dependency "cache" (dependencies: db)',
    ]);
    expect(positionedProblems(base('  - { kind: error-rate, at: 0s, duration: 1m, probability: 0.1 }\n  - { kind: error-rate, at: 2m, duration: 1m, probability: 0.1, status: 503 }'))).toEqual([
      '16:73 faults[1].status: every error-rate fault on the server answers the same status and retryable flag: faults[0] says 500',
    ]);
  });
});
