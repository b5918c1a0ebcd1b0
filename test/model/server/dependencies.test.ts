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
import { Dependency } from '../../../src/model/server/dependencies.js';
import { dependencySchema } from '../../../src/scenario/schema-server.js';
import { OUTCOME_DEPENDENCY, OUTCOME_OK, OUTCOME_RATE_LIMITED } from '../../../src/model/outcomes.js';
import { stream } from '../../../src/engine/rng.js';
import type { Recorder } from '../../../src/model/recorder.js';

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

describe('the guard\'s reserves, call by call', () => {
  // A quota of 1000 calls a minute; our budget is 90% of it (900), with 40% of the budget
  // (360 calls) reserved for login and 40% for session; signup has none. The Recorder only
  // counts calls, which these tests do not read.
  const ROUTES = ['signup', 'login', 'session'];
  const SIGNUP = 0, LOGIN = 1, SESSION = 2;
  const guard = (extra = {}) => {
    const spec = dependencySchema.parse({ quota: { limit: 1000, window: '1m' }, guard: { budget: 0.9, reserve: { login: 0.4, session: 0.4 }, ...extra } });
    const rec = { dependencyCall() {} } as unknown as Recorder;
    return new Dependency('auth', 0, spec, ROUTES, rec, stream(1, 'test'));
  };
  /** Calls from `route` at `now` until the guard refuses one (at most `max`): how many it served. */
  const callUntilRefused = (d: Dependency, route: number, now: number, max = 10_000) => {
    for (let n = 0; n < max; n++) {
      const o = d.call(route, now);
      if (o === OUTCOME_RATE_LIMITED) return n;
      expect(o).toBe(OUTCOME_OK);
    }
    return max;
  };

  it('a route without a reserve is served up to the budget less what the reserved routes have not yet used of theirs', () => {
    const d = guard();
    // Login has used 10 of its 360, session 20 of its 360: 350 + 340 are still held for
    // them, so the window's use may reach 900 - 690 = 210, and signups take the 180 of it
    // that login and session have not. (The old rule refused them once the window's total
    // use reached the unreserved 180, so 150.)
    expect(callUntilRefused(d, LOGIN, 1, 10)).toBe(10);
    expect(callUntilRefused(d, SESSION, 2, 20)).toBe(20);
    expect(callUntilRefused(d, SIGNUP, 3)).toBe(180);
    // As login and session spend their reserves, signups get nothing more: what is held
    // shrinks by exactly what they use.
    expect(callUntilRefused(d, LOGIN, 4, 100)).toBe(100);
    expect(callUntilRefused(d, SIGNUP, 5)).toBe(0);
  });

  it('a reserved route is served up to its reserve even when signups came first, and the window turns over', () => {
    const d = guard();
    expect(callUntilRefused(d, SIGNUP, 1)).toBe(180); // 900 - 360 - 360
    // Login takes its own 360; session's 360 is still held, so login gets no more.
    expect(callUntilRefused(d, LOGIN, 2)).toBe(360);
    expect(callUntilRefused(d, SESSION, 3)).toBe(360);
    expect(callUntilRefused(d, SIGNUP, 4)).toBe(0);
    // The next minute is a new window.
    expect(callUntilRefused(d, SIGNUP, 61)).toBe(180);
  });

  it('a reserved route may use its own reserve, the unreserved part and what the other reserve has spent', () => {
    const d = guard();
    expect(callUntilRefused(d, LOGIN, 1)).toBe(540); // 360 of its own + the 180 no one holds
    expect(callUntilRefused(d, SIGNUP, 2)).toBe(0); // session's 360 is still held
    expect(callUntilRefused(d, SESSION, 3)).toBe(360);
    const e = guard();
    expect(callUntilRefused(e, SESSION, 1, 360)).toBe(360);
    expect(callUntilRefused(e, LOGIN, 2)).toBe(540); // session's reserve is spent: the whole rest of the budget
  });

  it('a bulkhead still caps its route below what the reserves leave it', () => {
    const d = guard({ bulkheads: { signup: 0.05, login: 0.1 } });
    expect(callUntilRefused(d, SIGNUP, 1)).toBe(50); // 5% of the quota's 1000
    expect(callUntilRefused(d, LOGIN, 2)).toBe(100); // a bulkhead below the reserve wins
    // Login can never use more than its bulkhead, so only 100 of its reserve is held: session
    // may take everything else, 900 - 150 used.
    expect(callUntilRefused(d, SESSION, 3)).toBe(750);
  });
});

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

  it('a guard at 90% with 60% of it reserved for login keeps login whole and gives signup exactly the rest', () => {
    const r = run(world(', guard: { budget: 0.9, reserve: { login: 0.6 } }'));
    const q = r.quotas[0];
    // Login's 300 calls a minute fit in its reserve of 324 (60% of the budget of 540).
    expect(routeShare(r, 'login')).toBe(1);
    // Signup may use the budget less what login has not yet used of its reserve: whatever
    // login has used by then, that leaves it 540 - 324 = 216 calls each minute, exactly.
    expect(routeOk(r, 'signup')).toBe(5 * 216);
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

describe('a failover that opens on the provider\'s refusal rate (failover.when; story 003: "if the error rate, especially 429s, passes a limit")', () => {
  const rec = { dependencyCall() {} } as unknown as Recorder;
  const SIGNUP = 0, LOGIN = 1;
  /** A quota of 10 calls a minute; signup calls every 0.1 s from 0, `n` times; then login calls once. */
  const loginAfter = (n: number, when?: object) => {
    const spec = dependencySchema.parse({ quota: { limit: 10, window: '1m' }, failover: { routes: ['login'], openFor: '1m', ...(when ? { when } : {}) } });
    const d = new Dependency('auth', 0, spec, ['signup', 'login'], rec, stream(1, 'test'));
    for (let i = 0; i < n; i++) d.call(SIGNUP, 0.1 * i);
    const outcome = d.call(LOGIN, 0.1 * n);
    return { outcome, failedOver: d.failedOver };
  };

  it('a provider outage refuses every call in its window, whatever the quota has left (a spent quota is not one)', () => {
    const spec = dependencySchema.parse({ quota: { limit: 5000, window: '1m' }, outages: [{ at: '10m', duration: '40m' }] });
    const d = new Dependency('auth', 0, spec, ['signup', 'login'], rec, stream(1, 'test'));
    // Every second of the outage, a minute's first seconds included (when a spent quota would serve again).
    const during = Array.from({ length: 2400 }, (_, s) => d.call(LOGIN, 600 + s));
    expect(during.every((o) => o === OUTCOME_DEPENDENCY)).toBe(true);
    expect(d.call(LOGIN, 3000)).toBe(OUTCOME_OK);
  });

  it('without when, the first refusal opens it', () => {
    expect(loginAfter(10)).toEqual({ outcome: OUTCOME_DEPENDENCY, failedOver: 0 }); // 10 served: the quota is spent, no refusal yet
    expect(loginAfter(11)).toEqual({ outcome: OUTCOME_OK, failedOver: 1 }); // one refusal: login validated locally
  });

  it('with when, only once the refused share of the window\'s calls reaches it, among at least minCalls', () => {
    const when = { refusedShare: 0.5, window: '10s', minCalls: 20 };
    // 10 served and 5 refused: a third refused, and 15 calls: still closed, login calls the provider (refused).
    expect(loginAfter(15, when)).toEqual({ outcome: OUTCOME_DEPENDENCY, failedOver: 0 });
    // 10 served and 10 refused: half of 20 calls: open, login validated locally.
    expect(loginAfter(20, when)).toEqual({ outcome: OUTCOME_OK, failedOver: 1 });
    // The same 20 calls with minCalls 30: not enough calls to judge.
    expect(loginAfter(20, { ...when, minCalls: 30 })).toEqual({ outcome: OUTCOME_DEPENDENCY, failedOver: 0 });
  });

  it('a single 429 does not open it; it opens within one window of the refused share crossing its threshold', () => {
    const when = { refusedShare: 0.2, window: '10s', minCalls: 5 };
    // 10 served, then one refused: a single 429 among 11 calls (9%) keeps login on the provider.
    expect(loginAfter(11, when)).toEqual({ outcome: OUTCOME_DEPENDENCY, failedOver: 0 });
    // Signup calls every 0.1 s against a quota of 10 a minute: from the 11th call (1.0 s) every
    // call is refused, and the refused share of the last 10 s crosses 20% at the 13th call
    // (3 of 13, 1.2 s). Login asks every 0.5 s from then on: the first that is failed over
    // comes within one window (10 s) of that crossing.
    const spec = dependencySchema.parse({ quota: { limit: 10, window: '1m' }, failover: { routes: ['login'], openFor: '1m', when } });
    const d = new Dependency('auth', 0, spec, ['signup', 'login'], rec, stream(1, 'test'));
    let openedAt = Infinity;
    for (let i = 0; i < 400 && openedAt === Infinity; i++) {
      const t = 0.1 * i;
      d.call(SIGNUP, t);
      if (i % 5 === 0 && t >= 1.2 && d.call(LOGIN, t) === OUTCOME_OK) openedAt = t;
    }
    expect(openedAt).toBeGreaterThanOrEqual(1.2);
    expect(openedAt).toBeLessThanOrEqual(1.2 + 10);
    expect(d.failedOver).toBe(1);
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
