/**
 * The instance's queue under overload (src/model/server/instance.ts): which queued attempt
 * a free slot takes (FIFO or LIFO), the server's own deadline, and dropping attempts whose
 * caller has gone.
 *
 * The world: one instance of 10 slots serving 100 ms each (100/s), callers that wait 1 s
 * for an answer and never retry, so an attempt is a user action and every number below
 * can be checked by hand. Sustained overload: 150/s for 2 minutes. Transient overload:
 * 80/s, with the slots cut to 2 (20/s) for 20 s.
 */
import { describe, it, expect } from 'vitest';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import { summarize } from '../../../src/measures/summarize.js';
import { FAILURE_CAUSES, type FailureCause, type RunRecord } from '../../../src/model/series.js';

const SLOTS = 10;
const CAPACITY = SLOTS / 0.1; // 100/s
const TIMEOUT_S = 1;

function run(server: string, overload: 'sustained' | 'transient'): RunRecord {
  const arrivals = overload === 'sustained' ? '{ kind: constant, rate: 150/s }' : '{ kind: constant, rate: 80/s }';
  const faults = overload === 'sustained' ? '[]' : '[{ kind: capacity-cut, at: 30s, duration: 20s, slots: 2 }]';
  const yaml = `
name: instance
horizon: 2m
measures: { bucket: 1s }
clients:
  callers:
    clients: 10000
    arrivals: ${arrivals}
    retry: { maxAttempts: 1, timeout: ${TIMEOUT_S}s }
server:
  slots: ${SLOTS}
  serviceTime: { kind: constant, value: 100ms }
${server}
faults: ${faults}
`;
  return simulate(loadScenario(yaml, 'instance.yaml').base, 1);
}

const sum = (a: ArrayLike<number>, from = 0, to = a.length) => {
  let s = 0;
  for (let i = from; i < Math.min(to, a.length); i++) s += a[i];
  return s;
};
const failures = (r: RunRecord, cause: FailureCause, from = 0, to = Infinity) => sum(r.series.failures[FAILURE_CAUSES.indexOf(cause)], from, to);

describe('LIFO keeps answering callers within their timeout when FIFO serves stale work', () => {
  const fifo = run('  discipline: fifo', 'sustained');
  const lifo = run('  discipline: lifo', 'sustained');

  it('FIFO at 1.5x capacity: after the first seconds every served attempt waited past its caller\'s timeout', () => {
    const s = summarize(fifo).measures;
    // The queue grows by 50/s; from ~2 s on the head has waited over 1 s.
    expect(sum(fifo.series.attemptsOk, 10)).toBe(0);
    expect(s.successRatio!).toBeLessThan(0.03);
    // The server is busy the whole time, almost all of it for callers that have gone.
    expect(s.utilisation).toBeGreaterThan(0.99);
    expect(s.wastedWorkShare).toBeGreaterThan(0.95);
    // Every caller after the first seconds times out.
    expect(failures(fifo, 'timeout', 10, 115)).toBeGreaterThan(0.99 * sum(fifo.series.attempts, 9, 114));
  });

  it('LIFO at 1.5x capacity: the newest callers are served at once, so capacity/demand of them succeed', () => {
    const s = summarize(lifo).measures;
    // 100 of every 150 callers get a slot; the rest wait at the bottom of the stack and time out.
    expect(s.successRatio!).toBeGreaterThan(CAPACITY / 150 - 0.02);
    expect(s.successRatio!).toBeLessThan(CAPACITY / 150 + 0.02);
    for (let b = 10; b < 115; b++) {
      expect(lifo.series.attemptsOk[b]).toBeGreaterThanOrEqual(90); // ~100/s every second
      // Answers come within the callers' timeout (p99 of answered attempts).
      expect(lifo.series.latencyP99S[b]).toBeLessThan(0.5 * TIMEOUT_S);
    }
    // Nothing served is stale: the stale ones are never reached while the overload lasts.
    expect(s.wastedWorkShare).toBeLessThan(0.01);
    expect(s.utilisation).toBeGreaterThan(0.99);
  });
});

