/**
 * Fair queueing and priority classes in the server's queue (server.fairQueue,
 * src/model/server/fair-queue.ts). One instance of one slot, a constant service time S of
 * 10 ms (100 requests/s), so the expected values are closed forms:
 *  - alone, a Poisson population is an M/D/1 queue: R = S + rho S / (2 (1 - rho));
 *  - beside a flood, under fair queueing, it is served as if it had its share of the server
 *    (generalised processor sharing), to within one request of the flood's in service:
 *    Parekh and Gallager's bound for weighted fair queueing, R <= R_GPS + S_max, where with
 *    two keys of equal weight R_GPS is the M/D/1 response time at service time 2S;
 *  - under a strict priority class, a request waits for the one in service, then for its own
 *    class only (Cobham's non-preemptive priority formula): W = W0 / (1 - rho_1), with
 *    W0 = S / 2 when the flood keeps the server always busy.
 */
import { describe, it, expect } from 'vitest';
import { run, sum } from '../client/harness.js';
import { positionedProblems } from '../../helpers/positioned-problems.js';
import type { RunRecord } from '../../../src/model/series.js';

const S = 0.01;

/** quiet at `quiet`/s and noisy at `noisy`/s, no retries, one slot of constant 10 ms. */
const world = (quiet: number, noisy: number, server = '') => `
name: fq
horizon: 10m
clients:
  quiet:
    arrivals: { kind: constant, rate: ${quiet}/s }
  noisy:
    arrivals: { kind: constant, rate: ${noisy}/s }
server:
  slots: 1
  serviceTime: { kind: constant, value: 10ms }
${server}
`;

/** Mean response time of population i (its actions are single attempts here). */
const R = (r: RunRecord, i: number) => r.actionTimes[i].timeS / r.actionTimes[i].ended;
const md1 = (lambda: number, s: number) => s + (lambda * s * s) / (2 * (1 - lambda * s));

describe('fair queueing', () => {
  it('a population at 10x its share cannot push another\'s latency above what it has alone plus one service time', () => {
    // Two keys of weight 1: each has a share of 50/s. noisy sends 500/s, 10x its share.
    const alone = R(run(world(10, 0.001)), 0);
    expect(Math.abs(alone - md1(10, S)) / md1(10, S)).toBeLessThan(0.02); // 10.6 ms
    const fifo = run(world(10, 500));
    const fair = run(world(10, 500, '  fairQueue: { key: population }'));
    // One line: quiet waits behind the flood's backlog, minutes by the end.
    expect(R(fifo, 0)).toBeGreaterThan(60);
    // Fair: no tolerance needed on the bound. What to expect: the flood keeps the slot busy,
    // so a quiet request waits for the request in service (S / 2 on average, a constant
    // service time seen at a random moment) and, now and then, for a quiet request ahead of
    // it and the flood's request in between: 17 ms here, against the bound's 20.6 ms.
    expect(R(fair, 0)).toBeLessThanOrEqual(alone + S);
    expect(R(fair, 0)).toBeGreaterThan(alone + S / 2 - 0.001);
    // The flood gets every turn quiet leaves: 90/s served, and its backlog is its own.
    expect(fair.actionTimes[1].ended / 600).toBeGreaterThan(89);
    expect(R(fair, 1)).toBeGreaterThan(60);
  });

  it('near its share, a population is served as with its share of the server (GPS), within one service time', () => {
    // quiet at 40/s of its 50/s share: alone it would see rho 0.4; beside the flood it has
    // half the server, an M/D/1 at 2S and rho 0.8: R_GPS = 60 ms, so at most 70 ms.
    const fair = run(world(40, 500, '  fairQueue: { key: population }'));
    const gps = md1(40, 2 * S);
    expect(gps).toBeCloseTo(0.06, 10);
    expect(R(fair, 0)).toBeLessThanOrEqual(gps + S);
    expect(R(fair, 0)).toBeGreaterThan(md1(40, S)); // worse than alone: it has half the server, not all of it
  });

  it('shares turns by weight when every key is backlogged', () => {
    // Both flood (500/s each); weights 3 : 1 give 75/s and 25/s of the 100/s.
    const r = run(world(500, 500, '  fairQueue: { weights: { quiet: 3, noisy: 1 } }'));
    expect(r.actionTimes[0].ended / 600).toBeCloseTo(75, 0);
    expect(r.actionTimes[1].ended / 600).toBeCloseTo(25, 0);
  });

  it('keys by route or tier: populations that share one share its turns', () => {
    // Three populations on two routes: a and b (route api, 300/s each) share a share against c (route admin, 20/s).
    const yaml = `
name: fq
horizon: 5m
clients:
  a: { arrivals: { kind: constant, rate: 300/s }, identity: { route: api } }
  b: { arrivals: { kind: constant, rate: 300/s }, identity: { route: api } }
  c: { arrivals: { kind: constant, rate: 20/s }, identity: { route: admin } }
server:
  slots: 1
  serviceTime: { kind: constant, value: 10ms }
  fairQueue: { key: route }
`;
    const r = run(yaml);
    // admin gets every turn it asks for (20/s of its 50/s share), api the other 80/s between a and b.
    expect(R(r, 2)).toBeLessThan(0.025);
    expect((r.actionTimes[0].ended + r.actionTimes[1].ended) / 300).toBeGreaterThan(79);
  });
});

