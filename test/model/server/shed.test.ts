/**
 * Load shedding on a signal (the `shed` stage, src/model/server/stages.ts): one slot at
 * 100 ms (10/s) offered 15 actions/s, so without shedding the queue only grows. Shedding on
 * the queue's length or on its oldest attempt's wait holds the queue near the threshold and
 * refuses the excess; `retriesOnly` leaves first tries alone.
 */
import { describe, it, expect } from 'vitest';
import { run, sum, failures } from '../client/harness.js';
import { positionedProblems } from '../../helpers/positioned-problems.js';

const world = (stages: string, retry = '{ maxAttempts: 1 }') => `
name: shed
horizon: 10m
measures: { bucket: 10s }
clients:
  app:
    clients: 10000
    arrivals: { kind: constant, rate: 15/s }
    behaviour: { attemptHeader: true }
    identity: { idempotencyKeys: true }
    retry: ${retry}
server:
  slots: 1
  serviceTime: { kind: exponential, mean: 100ms }
  stages: ${stages}
`;

const maxQueue = (r: ReturnType<typeof run>) => Math.max(...r.series.queueLen);

describe('shed', () => {
  it('without it the queue grows without bound', () => {
    const r = run(world('[]'));
    expect(maxQueue(r)).toBeGreaterThan(2000);
    expect(failures(r.series, 'shed')).toBe(0);
  });

  it('on queue length: the queue stays at the threshold and the excess is refused', () => {
    const r = run(world('[{ kind: shed, queueAbove: 20 }]'));
    expect(maxQueue(r)).toBeLessThanOrEqual(21);
    // 15/s offered, 10/s served (the slot is never idle with 20 queued): 5/s shed.
    const shedPerS = failures(r.series, 'shed') / 600;
    expect(shedPerS).toBeGreaterThan(4.5);
    expect(shedPerS).toBeLessThan(5.5);
  });

  it('on queueing delay: what is admitted waits a few seconds, not more', () => {
    const r = run(world('[{ kind: shed, waitAbove: 2s }]'));
    // Admitted while the oldest has waited under 2 s, a request has at most 2 s of arrivals
    // (15/s) ahead of it: about 30 attempts, 3 s of service.
    expect(maxQueue(r)).toBeLessThan(40);
    const q = sum(r.series.queueLen, 6) / (r.series.n - 6);
    expect(q).toBeGreaterThan(15);
    expect(q).toBeLessThan(35);
    expect(failures(r.series, 'shed') / 600).toBeGreaterThan(4.5);
  });

  it('a share sheds that share of requests above the threshold', () => {
    const all = run(world('[{ kind: shed, queueAbove: 20 }]'));
    const half = run(world('[{ kind: shed, queueAbove: 20, share: 0.5 }]'));
    // Half the excess is let in and queues: the queue grows past the threshold and more is shed in all.
    expect(maxQueue(half)).toBeGreaterThan(maxQueue(all));
    expect(failures(half.series, 'shed')).toBeGreaterThan(0);
  });

  it('retriesOnly never sheds a first try: without retries nothing is shed', () => {
    const detect = '{ kind: retry-detection, window: 60s }';
    const none = run(world(`[${detect}, { kind: shed, queueAbove: 20, retriesOnly: true }]`, '{ maxAttempts: 1, timeout: 3s }'));
    expect(failures(none.series, 'shed')).toBe(0);
    expect(maxQueue(none)).toBeGreaterThan(1000);
    const retrying = run(world(`[${detect}, { kind: shed, queueAbove: 20, retriesOnly: true }]`, '{ maxAttempts: 3, timeout: 3s, backoff: { kind: constant, base: 1s } }'));
    expect(failures(retrying.series, 'shed')).toBeGreaterThan(1000);
    expect(failures(retrying.series, 'shed')).toBeLessThanOrEqual(sum(retrying.series.retries));
  });

  it('needs one signal, and a retry detector in front of retriesOnly', () => {
    expect(positionedProblems(world('[{ kind: shed, queueAbove: 20, waitAbove: 1s }]'))).toEqual([
      '15:12 server.stages[0]: give either queueAbove (queue length) or waitAbove (queueing delay) as the signal',
    ]);
    expect(positionedProblems(world('[{ kind: shed, queueAbove: 20, retriesOnly: true }]'))).toEqual([
      '15:55 server.stages[0].retriesOnly: retriesOnly sheds requests detected as retries: put a retry-detection stage before this one',
    ]);
  });
});