describe('deadline: attempts that waited too long are answered 503 without being served', () => {
  const r = run('  discipline: fifo\n  deadline: 500ms', 'sustained');
  const s = summarize(r).measures;

  it('FIFO with a 500 ms deadline: the excess gets server-deadline 503s, the rest are served in time', () => {
    // Excess = 150/s - 100/s = 50/s for ~2 minutes: every one refused by the deadline, none timing out.
    const refused = failures(r, 'server-deadline');
    const excess = sum(r.series.attempts) - CAPACITY * 120;
    expect(refused).toBeGreaterThan(0.95 * excess);
    expect(refused).toBeLessThan(1.05 * excess);
    expect(failures(r, 'timeout')).toBe(0);
    expect(s.successRatio!).toBeGreaterThan(CAPACITY / 150 - 0.02);
    // Served attempts waited at most the deadline: all answered before the 1 s timeout.
    for (let b = 5; b < 115; b++) expect(r.series.latencyP99S[b]).toBeLessThan(0.65);
  });

  it('no wasted work for them: every slot-second served a caller still waiting', () => {
    expect(s.wastedWorkS).toBe(0);
    // Slots served exactly the successes (a refusal by deadline costs no slot time).
    const ok = sum(r.series.attemptsOk);
    expect(r.totals.served).toBeGreaterThanOrEqual(ok);
    expect(r.totals.served).toBeLessThanOrEqual(ok + SLOTS); // in service at the horizon
    expect(r.totals.workS).toBeCloseTo(0.1 * r.totals.served, -1);
  });
});

describe('dropAbandoned: queued attempts whose caller has gone cost nothing', () => {
  const lifo = run('  discipline: lifo', 'transient');
  const lifoDrop = run('  discipline: lifo\n  dropAbandoned: true', 'transient');
  const fifo = run('  discipline: fifo', 'transient');
  const fifoDrop = run('  discipline: fifo\n  dropAbandoned: true', 'transient');

  it('LIFO after a 20 s capacity cut: without dropping, the stale backlog is served at the end; with it, wasted work is 0', () => {
    // During the cut the queue gains 60/s; LIFO serves the newest and leaves ~1,200 stale
    // attempts at the bottom, which it reaches (and serves, for nobody) once capacity is back.
    expect(lifo.totals.wastedWorkS).toBeGreaterThan(100); // ~1,190 attempts x 0.1 s
    expect(lifoDrop.totals.wastedWorkS).toBe(0);
    // Same callers, same successes: the stale ones were lost either way.
    expect(sum(lifoDrop.series.attemptsOk)).toBeGreaterThanOrEqual(sum(lifo.series.attemptsOk));
  });

  it('FIFO after the same cut: dropping removes the stale backlog (over 90% of the waste) but not the attempts started just before their caller gives up', () => {
    const w = fifo.totals.wastedWorkS;
    const wd = fifoDrop.totals.wastedWorkS;
    expect(w).toBeGreaterThan(500); // the whole backlog and the callers queued behind it
    expect(wd).toBeLessThan(0.1 * w);
    // With FIFO the oldest caller still waiting has waited almost 1 s: its 100 ms of service
    // ends after its timeout. That is work dropAbandoned cannot save (the caller leaves mid-service).
    expect(wd).toBeGreaterThan(0);
    expect(summarize(fifoDrop).measures.successRatio!).toBeGreaterThan(summarize(fifo).measures.successRatio! + 0.3);
  });

  it('FIFO in sustained overload: dropAbandoned does not help, since the head is always about to time out', () => {
    const r = run('  discipline: fifo\n  dropAbandoned: true', 'sustained');
    const s = summarize(r).measures;
    expect(s.wastedWorkShare).toBeGreaterThan(0.9);
    expect(s.successRatio!).toBeLessThan(0.05);
    // LIFO + dropAbandoned in the same overload: nothing wasted, 2/3 succeed.
    const l = summarize(run('  discipline: lifo\n  dropAbandoned: true', 'sustained')).measures;
    expect(l.wastedWorkS).toBe(0);
    expect(l.successRatio!).toBeGreaterThan(CAPACITY / 150 - 0.02);
  });
});
