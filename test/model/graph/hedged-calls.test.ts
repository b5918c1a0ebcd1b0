/**
 * Hedging on a call between services: the edge calls api, whose instance 0 stops the world
 * for 300 ms every 2 s (a long garbage collection). A call that lands on it waits out the
 * pause, and those are more than 1% of calls: the users' p99 is a pause. Hedged, as gRPC's
 * hedgingPolicy (maxAttempts 2, hedgingDelay 30 ms) read from a service config says, a call
 * still out after 30 ms is sent again, and the balancer (power of two choices) sends the
 * copy to the instance that is not holding it: the p99 becomes 30 ms + api's 10 ms + the
 * edge's 1 ms, and the median does not move.
 */
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import type { RunRecord } from '../../../src/model/series.js';

const DIR = import.meta.dirname;
const pauses = Array.from({ length: 60 }, (_, k) => `  - { kind: pause, service: api, instance: 0, at: ${k * 2 + 1}s, duration: 300ms }`).join('\n');

function run(call: string): RunRecord {
  const yaml = `
name: hedged-calls
horizon: 2m
clients:
  users:
    clients: 1000
    arrivals: { kind: constant, rate: 50/s }
    retry: { maxAttempts: 1, timeout: 10s }
server:
  slots: 100
  serviceTime: { kind: constant, value: 1ms }
  routes:
    default:
      services: [ { service: api, ${call} } ]
services:
  api:
    instances: 2
    loadBalancer: power-of-two
    slots: 4
    serviceTime: { kind: constant, value: 10ms }
faults:
${pauses}
`;
  return simulate(loadScenario(yaml, resolve(DIR, 'hedged-calls.yaml')).base, 1);
}

const api = (r: RunRecord) => r.tiers!.find((t) => t.name === 'api')!.totals;
const actions = (r: RunRecord) => r.latency[0].actions;

describe('a hedged call to a service with a pausing instance', () => {
  const plain = run('retry: { maxAttempts: 1, timeout: 5s }');
  const grpc = run('retry: { from: { grpc: grpc-hedged-api.json, service: shop.Api } }');

  it("unhedged, the users' p99 is a pause", () => {
    expect(actions(plain).quantile(0.5)).toBeCloseTo(0.011, 3);
    expect(actions(plain).quantile(0.99)).toBeGreaterThan(0.2);
    expect(api(plain).attempts).toBe(api(plain).calls);
  });

  it("hedged as the gRPC hedgingPolicy says, the p99 is hedgingDelay + the call + the edge's own work (41 ms), the median unchanged", () => {
    expect(actions(grpc).quantile(0.5)).toBeCloseTo(0.011, 3);
    // The sketch reads a quantile within 0.4%.
    expect(actions(grpc).quantile(0.99)).toBeGreaterThan(0.041 * 0.99);
    expect(actions(grpc).quantile(0.99)).toBeLessThan(0.041 * 1.01);
    expect(r(grpc)).toBeGreaterThan(0.999); // (the rest still in flight at the horizon)
  });

  it('sends a copy only for the calls still out after 30 ms: a few percent more attempts, one per hedged call at most', () => {
    const extra = api(grpc).attempts - api(grpc).calls;
    expect(extra).toBeGreaterThan(0.01 * api(grpc).calls);
    expect(extra).toBeLessThan(0.05 * api(grpc).calls);
  });
});

/** Share of the users' actions that succeeded. */
function r(rec: RunRecord): number {
  return rec.totals.actionsOk / rec.totals.actionsStarted;
}

describe('hedging in the scenario format', () => {
  it('refuses a hedge on a call layer that does not send attempts', () => {
    expect(() => run('layers: { outer: { maxAttempts: 2, hedge: { delay: 30ms } }, inner: { maxAttempts: 1 } }')).toThrow(
      /server\.routes\.default\.services\[0\]\.layers\.outer\.hedge: only the innermost layer \(here "inner", the one that sends attempts\) can hedge/,
    );
  });
});
