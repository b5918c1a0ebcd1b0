/**
 * Operator actions on a service of the graph (an action's `service`): the alert reads that
 * service's own signal and the effect changes that service. api, 1 instance of 4 slots x
 * 100 ms (40/s) behind a queue of 100, is called at 60/s: its queue is full within seconds.
 * An alert on api's queue (above 50, checked every 10 s, for 10 s: one check) fires at the
 * first check, 10 s, and someone scales api to 3 instances 20 s later, at 30 s.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import type { RunRecord } from '../../../src/model/series.js';

const world = (actions: string) => `
name: service-actions
horizon: 2m
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
actions:
${actions}
`;
const run = (actions: string): RunRecord => simulate(loadScenario(world(actions), 'service-actions.yaml').base, 4);
const api = (r: RunRecord) => r.tiers!.find((t) => t.name === 'api')!.totals;

describe('an action on a service', () => {
  const scaled = run('  - { name: scale-api, service: api, when: { signal: queue, above: 50, for: 10s, after: 20s }, do: { kind: scale, instances: 3 } }');

  it("fires on the service's own queue and scales that service, not the edge", () => {
    expect(scaled.actions).toHaveLength(1);
    const a = scaled.actions[0];
    expect(a).toMatchObject({ name: 'scale-api', kind: 'scale', atS: 30, instances: 3 });
    expect(a.trigger).toMatchObject({ kind: 'signal', signal: 'queue', heldAtS: 10 });
    expect(a.trigger.kind === 'signal' && a.trigger.value).toBeGreaterThan(90); // api's queue, full
    // api: 4 slots for 30 s, then 12: 4 x 30 + 12 x 90 slot-seconds.
    expect(api(scaled).capacityS).toBeCloseTo(4 * 30 + 12 * 90, 6);
    // The edge's 200 slots are as they were.
    expect(scaled.totals.capacityS).toBeCloseTo(200 * 120, 6);
  });

  it('so the calls succeed from the bucket after the new instances took traffic', () => {
    const later = (xs: Float64Array) => xs.slice(5).reduce((x, y) => x + y, 0);
    expect(later(scaled.series.actionsFailed)).toBe(0);
    expect(later(scaled.series.actionsOk)).toBeGreaterThan(0.95 * 60 * 70);
  });
});

describe('actions on a service in the scenario format', () => {
  const problem = (action: string) => {
    try {
      run(action);
    } catch (e) {
      return String(e);
    }
    return 'loaded';
  };

  it('refuses a service nobody declared, and what only the users\' server has', () => {
    expect(problem('  - { service: apii, when: { at: 10s }, do: { kind: scale, instances: 2 } }')).toMatch(/actions\[0\]\.service: no service "apii" \(services: api\)/);
    expect(problem('  - { service: api, when: { at: 10s }, do: { kind: block, population: users } }')).toMatch(/actions\[0\]\.service: a block acts on the users' requests/);
    expect(problem('  - { service: api, when: { signal: load, above: 2 }, do: { kind: scale, instances: 2 } }')).toMatch(/actions\[0\]\.when\.signal: signal load is the users' rate/);
  });

  it("checks what the action names against that service: its instances, stages and routes", () => {
    expect(problem('  - { service: api, when: { at: 10s }, do: { kind: restart, instance: 1 } }')).toMatch(/actions\[0\]\.do\.instance: no instance 1: service api has 1 instance\(s\)/);
    expect(problem('  - { service: api, when: { at: 10s }, do: { kind: remove-stage, stage: shed } }')).toMatch(/no stage of kind shed in the pipeline \(services\.api\.stages has: none/);
    expect(problem('  - { service: api, when: { at: 10s }, do: { kind: disable-route, route: default } }')).toBe('loaded');
    expect(problem('  - { service: api, when: { at: 10s }, do: { kind: disable-route, route: login } }')).toMatch(/actions\[0\]\.do\.route: no route "login" \(routes: default\)/);
  });
});
