/**
 * The target-tracking autoscaler (src/model/operator/autoscaler.ts) on a surge: 40 actions/s
 * against one instance of 10 slots at 100 ms (40% busy), three times that from 5m to 25m.
 * Target utilisation 0.5, evaluated every 30 s, 1 minute to provision, 2 minutes of cooldown,
 * at most 5 instances.
 */
import { describe, it, expect } from 'vitest';
import { run } from '../client/harness.js';
import type { FiredAction } from '../../../src/model/series.js';
import { positionedProblems } from '../../helpers/positioned-problems.js';

const world = (autoscaler: string, opts: { instances?: number } = {}) => `
name: autoscaler
horizon: 40m
measures: { bucket: 30s }
clients:
  app:
    clients: 10000
    arrivals: { kind: constant, rate: 40/s }
    retry: { timeout: 5s }
server:
  instances: ${opts.instances ?? 1}
  slots: 10
  queue: 1000
  loadBalancer: least-outstanding
  serviceTime: { kind: exponential, mean: 100ms }
  autoscaler: ${autoscaler}
faults:
  - { kind: surge, at: 5m, duration: 20m, factor: 3 }
`;

const SPEC = '{ metric: utilisation, target: 0.5, max: 5, every: 30s, provisioning: 1m, cooldown: 2m }';

type Decision = FiredAction & { trigger: { kind: 'autoscaler'; value: number; decidedAtS: number } };

describe('autoscaler: target tracking', () => {
  const r = run(world(SPEC));
  const steps = r.actions as Decision[];

  it('scales out on the surge and back in after it, recording each change of capacity', () => {
    expect(steps.length).toBeGreaterThanOrEqual(2);
    for (const a of steps) expect(a).toMatchObject({ name: 'autoscaler', kind: 'scale', trigger: { kind: 'autoscaler', metric: 'utilisation' } });
    const peak = Math.max(...steps.map((a) => a.instances!));
    // 120 actions/s need 12 busy slots at 100 ms; at a 0.5 target that is 24 slots: 3 instances.
    expect(peak).toBe(3);
    expect(steps.at(-1)!.instances).toBe(1);
    expect(steps.at(-1)!.atS).toBeGreaterThan(25 * 60);
    expect(steps.at(-1)!.atS).toBeLessThanOrEqual(25 * 60 + 3 * 60);
    // The capacity series follows: 10 slots before, 30 at the peak, 10 again at the end.
    expect(r.series.slots[9]).toBe(10);
    expect(Math.max(...r.series.slots)).toBe(30);
    expect(r.series.slots[r.series.n - 1]).toBe(10);
  });

  it('follows its rule: desired = ceil(instances x utilisation / target), orders arrive after provisioning, decisions a cooldown apart', () => {
    let running = 1;
    let lastDecision = -Infinity;
    for (const a of steps) {
      const desired = Math.min(5, Math.max(1, Math.ceil(running * a.trigger.value / 0.5 - 1e-9)));
      expect(a.instances, `at ${a.atS}`).toBe(desired);
      const growing = a.instances! > running;
      // Scale-outs take traffic a minute after they were decided; scale-ins happen at once.
      expect(a.atS - a.trigger.decidedAtS).toBe(growing ? 60 : 0);
      expect(a.trigger.decidedAtS - lastDecision).toBeGreaterThanOrEqual(120);
      expect(a.trigger.decidedAtS % 30).toBe(0);
      lastDecision = a.trigger.decidedAtS;
      running = a.instances!;
    }
    // The first decision is the first evaluation after the surge starts at 5m.
    expect(steps[0].trigger.decidedAtS).toBe(330);
    expect(steps[0].trigger.value).toBeGreaterThan(0.9);
  });

  it('without it the surge queues up and times out; with it the service keeps up after the first minutes', () => {
    const fixed = run(world(SPEC).replace(/  autoscaler: .*\n/, ''));
    const timeouts = (x: typeof r, from: number, to: number) => x.series.failures[0].slice(from, to).reduce((a, b) => a + b, 0);
    // Buckets of 30 s: 12m to 25m.
    expect(timeouts(fixed, 24, 50)).toBeGreaterThan(10_000);
    expect(timeouts(r, 24, 50)).toBe(0);
  });

  it('does not scale in when told not to', () => {
    const up = run(world(SPEC.replace(' }', ', scaleIn: false }')));
    expect(up.actions.every((a) => a.instances! >= 1)).toBe(true);
    expect((up.actions as Decision[]).at(-1)!.instances).toBe(3);
    expect(up.series.slots[up.series.n - 1]).toBe(30);
  });

  it('tracks a queue per instance too', () => {
    const q = run(world('{ metric: queue, target: 5, max: 4, every: 30s, provisioning: 30s, cooldown: 1m }'));
    expect(Math.max(...q.actions.map((a) => a.instances!))).toBeGreaterThanOrEqual(2);
    expect(q.actions.every((a) => a.instances! <= 4)).toBe(true);
  });

  it('refuses bounds that do not hold the starting size, and a utilisation target above 1', () => {
    expect(positionedProblems(world('{ metric: utilisation, target: 1.5, min: 3, max: 2 }', { instances: 2 }))).toEqual([
      '16:46 server.autoscaler.target: a utilisation target is a busy share between 0 and 1 (got 1.5)',
      '16:56 server.autoscaler.min: the server starts with 2 instance(s), fewer than the autoscaler\'s min (3)',
    ]);
  });
});
