/**
 * What each operator effect does to a running world, and that `undo` takes it back
 * (src/model/operator/effects.ts). Two populations of 20 actions/s on their own routes, one
 * try each with a 1 s timeout, against a server with room to spare; buckets of 10 s.
 */
import { describe, it, expect } from 'vitest';
import { run, sum, failures } from '../client/harness.js';
import { FAILURE_CAUSES, type FailureCause, type RunRecord } from '../../../src/model/series.js';

const world = (actions: string, opts: { server?: string; a?: string; horizon?: string; extra?: string } = {}) => `
name: effects
horizon: ${opts.horizon ?? '5m'}
measures: { bucket: 10s }
clients:
  a:
    clients: 1000
    arrivals: { kind: constant, rate: 20/s }
    identity: { route: a, version: "1.0" }
    retry: ${opts.a ?? '{ timeout: 1s }'}
  b:
    clients: 1000
    arrivals: { kind: constant, rate: 20/s }
    identity: { route: b, version: "2.0" }
    retry: { timeout: 1s }
server:
${opts.server ?? '  slots: 100\n  serviceTime: { kind: constant, value: 10ms }'}
${opts.extra ?? ''}
actions:
${actions}
`;

/** Buckets [fromS, toS) of 10 s. */
const range = (fromS: number, toS: number): [number, number] => [fromS / 10, toS / 10];
const routeOk = (r: RunRecord, route: string, fromS: number, toS: number) => sum(r.series.routeActionsOk[r.routes.indexOf(route)], ...range(fromS, toS));
const routeEnded = (r: RunRecord, route: string, fromS: number, toS: number) =>
  routeOk(r, route, fromS, toS) + sum(r.series.routeActionsFailed[r.routes.indexOf(route)], ...range(fromS, toS));
const share = (r: RunRecord, route: string, fromS: number, toS: number) => routeOk(r, route, fromS, toS) / routeEnded(r, route, fromS, toS);
const failed = (r: RunRecord, cause: FailureCause, fromS: number, toS: number) => sum(r.series.failures[FAILURE_CAUSES.indexOf(cause)], ...range(fromS, toS));

describe('block at the edge', () => {
  it('answers a blocked population 403 (cause "blocked") until undone, and leaves the others alone', () => {
    const r = run(world(`  - { name: block-a, when: { at: 1m }, do: { kind: block, population: a } }
  - { when: { at: 3m }, do: { kind: undo, action: block-a } }`));
    expect(r.actions.map((x) => [x.name, x.kind, x.atS])).toEqual([['block-a', 'block', 60], ['undo-2', 'undo', 180]]);
    expect(share(r, 'a', 0, 60)).toBe(1);
    expect(routeOk(r, 'a', 70, 180)).toBe(0);
    expect(failed(r, 'blocked', 60, 180)).toBe(routeEnded(r, 'a', 60, 180));
    expect(failed(r, 'blocked', 180, 300)).toBe(0);
    expect(share(r, 'a', 190, 300)).toBe(1);
    expect(share(r, 'b', 0, 300)).toBe(1);
    // The server never saw the blocked requests: its work is the served ones' only.
    expect(r.totals.served).toBe(r.totals.actionsOk);
  });

  it('drops without an answer when asked: the clients time out after 1 s', () => {
    const r = run(world('  - { when: { at: 1m }, do: { kind: block, population: a, answer: drop } }'));
    expect(failed(r, 'blocked', 0, 300)).toBe(0);
    expect(failed(r, 'timeout', 70, 300)).toBe(routeEnded(r, 'a', 70, 300));
    expect(routeEnded(r, 'a', 70, 300)).toBeGreaterThan(4000);
  });

  it('blocks app versions below a minimum, and a share of the IP addresses', () => {
    const byVersion = run(world('  - { when: { at: 0s }, do: { kind: block, versionBelow: "2.0" } }'));
    expect(routeOk(byVersion, 'a', 0, 300)).toBe(0);
    expect(share(byVersion, 'b', 0, 300)).toBe(1);
    const byIp = run(world('  - { when: { at: 0s }, do: { kind: block, population: a, ips: 0.3 } }'));
    const blocked = 1 - share(byIp, 'a', 0, 300);
    expect(blocked).toBeGreaterThan(0.22);
    expect(blocked).toBeLessThan(0.38);
    expect(share(byIp, 'b', 0, 300)).toBe(1);
  });
});

