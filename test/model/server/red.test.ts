/**
 * Random early detection (src/model/server/red.ts) against Floyd and Jacobson's formulas,
 * then on a server: a saturated instance settles where RED's drop share equals the excess
 * of arrivals over capacity, with its queue (and so its latency) at the average that share
 * needs, well below the tail-drop queue's that drops as many.
 */
import { describe, it, expect } from 'vitest';
import { RedDropper, type RedOptions } from '../../../src/model/server/red.js';
import { stream } from '../../../src/engine/rng.js';
import { loadScenario } from '../../../src/scenario/load.js';
import { simulate } from '../../../src/model/simulate.js';
import { FAILURE_CAUSES, type RunRecord } from '../../../src/model/series.js';

const opts = (o: Partial<RedOptions> = {}): RedOptions => ({ minThreshold: 10, maxThreshold: 30, maxP: 0.1, weight: 0.002, departureS: 0.01, ...o });

/** Share of `n` arrivals dropped at a queue held at length q (after the average has settled on it). */
function dropShare(q: number, o: RedOptions, n = 400_000): number {
  const red = new RedDropper(o, stream(7, 'red-test'));
  for (let i = 0; i < 20_000; i++) red.drop(q, i * 1e-3, 0);
  let dropped = 0;
  for (let i = 0; i < n; i++) if (red.drop(q, 20 + i * 1e-3, 0)) dropped++;
  return dropped / n;
}

/**
 * The share the paper's count correction gives at a constant pb: arrivals from one drop to
 * the next X, P(X > n) = 1 - n pb while n pb < 1 (§7), so E[X] = sum over n = 0..K of
 * (1 - n pb), K = floor(1/pb), and the share is 1 / E[X] (2 pb / (1 + pb) when 1/pb is whole).
 */
function spacedShare(pb: number): number {
  const K = Math.floor(1 / pb + 1e-12);
  let ex = 0;
  for (let n = 0; n <= K; n++) ex += Math.max(0, 1 - n * pb);
  return 1 / ex;
}

describe('RED at a constant queue length', () => {
  it('drops nothing below minThreshold and everything at or above maxThreshold', () => {
    expect(dropShare(9, opts(), 50_000)).toBe(0);
    expect(dropShare(30.01, opts(), 50_000)).toBe(1);
    expect(dropShare(45, opts(), 50_000)).toBe(1);
  });

  it('between the thresholds drops 2 pb / (1 + pb) (drops evenly spaced), not pb', () => {
    // q = 20: pb = 0.1 x (20 - 10) / 20 = 0.05, 1/pb = 20: share 2 x 0.05 / 1.05 = 0.0952.
    const s = dropShare(20, opts());
    expect(spacedShare(0.05)).toBeCloseTo(0.1 / 1.05, 12);
    expect(s).toBeGreaterThan(spacedShare(0.05) * 0.98);
    expect(s).toBeLessThan(spacedShare(0.05) * 1.02);
    // A geometric drop (no count) would give pb itself: far off.
    expect(Math.abs(s - 0.05)).toBeGreaterThan(0.04);
  });

  it('matches the uniform spacing also where 1/pb is not a whole number', () => {
    for (const [q, maxP] of [[16, 0.1], [25, 0.3], [12, 0.9]] as const) {
      const pb = (maxP * (q - 10)) / 20; // 0.03, 0.225, 0.09
      const s = dropShare(q, opts({ maxP }));
      expect(s / spacedShare(pb)).toBeGreaterThan(0.98);
      expect(s / spacedShare(pb)).toBeLessThan(1.02);
    }
  });
});

describe('RED average', () => {
  it('follows avg <- (1 - w) avg + w q while the queue is not empty', () => {
    const red = new RedDropper(opts({ minThreshold: 1e6, maxThreshold: 2e6 }), stream(1, 'x'));
    for (let i = 1; i <= 1000; i++) red.drop(50, i * 1e-3, 0);
    expect(red.avg).toBeCloseTo(50 * (1 - Math.pow(0.998, 1000)), 9);
  });

  it('decays by (1 - w)^(idle / s) over an empty queue, the idle time counted once', () => {
    const red = new RedDropper(opts({ minThreshold: 1e6, maxThreshold: 2e6 }), stream(1, 'x'));
    for (let i = 1; i <= 1000; i++) red.drop(50, i * 1e-3, 0);
    const before = red.avg;
    // The queue emptied at 1.5 s; arrivals find it empty at 2 s and 3 s (they took free slots).
    red.drop(0, 2, 1.5);
    expect(red.avg).toBeCloseTo(before * Math.pow(0.998, 0.5 / 0.01), 9);
    red.drop(0, 3, 1.5);
    expect(red.avg).toBeCloseTo(before * Math.pow(0.998, 1.5 / 0.01), 9);
  });
});

