/**
 * The recorder counts the open bucket apart and folds it into the series when the bucket
 * closes (src/model/recorder.ts): these tests pin what that must not change, the bucket each
 * count lands in, mid-run reads (operator signals) and a last bucket that closes a hair
 * before the horizon.
 */
import { describe, it, expect } from 'vitest';
import { Recorder } from '../../src/model/recorder.js';
import { FAILURE_CAUSES } from '../../src/model/series.js';

const TIMEOUT = 1 + FAILURE_CAUSES.indexOf('timeout');
const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);

describe('Recorder: counts of the open bucket', () => {
  it('puts each count in the bucket of its time, per population, and sums the totals at the end', () => {
    const rec = new Recorder({ horizonS: 30, bucketS: 10, routeOfPopulation: [0, 0] });
    // In time order, as a run reports them.
    rec.attempt(1, 0, false, false);
    rec.attempt(2, 1, true, false);
    rec.workDone(3, 0.25, false);
    rec.workDone(4, 0.5, true);
    rec.attempt(9.999, 1, true, true);
    rec.answer(10, 0, 1, 0, true); // ok, a first try sent in bucket 0
    rec.timedOut(12, 1, TIMEOUT);
    rec.workDone(21, 2, true);
    rec.actionStarted(25, 0);
    rec.actionEnded(29, 0, true, 1, 25);
    rec.finish();
    const [p0, p1] = rec.pops;
    expect(Array.from(p0.attempts)).toEqual([1, 0, 0]);
    expect(Array.from(p0.firstTries)).toEqual([1, 0, 0]);
    expect(Array.from(p1.retries)).toEqual([2, 0, 0]);
    expect(Array.from(p1.futileRetries)).toEqual([1, 0, 0]);
    expect(Array.from(p0.attemptsOk)).toEqual([0, 1, 0]);
    expect(Array.from(p0.firstTriesOk)).toEqual([1, 0, 0]);
    expect(Array.from(p1.failures[TIMEOUT - 1])).toEqual([0, 1, 0]);
    expect(Array.from(p0.actionsStarted)).toEqual([0, 0, 1]);
    expect(Array.from(p0.actionsOk)).toEqual([0, 0, 1]);
    expect(Array.from(rec.series.attempts)).toEqual([3, 0, 0]);
    expect(Array.from(rec.series.workS)).toEqual([0.75, 0, 2]);
    expect(Array.from(rec.series.wastedWorkS)).toEqual([0.5, 0, 2]);
  });

  it('shows what the open bucket holds after flushCounters (what a signal reads mid-run), without counting it twice', () => {
    const rec = new Recorder({ horizonS: 20, bucketS: 10 });
    rec.attempt(1, 0, false, false);
    rec.attempt(2, 0, false, false);
    expect(rec.pops[0].attempts[0]).toBe(0); // still in the open bucket
    rec.flushCounters();
    expect(rec.pops[0].attempts[0]).toBe(2);
    rec.attempt(3, 0, false, false);
    rec.flushCounters();
    rec.flushCounters();
    rec.attempt(15, 0, false, false);
    rec.finish();
    expect(Array.from(rec.pops[0].attempts)).toEqual([3, 1]);
    expect(sum(rec.series.attempts)).toBe(4);
  });

  it('keeps what happens after a last bucket that closed a hair before the horizon', () => {
    // 10 buckets of 10 s for a horizon of 100 s + 5 ns: the last edge is at 100 s.
    const horizonS = 100 + 5e-9;
    const rec = new Recorder({ horizonS, bucketS: 10 });
    expect(rec.series.n).toBe(10);
    rec.attempt(50, 0, false, false);
    rec.workDone(99, 1, false);
    rec.attempt(100 + 1e-9, 0, true, false); // past the last edge, before the horizon
    rec.workDone(100 + 2e-9, 0.5, true);
    rec.workDone(100 + 3e-9, 0.25, false);
    rec.finish();
    expect(sum(rec.series.attempts)).toBe(2);
    expect(sum(rec.series.retries)).toBe(1);
    expect(rec.series.workS[9]).toBe(1 + 0.5 + 0.25);
    expect(rec.series.wastedWorkS[9]).toBe(0.5);
  });
});

describe('Recorder: latencies', () => {
  it("keeps each population's action and attempt latencies for the run, and the verdict's users' actions per bucket", () => {
    // Population 0 is the verdict's users, population 1 is not (an attacker, say).
    const rec = new Recorder({ horizonS: 30, bucketS: 10, routeOfPopulation: [0, 0], subject: [true, false] });
    rec.answer(1, 0, 0.5, 0, true); // 0.5 s
    rec.actionEnded(1, 0, true, 1, 0.5); // 0.5 s
    rec.answer(2, 1, 1.9, 0, true); // 0.1 s
    rec.actionEnded(2, 1, true, 1, 1.9); // 0.1 s: not the verdict's users
    rec.actionEnded(4, 0, false, 3, 0); // 4 s, a failure: it counts
    rec.actionAbandoned(15, 0, 2, 3); // 12 s, given up: it counts
    rec.answer(25, 0, 24.75, 1 + FAILURE_CAUSES.indexOf('queue-full'), false); // a failed answer is an answer: 0.25 s
    rec.finish();
    const [p0, p1] = rec.latency;
    expect([p0.actions.count, p0.attempts.count, p1.actions.count, p1.attempts.count]).toEqual([3, 2, 1, 1]);
    expect(p0.actions.mean()).toBeCloseTo((0.5 + 4 + 12) / 3, 9);
    expect(p0.actions.quantile(1)).toBe(12);
    expect(p0.attempts.quantile(1)).toBe(0.5);
    expect(p1.actions.quantile(0.5)).toBeCloseTo(0.1, 9);
    const near = (x: number, want: number) => Math.abs(x / want - 1) <= 0.005;
    const s = rec.series;
    // Bucket 0: the users' actions took 0.5 s and 4 s (p50 is the first, p99 the second); the other population's is not in it.
    expect(near(s.actionLatencyP50S[0], 0.5) && near(s.actionLatencyP99S[0], 4)).toBe(true);
    expect(near(s.actionLatencyP50S[1], 12) && near(s.actionLatencyP99S[1], 12)).toBe(true);
    expect(s.actionLatencyP50S[2]).toBeNaN(); // no action ended
    // Attempts per bucket are every population's: 0.1 s and 0.5 s in bucket 0, nothing in bucket 1, 0.25 s in bucket 2.
    expect(near(s.latencyP50S[0], 0.1) && near(s.latencyP99S[0], 0.5)).toBe(true);
    expect(s.latencyP50S[1]).toBeNaN();
    expect(near(s.latencyP50S[2], 0.25)).toBe(true);
  });
});