describe('routes and stages', () => {
  it('switches a route off (503, cause "disabled") and back on', () => {
    const r = run(world(`  - { name: off, when: { at: 1m }, do: { kind: disable-route, route: b } }
  - { when: { at: 2m }, do: { kind: undo, action: off } }`));
    expect(routeOk(r, 'b', 70, 120)).toBe(0);
    expect(failed(r, 'disabled', 60, 120)).toBe(routeEnded(r, 'b', 60, 120));
    expect(share(r, 'b', 120, 300)).toBe(1);
    expect(share(r, 'a', 0, 300)).toBe(1);
  });

  it('adds a rate limit, replaces it with a looser one, then removes it', () => {
    const limit = (rate: string) => `{ kind: rate-limit, key: route, routes: [a], limit: { algorithm: token-bucket, rate: ${rate}, burst: 50 } }`;
    const r = run(world(`  - { when: { at: 1m }, do: { kind: add-stage, stage: ${limit('5/s')} } }
  - { when: { at: 2m }, do: { kind: replace-stage, stage: rate-limit, with: ${limit('10/s')} } }
  - { when: { at: 3m }, do: { kind: remove-stage, stage: rate-limit } }`));
    // Each new bucket starts full (50 tokens): about (20 x 60 - 5 x 60 - 50) / 60 = 14.2/s
    // refused, then (1200 - 600 - 50) / 60 = 9.2/s, then none.
    expect(failed(r, 'rate-limited', 0, 60)).toBe(0);
    expect(failed(r, 'rate-limited', 60, 120) / 60).toBeGreaterThan(13);
    expect(failed(r, 'rate-limited', 60, 120) / 60).toBeLessThan(15.5);
    expect(failed(r, 'rate-limited', 120, 180) / 60).toBeGreaterThan(8);
    expect(failed(r, 'rate-limited', 120, 180) / 60).toBeLessThan(10.5);
    expect(failed(r, 'rate-limited', 180, 300)).toBe(0);
    expect(share(r, 'b', 0, 300)).toBe(1);
  });

  it('undoing an add-stage whose stage was replaced since, then the replacement, leaves neither', () => {
    const limit = (rate: string) => `{ kind: rate-limit, key: route, routes: [a], limit: { algorithm: token-bucket, rate: ${rate}, burst: 1 } }`;
    const r = run(world(`  - { name: add, when: { at: 1m }, do: { kind: add-stage, stage: ${limit('5/s')} } }
  - { name: swap, when: { at: 2m }, do: { kind: replace-stage, stage: rate-limit, with: ${limit('10/s')} } }
  - { when: { at: 3m }, do: { kind: undo, action: add } }
  - { when: { at: 4m }, do: { kind: undo, action: swap } }`));
    // Undoing add at 3m leaves swap's looser limit in force (the stage add put in is gone);
    // undoing swap at 4m then does not bring add's stage back: it was undone.
    // (Refusals run above arrivals minus the limit: a refused try is retried.)
    expect(failed(r, 'rate-limited', 60, 120) / 60).toBeGreaterThan(13);
    expect(failed(r, 'rate-limited', 190, 240) / 50).toBeGreaterThan(10);
    // It once put add's stage back when swap was undone, and refused 15/s to the end.
    expect(failed(r, 'rate-limited', 240, 300)).toBe(0);
  });

  it('puts a removed stage back on undo', () => {
    const r = run(world(`  - { name: rm, when: { at: 1m }, do: { kind: remove-stage, stage: rate-limit } }
  - { when: { at: 2m }, do: { kind: undo, action: rm } }`, {
      server: '  slots: 100\n  serviceTime: { kind: constant, value: 10ms }\n  stages: [{ kind: rate-limit, key: route, routes: [a], limit: { algorithm: token-bucket, rate: 5/s, burst: 1 } }]',
    }));
    expect(failed(r, 'rate-limited', 0, 60) / 60).toBeGreaterThan(13);
    expect(failed(r, 'rate-limited', 60, 120)).toBe(0);
    expect(failed(r, 'rate-limited', 120, 180) / 60).toBeGreaterThan(13);
  });
});

