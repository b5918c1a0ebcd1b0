/**
 * A provider's quota shared by routes, and our defences in front of it
 * (src/model/server/dependencies.ts): the mechanism of story 003 (signup-flood), on a world
 * small enough for the quick suite. Signup floods at 30 actions/s, login asks 5/s, both call
 * `auth`, whose quota is 600 calls a minute (10/s); one try each, buckets of 10 s, 5 minutes.
 * The story's own outcome, at its size, is in scenarios/signup-flood-attack.slow.test.ts.
 */
import { describe, it, expect } from 'vitest';
import { run, sum } from '../client/harness.js';
import type { RunRecord } from '../../../src/model/series.js';

const world = (auth: string) => `
name: quota
horizon: 5m
measures: { bucket: 10s }
clients:
  signup:
    clients: 100000
    arrivals: { kind: constant, rate: 30/s }
    identity: { route: signup }
    retry: { timeout: 1s }
  login:
    clients: 1000
    arrivals: { kind: constant, rate: 5/s }
    identity: { route: login }
    retry: { timeout: 1s }
server:
  slots: 100
  serviceTime: { kind: constant, value: 10ms }
  routes: { signup: { calls: [auth] }, login: { calls: [auth] } }
  dependencies:
    auth: { quota: { limit: 600, window: 1m }${auth} }
`;

const routeOk = (r: RunRecord, route: string) => sum(r.series.routeActionsOk[r.routes.indexOf(route)]);
const routeShare = (r: RunRecord, route: string) => {
  const i = r.routes.indexOf(route);
  const ok = sum(r.series.routeActionsOk[i]);
  return ok / (ok + sum(r.series.routeActionsFailed[i]));
};

describe('a quota shared by two routes', () => {
  const undefended = run(world(', alertAt: [0.5]'));

  it('undefended, the flood spends each minute\'s quota in its first 17 seconds and login fails with it', () => {
    const q = undefended.quotas[0];
    // 5 windows of 600 calls: the provider accepted that many and refused every other call
    // (one try each, so one call per action).
    expect(sum(undefended.series.dependencyCalls[0])).toBe(5 * 600);
    expect(q.providerRefused).toBe(undefended.totals.attempts - 5 * 600);
    expect(q.peakWindowUse).toBe(1);
    expect(q.guardRefused).toBe(0);
    // Login gets its share of the first 600/35 s of each minute: about 17/60.
    expect(routeShare(undefended, 'login')).toBeGreaterThan(0.22);
    expect(routeShare(undefended, 'login')).toBeLessThan(0.36);
    // The alert at half the quota: 300 calls at 35/s, about 8.6 s into the first window.
    expect(q.alerts).toHaveLength(1);
    expect(q.alerts[0].firstS!).toBeGreaterThan(7);
    expect(q.alerts[0].firstS!).toBeLessThan(10.5);
  });

  it('a guard at 90% with half of it reserved for login keeps login whole and refuses signup itself', () => {
    const r = run(world(', guard: { budget: 0.9, reserve: { login: 0.5 } }'));
    const q = r.quotas[0];
    expect(routeShare(r, 'login')).toBe(1);
    // Signup may call while the minute's use is under the unreserved 270 (login's calls
    // count too, so it gets about 230 a minute); the guard refuses the rest of it, and the
    // provider refuses nothing.
    expect(routeOk(r, 'signup')).toBeLessThanOrEqual(5 * 270);
    expect(routeOk(r, 'signup')).toBeGreaterThan(5 * 200);
    expect(q.guardRefused).toBe(sum(r.series.routeActionsFailed[r.routes.indexOf('signup')]));
    expect(q.providerRefused).toBe(0);
    expect(q.peakWindowUse).toBeLessThanOrEqual(0.9);
  });

  it('a bulkhead caps a route at its share of the quota; the rest is left to the others', () => {
    const r = run(world(', guard: { budget: 1, bulkheads: { signup: 0.1 } }'));
    expect(routeOk(r, 'signup')).toBe(5 * 60);
    expect(routeShare(r, 'login')).toBe(1);
    expect(r.quotas[0].providerRefused).toBe(0);
  });

  it('failing login over to local validation after a 429 spares it without spending the quota', () => {
    const r = run(world(', failover: { routes: [login], openFor: 1m }'));
    const q = r.quotas[0];
    // Login calls the provider until the first refusal, about 17 s in; from then on the
    // breaker stays open (each minute brings new refusals from signup before the last one's
    // minute is over) and login is validated locally, off the quota.
    expect(routeShare(r, 'login')).toBe(1);
    expect(q.failedOver).toBeLessThan(routeOk(r, 'login'));
    expect(q.failedOver).toBeGreaterThan(routeOk(r, 'login') - 17 * 5 * 1.5);
    expect(routeOk(undefended, 'login')).toBeLessThan(routeOk(r, 'login') / 2);
  });
});

describe('a dependency\'s capacity (a connection pool)', () => {
  // 50 actions/s (Poisson), each holding a db connection for its 100 ms of service: an offered
  // load of 5 on a pool of 2 that refuses at once when full, Erlang's loss system. Erlang B:
  // B(5, 2) = 12.5 / 18.5 = 0.676 are refused, so 50 x 0.324 = 16.2/s get through. From 1 to
  // 2 minutes an operator switches the route to its fallback (no db call), then back.
  const r = run(`
name: pool
horizon: 3m
measures: { bucket: 10s }
clients:
  u:
    clients: 10000
    arrivals: { kind: constant, rate: 50/s }
    retry: { maxAttempts: 1, timeout: 1s }
server:
  slots: 100
  serviceTime: { kind: constant, value: 100ms }
  routes: { default: { calls: [db] } }
  dependencies:
    db: { capacity: 2 }
actions:
  - { name: local, when: { at: 1m }, do: { kind: fallback, dependency: db } }
  - { name: back, when: { at: 2m }, do: { kind: undo, action: local } }
`);
  const okPerS = (from: number, to: number) => sum(r.series.attemptsOk, from / 10, to / 10) / (to - from);

  it('holds at its size before and after a fallback: a request validated locally takes no connection and gives none back', () => {
    expect(okPerS(10, 60)).toBeGreaterThan(15);
    expect(okPerS(10, 60)).toBeLessThan(17.5);
    expect(okPerS(70, 120)).toBeGreaterThan(47); // the fallback: every request, no pool
    expect(okPerS(70, 120)).toBeLessThan(53);
    // Back on the db, the pool is 2 again (it once counted the fallback's requests as given
    // back, went below zero, and let everything through for a long while).
    expect(okPerS(130, 180)).toBeGreaterThan(15);
    expect(okPerS(130, 180)).toBeLessThan(17.5);
  });
});
