/**
 * Closed-loop populations (arrivals kind closed): N users, each waiting for the answer to
 * its action and thinking for Z before the next. Such a system obeys the interactive
 * response time law X = N / (R + Z) (Denning and Buzen's operational laws; Jain, "The Art
 * of Computer Systems Performance Analysis", 1991, ch. 33), with X the throughput in
 * actions per second and R the mean response time, whatever the service does; and it
 * throttles itself when the service slows down, where an open-loop population keeps coming.
 */
import { describe, it, expect } from 'vitest';
import { run, sum } from './harness.js';
import { positionedProblems } from '../../helpers/positioned-problems.js';
import type { RunRecord } from '../../../src/model/series.js';

const HORIZON_S = 1800;

/** N users thinking `think`, one population; a server of `slots` slots and an exponential service time of mean `service`. */
const closedWorld = (opts: { users: number; think: string; slots: number; service: string; extra?: string }) => `
name: closed
horizon: ${HORIZON_S}s
measures: { bucket: 10s }
clients:
  users:
    clients: ${opts.users}
    arrivals: { kind: closed, users: ${opts.users}, thinkTime: ${opts.think} }
    retry: { timeout: 30s }
${opts.extra ?? ''}
server: { slots: ${opts.slots}, serviceTime: { kind: exponential, mean: ${opts.service} } }
`;

/** Throughput X (actions ended per second) and mean response time R of the run. */
function law(r: RunRecord): { x: number; r: number } {
  const t = r.actionTimes[0];
  return { x: t.ended / r.horizonS, r: t.timeS / t.ended };
}

describe('closed loop: the interactive response time law', () => {
  it('holds when users abandon their actions after failures (giveUpAfterFailures): each user thinks and acts again', () => {
    // The dependency is down for the whole run: every try fails at once, the layer retries
    // after 1 s, and the user abandons the action at the second failure (1 s in), thinks
    // 1 s and starts the next. An abandoned action once ended nothing: its user never acted
    // again, and 100 actions were all the run ever started.
    const rec = run(`
name: closed-give-up
horizon: 10m
clients:
  u:
    clients: 100
    arrivals: { kind: closed, users: 100, thinkTime: { kind: constant, value: 1s } }
    behaviour: { giveUpAfterFailures: 2 }
    layers:
      app: { maxAttempts: 3, timeout: 5s, backoff: { kind: constant, base: 1s, jitter: none }, retryOn: [5xx], retryable: ignore }
server: { slots: 10, queue: 100, serviceTime: { kind: constant, value: 10ms } }
faults:
  - { kind: dependency-down, at: 0s, duration: 10m }
`);
    const { x, r } = law(rec);
    expect(r).toBeGreaterThanOrEqual(1); // failures are answered at once: 1 s, the backoff
    expect(r).toBeLessThan(1.1);
    expect(Math.abs(x - 100 / (r + 1)) / x).toBeLessThan(0.02);
    expect(rec.totals.actionsStarted).toBeGreaterThan(25_000); // about 600 s x 100 users / 2 s
  });

  it('at light load, throughput is N / (R + Z) within 2%, with R measured from the run', () => {
    // 25 users, Z = 0.5 s, 20 ms of service on 4 slots: utilisation about 0.25.
    const rec = run(closedWorld({ users: 25, think: '{ kind: exponential, mean: 500ms }', slots: 4, service: '20ms' }));
    const { x, r } = law(rec);
    // R is measured: at least the service time, a little more for the queueing at 25% load.
    expect(r).toBeGreaterThan(0.019);
    expect(r).toBeLessThan(0.03);
    const expected = 25 / (r + 0.5);
    expect(Math.abs(x - expected) / expected).toBeLessThan(0.02);
    // ~86,000 actions: the sampling error of Z alone is 0.3%, while users who did not wait
    // for their answer (an open stream at N / Z = 50/s) would be R / Z = 4% above.
    expect(rec.actionTimes[0].ended).toBeGreaterThan(80_000);
    expect(x).toBeLessThan(0.98 * 50);
    // Every action is one attempt: nothing fails at this load.
    expect(rec.totals.actionsFailed).toBe(0);
  });

  it('saturated, the users wait instead: throughput is the server\'s capacity, and R = N / X - Z', () => {
    // 100 users, Z = 1 s, 100 ms of service on 4 slots: at most 40 actions/s, far below
    // N / Z = 100 (the knee is at N* = 4 (D + Z) / D = 44 users).
    const rec = run(closedWorld({ users: 100, think: '{ kind: constant, value: 1s }', slots: 4, service: '100ms' }));
    const { x, r } = law(rec);
    expect(Math.abs(x - 40) / 40).toBeLessThan(0.02);
    // The law again, now with R far above the service time: R = 100 / 40 - 1 = 1.5 s.
    expect(Math.abs(x - 100 / (r + 1)) / x).toBeLessThan(0.02);
    expect(r).toBeGreaterThan(1.4);
    // At most N actions are ever in progress: the queue never holds more than N - slots.
    expect(Math.max(...rec.series.queueLen)).toBeLessThanOrEqual(100 - 4);
  });

  it('mixes with an open population: each keeps its own law', () => {
    const rec = run(closedWorld({
      users: 20,
      think: '{ kind: exponential, mean: 500ms }',
      slots: 8,
      service: '10ms',
      extra: '  open:\n    arrivals: { kind: constant, rate: 30/s }\n    retry: { timeout: 30s }',
    }));
    const users = rec.populations.findIndex((p) => p.name === 'users');
    const open = rec.populations.findIndex((p) => p.name === 'open');
    const started = (i: number) => sum(rec.series.populations[i].actionsStarted) / HORIZON_S;
    // The open stream is Poisson at 30/s (54,000 expected; 4 standard errors is 1.7%).
    expect(Math.abs(started(open) - 30) / 30).toBeLessThan(0.017);
    // The closed users: at most N / Z = 40 per second, less by their response time (~10 ms).
    const x = started(users);
    const r = rec.actionTimes[users].timeS / rec.actionTimes[users].ended;
    expect(x).toBeLessThan(40);
    expect(Math.abs(x - 20 / (r + 0.5)) / x).toBeLessThan(0.02);
  });
});