describe('the Retry-After contract', () => {
  it('changes what clients that honour it wait: 1 s, then 10 s between tries', () => {
    // No slot is ever free and there is no queue: every attempt is refused at once (503).
    const r = run(world('  - { when: { at: 2m }, do: { kind: retry-after, retryAfter: { kind: fixed, after: 10s } } }', {
      a: '{ maxAttempts: 1000, backoff: { kind: none }, retryAfter: { mode: honour } }',
      server: '  slots: 1\n  queue: 0\n  serviceTime: { kind: constant, value: 1h }\n  overload: { retryAfter: { kind: fixed, after: 1s } }',
    }));
    // None of route a's actions ends (1,000 tries): 20/s arrive and all stay, so about 20 t
    // are live at time t. Retries per live action and second: 1 before, 0.1 after.
    const perLive = (fromS: number, toS: number) => sum(r.series.retries, ...range(fromS, toS)) / (toS - fromS) / (20 * (fromS + toS) / 2);
    expect(perLive(60, 120)).toBeGreaterThan(0.9);
    expect(perLive(60, 120)).toBeLessThan(1.1);
    expect(perLive(240, 300)).toBeGreaterThan(0.08);
    expect(perLive(240, 300)).toBeLessThan(0.12);
  });
});

describe('capacity', () => {
  it('scales instances and slots, and undo restores each as it was', () => {
    const r = run(world(`  - { name: out, when: { at: 1m }, do: { kind: scale, instances: 3 } }
  - { name: up, when: { at: 2m }, do: { kind: scale, slots: 50 } }
  - { when: { at: 3m }, do: { kind: undo, action: up } }
  - { when: { at: 4m }, do: { kind: undo, action: out } }`));
    const slots = (fromS: number) => r.series.slots[fromS / 10];
    expect([slots(0), slots(60), slots(120), slots(180), slots(240)]).toEqual([100, 300, 150, 300, 100]);
    expect(r.actions.filter((x) => x.kind === 'scale').map((x) => x.instances)).toEqual([3, 3]);
    expect(r.totals.actionsFailed).toBe(0);
  });

  it('undoing an earlier scale leaves a later one in force, and undoing both gives back the original capacity', () => {
    // 1 instance of 100 slots; a: 2 instances at 1m, b: 4 at 2m; a undone at 3m, b at 4m. Undo
    // once put back the value from before its own action: undoing a cancelled b (1 instance
    // from 3m), and undoing b then left a's 2 instances though a was undone.
    const r = run(world(`  - { name: a, when: { at: 1m }, do: { kind: scale, instances: 2 } }
  - { name: b, when: { at: 2m }, do: { kind: scale, instances: 4 } }
  - { when: { at: 3m }, do: { kind: undo, action: a } }
  - { when: { at: 4m }, do: { kind: undo, action: b } }`));
    const slots = (fromS: number) => r.series.slots[fromS / 10];
    expect([slots(0), slots(60), slots(120), slots(180), slots(240)]).toEqual([100, 200, 400, 400, 100]);
  });

  it('an instance taken out of the balancer finishes its queue before its slots go', () => {
    // 2 instances of 1 slot at 100 ms (20/s) see 6 actions/s, and 36/s during a surge from
    // 40 s to 60 s: each instance queues about 160. At 1m one instance leaves the balancer
    // and serves its queue (16 s) before its slot goes.
    const r = run(world('  - { when: { at: 1m }, do: { kind: scale, instances: 1 } }', {
      server: '  instances: 2\n  slots: 1\n  serviceTime: { kind: constant, value: 100ms }',
      extra: 'faults: [{ kind: surge, at: 40s, duration: 20s, factor: 6 }]',
    }).replace(/rate: 20\/s/g, 'rate: 3/s'));
    expect(r.series.slots[5]).toBe(2);
    expect(r.series.queueLen[5]).toBeGreaterThan(100);
    expect(r.series.slots[6]).toBe(2); // draining from 1m…
    expect(r.series.slots[7]).toBeGreaterThan(1);
    expect(r.series.slots[7]).toBeLessThan(2);
    expect(Array.from(r.series.slots.slice(8))).toEqual(Array(22).fill(1)); // …then one instance is left
    // Nothing was lost: every attempt that reached the server was served.
    expect(r.totals.served).toBe(r.totals.attempts - Math.round(r.series.queueLen[29]));
  });
});

