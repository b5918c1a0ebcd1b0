/**
 * Cross-tier amplification (issue 14, must-show): users call an edge, the edge calls an
 * API, the API calls a database, each hop with 3 attempts, and the database always fails.
 * Without deadlines that travel, every hop multiplies: 3 x 3 x 3 = 27 database attempts per
 * user action, even when the users themselves gave up after 1 s. With the deadline carried
 * down (gRPC style), every hop stops at it, and the database sees only the attempts that fit:
 * that count is derived here from the service times and backoffs, not read off the run.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import type { RunRecord } from '../../../src/model/series.js';

const DB_FAIL_S = 0.1; // the database's failing answer holds a slot this long (failFastTime)
const BACKOFF_S = 0.03; // every layer waits this long before a retry (constant, no jitter)
const USER_TRY_S = 0.3; // the users' per-try timeout, when they have one
const USER_DEADLINE_S = 1; // the users' overall deadline, when they have one

function scenario(opts: { userTimeouts: boolean; propagate: boolean }): string {
  const layer = `maxAttempts: 3, backoff: { kind: constant, base: ${BACKOFF_S * 1000}ms, jitter: none }`;
  const user = opts.userTimeouts ? `{ ${layer}, timeout: ${USER_TRY_S * 1000}ms, deadline: ${USER_DEADLINE_S}s }` : `{ ${layer} }`;
  return `
name: cross-tier
horizon: 20m
clients:
  users:
    clients: 10
    arrivals: { kind: steps, steps: [ { at: 0s, rate: 1/min }, { at: 10m, rate: 0/s } ] }
    retry: ${user}
    identity: { sendsDeadline: ${opts.propagate} }
server:
  slots: 100
  serviceTime: { kind: constant, value: 10ms }
  routes:
    default:
      services: [ { service: api, retry: { ${layer} }, propagateDeadline: ${opts.propagate} } ]
services:
  api:
    slots: 100
    serviceTime: { kind: constant, value: 10ms }
    routes:
      default:
        services: [ { service: db, retry: { ${layer} }, propagateDeadline: ${opts.propagate} } ]
  db:
    slots: 100
    serviceTime: { kind: constant, value: 10ms }
    failFastTime: ${DB_FAIL_S * 1000}ms
faults:
  - { kind: error-rate, service: db, at: 0s, duration: 1h, probability: 1, status: 503 }
`;
}

function run(opts: { userTimeouts: boolean; propagate: boolean }): { actions: number; db: number; api: number; edge: number; rec: RunRecord } {
  const rec = simulate(loadScenario(scenario(opts), 'cross-tier.yaml').base, 7);
  const tier = (name: string) => rec.tiers!.find((t) => t.name === name)!.totals.attempts;
  return { actions: rec.totals.actionsStarted, db: tier('db'), api: tier('api'), edge: tier('server'), rec };
}

/**
 * Database attempts per user action, from the scenario's numbers: layer k (0 users, 1 edge
 * to API, 2 API to database) tries while its deadline allows, each try bounded by its
 * per-try timeout and by the deadline; a retry waits BACKOFF_S and is not made when it would
 * start at or past the deadline. A hop whose caller does not pass its deadline down runs on
 * its own clock (Infinity) and all its attempts count, even after its caller left.
 */
function expectedDbAttempts(opts: { userTimeouts: boolean; propagate: boolean }): number {
  const timeout = [opts.userTimeouts ? USER_TRY_S : Infinity, Infinity, Infinity];
  const layer = (k: number, t: number, deadline: number): { n: number; end: number } => {
    let now = t, n = 0;
    for (let tries = 1; ; tries++) {
      if (now >= deadline) return { n, end: now };
      const tryEnd = Math.min(deadline, now + timeout[k]);
      const inner = k === 2 ? { n: 1, end: now + DB_FAIL_S } : layer(k + 1, now, opts.propagate ? tryEnd : Infinity);
      n += inner.n;
      now = Math.min(inner.end, tryEnd);
      if (tries >= 3 || now + BACKOFF_S >= deadline) return { n, end: now };
      now += BACKOFF_S;
    }
  };
  return layer(0, 0, opts.userTimeouts ? USER_DEADLINE_S : Infinity).n;
}


describe('cross-tier amplification: 3 tiers, 3 attempts per hop, the database always failing', () => {
  it('without deadlines, exactly 27 database attempts per user action (and 9 at the API, 3 at the edge)', () => {
    const r = run({ userTimeouts: false, propagate: false });
    expect(r.actions).toBeGreaterThan(5);
    expect(expectedDbAttempts({ userTimeouts: false, propagate: false })).toBe(27);
    expect(r.db).toBe(27 * r.actions);
    expect(r.api).toBe(9 * r.actions);
    expect(r.edge).toBe(3 * r.actions);
    expect(r.rec.totals.actionsFailed).toBe(r.actions);
  });

  it('users who give up after 1 s without passing the deadline down: still 27 (the classic amplification)', () => {
    const r = run({ userTimeouts: true, propagate: false });
    expect(r.actions).toBeGreaterThan(5);
    expect(r.db).toBe(27 * r.actions);
    expect(r.rec.totals.actionsFailed).toBe(r.actions);
  });

  it('with the deadline carried down, strictly fewer: exactly the attempts that fit in the deadline', () => {
    const expected = expectedDbAttempts({ userTimeouts: true, propagate: true });
    expect(expected).toBeLessThan(27);
    expect(expected).toBeGreaterThan(3);
    const r = run({ userTimeouts: true, propagate: true });
    expect(r.actions).toBeGreaterThan(5);
    expect(r.db).toBe(expected * r.actions);
  });
});