describe('closed loop: users throttle themselves in an outage', () => {
  // A server of 8 slots at 50 ms (160/s) loses 7 of them for a minute (20/s left). Three
  // tries per action, a 1 s timeout. Closed: 100 users thinking 1 s; open: the same healthy
  // throughput arriving whatever happens.
  const world = (arrivals: string, clients: number) => `
name: outage
horizon: 5m
measures: { bucket: 10s }
clients:
  app:
    clients: ${clients}
    arrivals: ${arrivals}
    retry: { maxAttempts: 3, timeout: 1s, backoff: { kind: constant, base: 100ms, jitter: none } }
server: { slots: 8, serviceTime: { kind: constant, value: 50ms } }
faults:
  - { kind: capacity-cut, at: 2m, duration: 1m, slots: 1 }
`;
  const N = 100, Z = 1, W = 60;

  it('sends a bounded number of attempts, where an open population of the same load piles them up', () => {
    const closed = run(world(`{ kind: closed, users: ${N}, thinkTime: { kind: constant, value: ${Z}s } }`, N));
    // The healthy throughput of the closed users (first 2 minutes), as the open population's rate.
    const healthy = sum(closed.series.actionsStarted, 0, 12) / 120;
    expect(healthy).toBeGreaterThan(90); // N / (R + Z) with R = 50 ms: 95/s
    const open = run(world(`{ kind: constant, rate: ${healthy.toFixed(3)}/s }`, N));
    const inOutage = (r: RunRecord) => sum(r.series.attempts, 12, 18);
    // The hard bound of the closed loop: each user starts at most W / Z + 1 actions in the
    // window (it thinks Z after each), each of at most 3 attempts.
    expect(inOutage(closed)).toBeLessThanOrEqual(3 * N * (W / Z + 1));
    // What it really sends: every try times out (1 s) and most actions make all three, so a
    // user's cycle is about 1 + 0.1 + 1 + 0.1 + 1 + Z = 4.2 s: ~1,400 actions, ~4,300 attempts.
    expect(inOutage(closed)).toBeLessThan(6_000);
    // The open population keeps arriving at 95/s and tries each three times: ~17,000.
    expect(inOutage(open)).toBeGreaterThan(2.5 * inOutage(closed));
    // Closed users start fewer actions while they wait; open ones do not.
    expect(sum(closed.series.actionsStarted, 12, 18) / W).toBeLessThan(0.5 * healthy);
    expect(sum(open.series.actionsStarted, 12, 18) / W).toBeGreaterThan(0.9 * healthy);
    // After the outage the open population's backlog is still being served; the closed one has none.
    expect(Math.max(...closed.series.queueLen.slice(21))).toBeLessThan(Math.max(...open.series.queueLen.slice(21)));
  });
});

describe('closed loop: bad input', () => {
  const yaml = (arrivals: string, faults = '') => `name: t
horizon: 10m
clients:
  app:
    arrivals: ${arrivals}
server: { slots: 4, serviceTime: { kind: constant, value: 10ms } }
${faults}`;

  it('wants users and a think time', () => {
    expect(positionedProblems(yaml('{ kind: closed, thinkTime: { kind: constant, value: 1s } }'))).toEqual([
      '5:5 clients.app.arrivals.users: missing required key "users"',
    ]);
    expect(positionedProblems(yaml('{ kind: closed, users: 10 }'))).toEqual([
      '5:5 clients.app.arrivals.thinkTime: missing required key "thinkTime"',
    ]);
  });

  it('points at users that are not a positive whole number', () => {
    expect(positionedProblems(yaml('{ kind: closed, users: 0, thinkTime: { kind: constant, value: 1s } }'))).toEqual([
      expect.stringMatching(/^5:38 clients\.app\.arrivals\.users: must be at least 1/),
    ]);
  });

  it('refuses a think time of mean 0 (users acting again at the same instant)', () => {
    expect(positionedProblems(yaml('{ kind: closed, users: 10, thinkTime: { kind: constant, value: 0s } }'))).toEqual([
      expect.stringMatching(/^5:53 clients\.app\.arrivals\.thinkTime: the think time must have a mean above 0s/),
    ]);
  });

  it('refuses a surge aimed at a closed population', () => {
    const problems = positionedProblems(yaml('{ kind: closed, users: 10, thinkTime: { kind: constant, value: 1s } }', 'faults:\n  - { kind: surge, at: 1m, duration: 1m, factor: 2, population: app }\n'));
    expect(problems).toEqual([expect.stringMatching(/^8:65 faults\[0\]\.population: "app" is a closed population/)]);
  });

  it('names closed (and after) among the kinds', () => {
    expect(positionedProblems(yaml('{ kind: shut }'))).toEqual([expect.stringMatching(/expected kind: constant, steps, ramp, diurnal, closed, after or trace/)]);
  });
});