describe('priority classes', () => {
  it('a paid population first: its latency is Cobham\'s non-preemptive priority wait, whatever the free flood', () => {
    const r = run(world(30, 500, '  fairQueue: { priority: [quiet] }'));
    // W0 = S / 2 (the flood keeps the slot busy), rho_1 = 0.3: W = 5 ms / 0.7 = 7.14 ms, R = 17.14 ms.
    const expected = S + S / 2 / (1 - 30 * S);
    expect(Math.abs(R(r, 0) - expected) / expected).toBeLessThan(0.03);
  });

  it('first tries before retries: a storm that persists on one line ends at once', () => {
    // 70 actions/s on 100/s, 4 tries of 200 ms without backoff; the slot is lost for 10 s.
    // On one line the backlog of retries makes every try time out (4 x 70 = 280/s sent): a
    // metastable storm. With retries behind first tries, first tries see an almost empty line.
    const storm = (server: string) => `
name: storm
horizon: 5m
measures: { bucket: 10s }
clients:
  app:
    arrivals: { kind: constant, rate: 70/s }
    retry: { maxAttempts: 4, timeout: 200ms, backoff: { kind: none } }
server:
  slots: 1
  serviceTime: { kind: constant, value: 10ms }
${server}
faults:
  - { kind: capacity-cut, at: 1m, duration: 10s, slots: 0 }
`;
    const lastMinute = (r: RunRecord) => ({
      firstOk: sum(r.series.firstTriesOk, 24, 30) / sum(r.series.firstTries, 24, 30),
      sent: sum(r.series.attempts, 24, 30) / 60,
    });
    const fifo = lastMinute(run(storm('')));
    const prio = lastMinute(run(storm('  fairQueue: { priority: first-tries }')));
    expect(fifo.firstOk).toBeLessThan(0.05);
    expect(fifo.sent).toBeGreaterThan(250);
    expect(prio.firstOk).toBeGreaterThan(0.99);
    expect(prio.sent).toBeLessThan(72); // the arrivals, and hardly a retry
  });
});

describe('fair queue: bad input', () => {
  const yaml = (fair: string, extra = '') => `name: t
horizon: 10m
clients:
  paid: { arrivals: { kind: constant, rate: 5/s } }
  free: { arrivals: { kind: constant, rate: 5/s } }
server:
  slots: 1
  serviceTime: { kind: constant, value: 10ms }
  fairQueue: ${fair}
${extra}`;

  it('points at a weight for a key that does not exist, with the keys there are', () => {
    expect(positionedProblems(yaml('{ weights: { payd: 2 } }'))).toEqual([
      '9:33 server.fairQueue.weights.payd: no population "payd" among the keys of this fair queue (paid, free); did you mean "paid"?',
    ]);
  });

  it('points at a weight that is not positive', () => {
    expect(positionedProblems(yaml('{ weights: { paid: 0 } }'))).toEqual([expect.stringMatching(/^9:33 server\.fairQueue\.weights\.paid: /)]);
  });

  it('points at a priority naming no population', () => {
    expect(positionedProblems(yaml('{ priority: [pad] }'))).toEqual([
      '9:27 server.fairQueue.priority[0]: no client population "pad" (the populations are: paid, free); did you mean "paid"?',
    ]);
  });

  it('names the keys and the priorities it knows', () => {
    expect(positionedProblems(yaml('{ key: client }'))).toEqual([expect.stringMatching(/^9:21 server\.fairQueue\.key: unknown key "client": expected one of population, route, tier/)]);
    expect(positionedProblems(yaml('{ priority: retries-last }'))).toEqual([expect.stringMatching(/^9:26 server\.fairQueue\.priority: expected "first-tries" or a list/)]);
  });

  it('does not go with CoDel', () => {
    expect(positionedProblems(yaml('{ key: population }', '  discipline: adaptive-lifo\n'))).toEqual([
      expect.stringMatching(/^9:14 server\.fairQueue: a fair queue does not go with codel or discipline adaptive-lifo/),
    ]);
  });

  it('does not go with CoDel on a service of the graph either (CoDel read the oldest of all lines and shed another line\'s young request)', () => {
    const services = [
      '  routes: { default: { services: [{ service: db }] } }',
      'services:',
      '  db:',
      '    slots: 10',
      '    serviceTime: { kind: constant, value: 100ms }',
      '    codel: { target: 5ms, interval: 100ms }',
      '    fairQueue: { key: tier }',
    ].join('\n') + '\n';
    expect(positionedProblems(yaml('{ key: population }', services))).toEqual([
      expect.stringMatching(/^16:16 services\.db\.fairQueue: a fair queue does not go with codel or discipline adaptive-lifo/),
    ]);
  });
});
