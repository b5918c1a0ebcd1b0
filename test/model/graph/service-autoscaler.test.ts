/**
 * An autoscaler on a service of the graph (not only on the edge): api, 1 instance of 4 slots
 * x 100 ms (40/s), is called at 60/s. Its autoscaler reads api's own utilisation every 30 s
 * and orders ceil(instances x utilisation / target) instances, which take traffic 30 s
 * later; the edge, which has no autoscaler, stays as it is.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import type { RunRecord } from '../../../src/model/series.js';

function run(autoscaler: string): RunRecord {
  return simulate(loadScenario(`
name: service-autoscaler
horizon: 5m
measures: { bucket: 10s }
clients:
  users:
    clients: 1000
    arrivals: { kind: constant, rate: 60/s }
    retry: { maxAttempts: 1, timeout: 2s }
server:
  slots: 200
  serviceTime: { kind: constant, value: 1ms }
  routes:
    default:
      services: [ { service: api, retry: { maxAttempts: 1, timeout: 1s } } ]
services:
  api:
    slots: 4
    queue: 100
    serviceTime: { kind: constant, value: 100ms }
${autoscaler}
`, 'service-autoscaler.yaml').base, 2);
}

const api = (r: RunRecord) => r.tiers!.find((t) => t.name === 'api')!.totals;

describe("a service's own autoscaler", () => {
  const fixed = run('');
  const scaled = run('    autoscaler: { metric: utilisation, target: 0.5, max: 4, every: 30s, provisioning: 30s, cooldown: 1m }');

  it('orders instances from the service\'s own utilisation: busy at 30 s, 2 instances at 60 s', () => {
    const decisions = scaled.actions.filter((a) => a.name === 'autoscaler api');
    expect(decisions.length).toBeGreaterThan(0);
    expect(scaled.actions.some((a) => a.name === 'autoscaler')).toBe(false); // the edge has none
    const first = decisions[0];
    expect(first.atS).toBe(60);
    expect(first.instances).toBe(2);
    expect(first.trigger).toMatchObject({ kind: 'autoscaler', metric: 'utilisation', decidedAtS: 30 });
    // 60/s offered to 40/s: every slot busy, so ceil(1 instance x 1 / 0.5) = 2.
    expect(first.trigger.kind === 'autoscaler' && first.trigger.value).toBeGreaterThan(0.99);
    expect(decisions.at(-1)!.instances).toBeGreaterThanOrEqual(2);
    expect(decisions.at(-1)!.instances).toBeLessThanOrEqual(4);
  });

  it("adds the service's capacity, so the users' calls stop failing", () => {
    // Fixed: 4 slots for the whole run, 4 x 300 slot-seconds; scaled: at least 2 instances from 60 s.
    expect(api(fixed).capacityS).toBeCloseTo(1200, 6);
    expect(api(scaled).capacityS).toBeGreaterThan(1200 + 4 * 240 - 1);
    // From 80 s (the 2nd instance took traffic at 60 s, the backlog is gone): nothing fails,
    // where the fixed service, its queue full of calls whose callers gave up, serves none in time.
    const from80 = (xs: Float64Array) => xs.slice(8).reduce((a, b) => a + b, 0);
    expect(from80(scaled.series.actionsFailed)).toBe(0);
    expect(from80(scaled.series.actionsOk)).toBeGreaterThan(0.95 * 60 * 220);
    expect(from80(fixed.series.actionsOk)).toBeLessThan(0.05 * from80(fixed.series.actionsFailed));
  });
});
