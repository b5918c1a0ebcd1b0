/**
 * The server's execution deadline (server.executionDeadline, src/model/server/instance.ts):
 * the SRE book's bimodal case ("Addressing Cascading Failures"). 1,000 slots, 1,000 requests/s,
 * 95% served in 100 ms and 5% hanging (here for an hour); no queue. A deadline of 100 s cuts
 * the hanging ones and frees their slots, so a slot-second costs 0.95 x 0.1 + 0.05 x 100 =
 * 5.095 s per request on average and the server can take 1000 / 5.095 = 196 of the 1,000
 * requests/s: a served share of 1000/5095 = 19.6% (Erlang's loss formula gives 19.62% at
 * this size, so the closed form holds to 0.03%).
 *
 * How close a run gets: the share among accepted requests of those that hang is binomial
 * (about 8,800 of them in the measured 15 minutes), which alone gives the served share a
 * standard deviation of about 1%; and because every cut takes exactly 100 s, slots freed
 * together stay in step for hours, so the run starts with a 5-minute ramp that spreads them.
 * The share is asserted within 4% (about 4 standard deviations). Without the deadline, or
 * with one of a second, the share is nowhere near it.
 */
import { describe, it, expect } from 'vitest';
import { run, sum, failures } from '../client/harness.js';
import type { RunRecord } from '../../../src/model/series.js';

const world = (deadline: string, horizon = '25m') => `
name: bimodal
horizon: ${horizon}
measures: { bucket: 100s }
clients:
  quick:
    clients: 100000
    arrivals: { kind: ramp, from: 0/s, to: 950/s, start: 0s, end: 5m }
    identity: { route: quick }
  hanging:
    clients: 100000
    arrivals: { kind: ramp, from: 0/s, to: 50/s, start: 0s, end: 5m }
    identity: { route: hanging }
server:
  slots: 1000
  queue: 0
  serviceTime: { kind: constant, value: 100ms }
  routes:
    quick: { serviceTime: { kind: constant, value: 100ms } }
    hanging: { serviceTime: { kind: constant, value: 1h } }
  executionDeadline: ${deadline}
`;

/** Share of the requests arriving from `fromS` on that got a slot (the rest were refused: no queue, no free slot). */
function servedShare(r: RunRecord, fromS: number): number {
  const from = fromS / r.series.bucketS;
  const arrived = sum(r.series.attempts, from);
  const refused = sum(r.series.failures[2], from); // queue-full: no slot and no queue
  return (arrived - refused) / arrived;
}

describe('server.executionDeadline', () => {
  it('serves 1000/5095 of the requests when 5% hang and the deadline cuts them at 100 s', () => {
    const r = run(world('100s'));
    const share = servedShare(r, 600);
    expect(Math.abs(share / (1000 / 5095) - 1)).toBeLessThan(0.04);
    // Cut requests answer 503 with a cause of their own, not the queueing deadline's.
    expect(failures(r.series, 'execution-deadline')).toBeGreaterThan(10_000);
    expect(failures(r.series, 'server-deadline')).toBe(0);
    // Every slot is busy almost all the time.
    expect(sum(r.series.busySlots, 6) / (r.series.n - 6)).toBeGreaterThan(990);
  });

  it('without it the hanging requests keep their slots and almost nothing is served', () => {
    const r = run(world('none', '11m'));
    expect(servedShare(r, 600)).toBeLessThan(0.02);
    expect(failures(r.series, 'execution-deadline')).toBe(0);
  });

  it('a deadline of 1 s makes a slot cost 0.145 s: capacity for 6,900 requests/s, so everything is served', () => {
    const r = run(world('1s', '11m'));
    expect(servedShare(r, 600)).toBeGreaterThan(0.999);
  });
});

describe('server.executionDeadline with calls to another service', () => {
  // The edge, one slot, calls db before its own 100 ms of work; db takes 5 s. The execution
  // deadline of 1 s counts from the slot's start, the wait for db included: the request is cut
  // at 1 s with the deadline's 503, its call cancelled, and the slot goes to the next request.
  // (It counted only the edge's own work: each request held the slot 5.1 s and was served.)
  const edge = (deadline: string, dbTime: string) => `
name: calls-deadline
horizon: 20s
measures: { bucket: 1s }
clients:
  users:
    clients: 1000
    arrivals: { kind: constant, rate: 2/s }
    retry: { maxAttempts: 1, timeout: 30s }
server:
  slots: 1
  queue: unbounded
  serviceTime: { kind: constant, value: 100ms }
  executionDeadline: ${deadline}
  routes:
    default:
      services:
        - service: db
services:
  db:
    slots: 10
    serviceTime: { kind: constant, value: ${dbTime} }
`;

  it('cuts a request still waiting for its call when the deadline runs out, and frees the slot', () => {
    const r = run(edge('1s', '5s'));
    // One slot cut every second: about 20 in 20 s, none served; db's answers come to nobody.
    const cut = failures(r.series, 'execution-deadline');
    expect(cut).toBeGreaterThanOrEqual(19);
    expect(cut).toBeLessThanOrEqual(20);
    expect(r.totals.actionsOk).toBe(0);
    // The slot is never idle: each cut frees it for the next queued request at once.
    expect(sum(r.series.busySlots, 1, 20) / 19).toBeCloseTo(1, 2);
  });

  it('what the wait leaves of the deadline bounds the work after it: 0.95 s of db and 100 ms of work in a 1 s deadline is cut', () => {
    const slow = run(edge('1s', '950ms'));
    expect(failures(slow.series, 'execution-deadline')).toBeGreaterThanOrEqual(19);
    expect(slow.totals.actionsOk).toBe(0);
    // With room for both (0.85 s + 0.1 s), everything is served, one request per 0.95 s.
    const fits = run(edge('1s', '850ms'));
    expect(failures(fits.series, 'execution-deadline')).toBe(0);
    expect(fits.totals.actionsOk).toBeGreaterThanOrEqual(20);
  });
});