/** One instance of 10 slots x 100 ms (100/s), offered 200/s; callers wait 30 s and never retry. */
function saturated(queue: string): RunRecord {
  return simulate(loadScenario(`
name: red
horizon: 2m
measures: { bucket: 1s }
clients:
  callers:
    clients: 100000
    arrivals: { kind: constant, rate: 200/s }
    retry: { maxAttempts: 1, timeout: 30s }
server:
  slots: 10
  serviceTime: { kind: constant, value: 100ms }
${queue}
`, 'red.yaml').base, 1);
}

const sum = (a: ArrayLike<number>, from = 0) => {
  let s = 0;
  for (let i = from; i < a.length; i++) s += a[i];
  return s;
};
const fails = (r: RunRecord, cause: (typeof FAILURE_CAUSES)[number], from = 0) => sum(r.series.failures[FAILURE_CAUSES.indexOf(cause)], from);
const meanQueue = (r: RunRecord, from: number) => sum(r.series.queueLen, from) / (r.series.queueLen.length - from);

describe('RED on a saturated server, against a tail-drop queue', () => {
  // Twice the capacity: half the arrivals must go. RED settles where its drop share is 1/2:
  // 2 pb / (1 + pb) = 1/2 at pb = 1/3, so avg = 5 + 55 x (1/3) / 1 = 23.3 attempts queued.
  const red = saturated('  red: { minThreshold: 5, maxThreshold: 60, maxP: 1 }');
  // The tail-drop queue that refuses as many: bounded at RED's maxThreshold.
  const tail = saturated('  queue: 60');
  const FROM = 20; // after the start (RED's average takes ~1/(w x 200/s) = 2.5 s to follow)

  it('drops the excess (about half the arrivals) early, as "shed", and never fills a queue', () => {
    const shed = fails(red, 'shed', FROM), all = sum(red.series.attempts, FROM);
    expect(shed / all).toBeGreaterThan(0.47);
    expect(shed / all).toBeLessThan(0.53);
    expect(fails(red, 'queue-full')).toBe(0);
    expect(fails(tail, 'queue-full', FROM) / sum(tail.series.attempts, FROM)).toBeGreaterThan(0.47);
  });

  it('holds the queue near the average its drop share needs (23.3), where tail drop keeps it full', () => {
    const q = meanQueue(red, FROM);
    expect(q).toBeGreaterThan(23.3 * 0.85);
    expect(q).toBeLessThan(23.3 * 1.15);
    expect(meanQueue(tail, FROM)).toBeGreaterThan(58);
  });

  it('so the attempts served wait well under half the tail-drop queue\'s time (Little: queue / 100/s)', () => {
    const wait = (r: RunRecord) => r.totals.queueWaitS / r.totals.served;
    // Tail drop: 60 queued, served at 100/s: 0.6 s each (less at the start, while it fills).
    expect(wait(tail)).toBeGreaterThan(0.55);
    expect(wait(red)).toBeGreaterThan(0.2);
    expect(wait(red)).toBeLessThan(0.27);
  });
});

describe('RED in the scenario format', () => {
  it('refuses thresholds out of order, at the field', () => {
    const yaml = `
name: red
horizon: 1m
clients:
  c:
    arrivals: { kind: constant, rate: 2/s }
server:
  slots: 10
  serviceTime: { kind: constant, value: 100ms }
  red: { minThreshold: 30, maxThreshold: 10 }
`;
    expect(() => loadScenario(yaml, 'red.yaml')).toThrow(/red\.yaml:10:\d+ +server\.red\.maxThreshold: minThreshold must be below maxThreshold/);
  });
});