describe('dependencies and clients', () => {
  it('switches a dependency\'s routes to the fallback by hand, and back', () => {
    const r = run(world(`  - { name: local, when: { at: 1m }, do: { kind: fallback, dependency: auth } }
  - { when: { at: 3m }, do: { kind: undo, action: local } }`, {
      server: '  slots: 100\n  serviceTime: { kind: constant, value: 10ms }\n  routes: { a: { calls: [auth] } }\n  dependencies: { auth: { quota: { limit: 100000, window: 1m }, outages: [{ at: 0s, duration: 1h }] } }',
    }));
    expect(routeOk(r, 'a', 0, 60)).toBe(0);
    expect(share(r, 'a', 60, 180)).toBe(1);
    // A request that called at 2m59.99s finishes in the bucket from 3m: judge from 3m10s.
    expect(routeOk(r, 'a', 190, 300)).toBe(0);
    expect(r.quotas[0].failedOver).toBe(routeOk(r, 'a', 0, 300));
  });

  it('flips a population\'s remote switch: from then on its layer tries once', () => {
    const r = run(world('  - { when: { at: 2m }, do: { kind: remote-switch, population: a, maxAttempts: 1 } }', {
      a: '{ maxAttempts: 5, backoff: { kind: none } }',
      extra: 'faults: [{ kind: dependency-down, at: 0s, duration: 1h }]',
    }));
    const attemptsPerAction = (fromS: number, toS: number) => sum(r.series.attempts, ...range(fromS, toS)) / sum(r.series.actionsStarted, ...range(fromS, toS));
    // a tries 5 times, b once: (5 + 1) / 2 before; (1 + 1) / 2 after.
    expect(attemptsPerAction(0, 120)).toBeCloseTo(3, 1);
    expect(attemptsPerAction(130, 300)).toBeCloseTo(1, 1);
  });
});

describe('restart', () => {
  it('clears a queue of requests nobody waits for, counting what it loses, and can warm up', () => {
    // Two slots at 100 ms (20/s) offered 40 actions/s: the queue grows by 20/s, its callers give up after 1 s.
    const r = run(world('  - { when: { at: 2m }, do: { kind: restart, warmup: { duration: 10s, capacity: 0.5 } } }', {
      server: '  slots: 2\n  serviceTime: { kind: constant, value: 100ms }',
    }));
    const lost = r.series.lostAttempts[12];
    expect(r.totals.lostAttempts).toBe(lost);
    expect(lost).toBeGreaterThan(2200); // two minutes of the excess: about 2,400
    expect(r.series.queueLen[12]).toBeLessThan(r.series.queueLen[11] / 5);
    // Half the slots at first, floor(2 x (0.5 + 0.5 t / 10 s)): one slot until the warm-up ends at 2m10s.
    expect([r.series.slots[11], r.series.slots[12], r.series.slots[13]]).toEqual([2, 1, 2]);
    expect(r.actions).toMatchObject([{ kind: 'restart', atS: 120 }]);
  });
});

describe('undo', () => {
  it('of an action that has not taken effect does nothing, and says so', () => {
    const r = run(world(`  - { when: { at: 1m }, do: { kind: undo, action: later } }
  - { name: later, when: { at: 2m }, do: { kind: block, population: a } }`));
    expect(r.actions[0]).toMatchObject({ name: 'undo-1', kind: 'undo', atS: 60, note: expect.stringMatching(/nothing to undo: "later" has not taken effect/) });
    expect(r.actions[1]).toMatchObject({ name: 'later', atS: 120 });
    expect(r.actions[1].note).toBeUndefined();
    expect(routeOk(r, 'a', 130, 300)).toBe(0);
  });
});
