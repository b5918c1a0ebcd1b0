/**
 * A load spike is a trigger like an outage (issue 11): "does the service come back after a
 * 5-second surge to 3x?" has a recovery time. The world: 200 actions/s on 5 slots of 20 ms
 * (80% busy), a FIFO queue, clients that wait 1 s. The surge queues about 2,000 attempts (8 s
 * of work), so for a while every caller times out.
 *
 * Without retries the queue drains at the 50/s of spare capacity and the users are served
 * again about 30 s after the surge. With 4 quick attempts each timed-out action sends 4, the
 * queue never drains, and the server works on requests nobody waits for: a metastable
 * failure that a 5-second spike started and nothing ends.
 */
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../src/scenario/load.js';
import { runOne } from '../../src/experiment/run-one.js';

const world = (retry: string) => `
name: spike
horizon: 4m
measures: { bucket: 5s }
clients:
  users:
    arrivals: { kind: constant, rate: 200/s }
    retry: ${retry}
server: { slots: 5, serviceTime: { kind: exponential, mean: 20ms } }
faults:
  - { kind: surge, at: 1m, duration: 5s, factor: 3 }
`;

const run = (retry: string) => runOne(loadScenario(world(retry), 'spike.yaml').base, 'v', 0, 1);

describe('recovery after a 5-second surge to 3x', () => {
  const off = run('{ maxAttempts: 1, timeout: 1s }');
  const aggressive = run('{ maxAttempts: 4, timeout: 1s, backoff: { kind: constant, base: 10ms } }');

  it('is measured from the end of the surge', () => {
    expect(off.faults).toEqual([{ kind: 'surge', startS: 60, endS: 65 }]);
    // Healthy before the spike: the ranking would not call a broken world recovered.
    expect(off.summary.measures.preFaultSuccessRatio).toBeGreaterThan(0.99);
  });

  it('without retries the queue drains and users are served again about half a minute after it', () => {
    const m = off.summary.measures;
    expect(m.recovered).toBe(1);
    // About 2,000 queued attempts drained at the 50/s of spare capacity: 30 to 40 s.
    expect(m.recoveryTimeS!).toBeGreaterThanOrEqual(20);
    expect(m.recoveryTimeS!).toBeLessThanOrEqual(45);
    expect(m.peakLoadMultiple!).toBeGreaterThan(2.7);
    expect(m.peakLoadMultiple!).toBeLessThan(3.3);
  });

  it('with 4 quick attempts it does not come back before the horizon: the retries keep the queue growing', () => {
    const m = aggressive.summary.measures;
    expect(m.recovered).toBe(0);
    expect(m.recoveryTimeS).toBeNull();
    // Users see it down from the spike to the end of the run (3 minutes).
    expect(m.perceivedOutageS!).toBeGreaterThanOrEqual(170);
    expect(m.peakLoadMultiple!).toBeGreaterThan(5);
    const queue = aggressive.columns.queue_len;
    expect(queue[queue.length - 1]).toBeGreaterThan(10 * Math.max(...queue.slice(12, 14)));
  });
});
