/**
 * The statistics across seeds: estimate (mean and 95% Student-t interval), tQuantile975,
 * and aggregatePoint folding a point's runs into one line of the comparison.
 */
import { describe, expect, it } from 'vitest';
import { estimate, tQuantile975 } from '../../src/experiment/stats.js';
import { aggregatePoint, INTERVAL_MEASURES } from '../../src/experiment/aggregate.js';
import type { RunResult, RunColumns } from '../../src/experiment/run-one.js';
import type { RunSummary } from '../../src/measures/measures.js';
import { runOne } from '../../src/experiment/run-one.js';
import { loadScenario } from '../../src/scenario/load.js';

describe('tQuantile975', () => {
  it('gives the tabulated two-sided 95% t quantiles', () => {
    expect(tQuantile975(1)).toBe(12.706);
    expect(tQuantile975(2)).toBe(4.303);
    expect(tQuantile975(4)).toBe(2.776);
    expect(tQuantile975(7)).toBe(2.365);
    expect(tQuantile975(10)).toBe(2.228);
    expect(tQuantile975(20)).toBe(2.086);
    expect(tQuantile975(30)).toBe(2.042);
  });

  it('uses the normal 1.96 beyond 30 degrees of freedom and NaN below 1', () => {
    expect(tQuantile975(31)).toBe(1.96);
    expect(tQuantile975(10_000)).toBe(1.96);
    expect(tQuantile975(0)).toBeNaN();
    expect(tQuantile975(-3)).toBeNaN();
  });

  it('decreases with the degrees of freedom', () => {
    for (let df = 1; df < 40; df++) expect(tQuantile975(df + 1)).toBeLessThanOrEqual(tQuantile975(df));
  });
});

describe('estimate', () => {
  it('gives the mean and the 95% t-interval of 1..5, computed by hand', () => {
    // mean 3; sample variance (4+1+0+1+4)/4 = 2.5; standard error sqrt(2.5/5) = 0.7071068;
    // half-width t(4) x se = 2.776 x 0.7071068 = 1.9629284.
    const e = estimate([1, 2, 3, 4, 5]);
    expect(e.mean).toBe(3);
    expect(e.ci95[0]).toBeCloseTo(1.0370716, 6);
    expect(e.ci95[1]).toBeCloseTo(4.9629284, 6);
  });

  it('does not depend on the order of the observations', () => {
    expect(estimate([5, 1, 4, 2, 3])).toEqual(estimate([1, 2, 3, 4, 5]));
  });

  it('uses the sample (n-1) variance: two observations 2 and 4 give 3 ± 12.706', () => {
    // variance (1+1)/1 = 2, se = sqrt(2/2) = 1, half-width = t(1) = 12.706.
    const e = estimate([2, 4]);
    expect(e.mean).toBe(3);
    expect(e.ci95[0]).toBeCloseTo(3 - 12.706, 9);
    expect(e.ci95[1]).toBeCloseTo(3 + 12.706, 9);
  });

  it('gives a zero-width interval for one observation and for identical ones', () => {
    expect(estimate([7.5])).toEqual({ mean: 7.5, ci95: [7.5, 7.5] });
    expect(estimate([4, 4, 4])).toEqual({ mean: 4, ci95: [4, 4] });
    // With values that are not exact in binary the width is zero up to rounding only.
    const e = estimate([0.1, 0.1, 0.1]);
    expect(e.mean).toBeCloseTo(0.1, 15);
    expect(e.ci95[1] - e.ci95[0]).toBeLessThan(1e-15);
  });

  it('gives NaN for no observation', () => {
    const e = estimate([]);
    expect(e.mean).toBeNaN();
    expect(e.ci95[0]).toBeNaN();
  });

  it('contains the mean, and narrows as the same spread is seen more often', () => {
    const few = estimate([10, 12, 14]);
    const many = estimate([10, 12, 14, 10, 12, 14, 10, 12, 14]);
    expect(few.ci95[0]).toBeLessThan(few.mean);
    expect(few.ci95[1]).toBeGreaterThan(few.mean);
    expect(many.mean).toBe(few.mean);
    expect(many.ci95[1] - many.ci95[0]).toBeLessThan(few.ci95[1] - few.ci95[0]);
  });
});

// ── aggregatePoint ──────────────────────────────────────────────────────────

// One real run's summary, so that a measure added to RunSummary later is covered too.
const REAL = runOne(
  loadScenario(
    [
      'name: real',
      'horizon: 3m',
      'clients: { app: { arrivals: { kind: constant, rate: 20/s }, retry: { maxAttempts: 3, timeout: 1s } } }',
      'server: { slots: 4, serviceTime: { kind: exponential, mean: 100ms } }',
      'faults: [{ kind: dependency-down, at: 80s, duration: 10s }]',
    ].join('\n'),
    'real.yaml',
  ).variants[0].scenario,
  'v', 0, 1,
).summary;

/** A summary whose numbers depend on k (distinct per field), every field of RunSummary present. */
function summary(k: number, over: Partial<RunSummary> = {}): RunSummary {
  const known = {
    baselineRate: 100 + k,
    preFaultSuccessRatio: 0.9 + k / 100,
    preFaultLoadMultiple: 1 + k / 10,
    lastFaultEndS: 300,
    recovered: true,
    recoveryTimeS: 60 * k,
    perceivedOutageS: 100 * k,
    peakLoadMultiple: 2 + k,
    peakRetryShare: 0.1 * k,
    attemptsPerAction: { mean: 1 + k / 4, p99: k, max: 2 * k },
    wastedWorkS: 10 * k,
    wastedWorkShare: 0.05 * k,
    successRatio: 0.5 + k / 10,
    goodputMean: 90 + k,
    actionsStarted: 1000 * k,
    actionsOk: 900 * k,
    actionsFailed: 100 * k,
    attempts: 1500 * k,
    utilisation: 0.7 + k / 100,
    meanQueueWaitS: 0.01 * k,
  };
  // Fields this file does not know by name: numbers vary with k, anything else is kept.
  const others = Object.fromEntries(
    Object.entries(REAL)
      .filter(([key]) => !(key in known))
      .map(([key, v], i) => [key, typeof v === 'number' ? (i + 1) * k * 0.37 : v]),
  );
  return { ...REAL, ...others, ...known, ...over } as RunSummary;
}

function run(seed: number, s: RunSummary): RunResult {
  return { variant: 'v', point: 3, seed, bucketS: 10, summary: s, columns: {} as RunColumns, faults: [], actions: [], eventsProcessed: 1, wallS: 0.5 };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('aggregatePoint', () => {
  const ks = [1, 2, 4];
  const runs = ks.map((k, i) => run(11 + i, summary(k)));
  const values = { 'faults[0].duration': '1m' };
  const p = aggregatePoint(3, values, runs);

  it('keeps the point, its values and the number of runs', () => {
    expect(p.point).toBe(3);
    expect(p.values).toEqual(values);
    expect(p.runs).toBe(3);
  });

  it('takes the mean of every numeric field across seeds', () => {
    const numeric = (Object.keys(summary(1)) as Array<keyof RunSummary>).filter((k) => typeof summary(1)[k] === 'number');
    expect(numeric.length).toBeGreaterThan(12); // every field, not a hand-picked few
    const realNumeric = Object.keys(REAL).filter((k) => {
      const v = REAL[k as keyof RunSummary];
      return typeof v === 'number' || v === null;
    });
    expect(numeric).toEqual(expect.arrayContaining(realNumeric));
    for (const key of numeric) {
      expect(p.measures[key], key).toBeCloseTo(mean(ks.map((k) => summary(k)[key] as number)), 9);
    }
    expect(p.measures.attemptsPerAction.mean).toBeCloseTo(mean(ks.map((k) => 1 + k / 4)), 12);
    expect(p.measures.attemptsPerAction.p99).toBeCloseTo(mean(ks), 12);
  });

  it('takes the maximum (not the mean) of attemptsPerAction.max', () => {
    expect(p.measures.attemptsPerAction.max).toBe(8);
  });

  it('reports recovered and a recovery time when every seed recovered', () => {
    expect(p.measures.recovered).toBe(true);
    expect(p.recoveredFraction).toBe(1);
    expect(p.measures.recoveryTimeS).toBeCloseTo(mean([60, 120, 240]), 9);
    expect(p.intervals.recoveryTimeS).toBeDefined();
  });

  it('gives a 95% interval for each interval measure and for attempts per action, equal to estimate clamped to the measure\'s range', () => {
    const shares = new Set(['peakRetryShare', 'retryShareAtPeak', 'wastedWorkShare', 'successRatio', 'utilisation', 'originalSuccessAfterFault']);
    for (const m of INTERVAL_MEASURES) {
      const xs = ks.map((k) => summary(k)[m] as number);
      const [lo, hi] = estimate(xs).ci95;
      expect(p.intervals[m], m).toBeDefined();
      // No measure is negative, and shares are at most 1: the interval never claims otherwise.
      expect(p.intervals[m]![0], m).toBeCloseTo(Math.max(0, lo), 9);
      expect(p.intervals[m]![1], m).toBeCloseTo(shares.has(m) ? Math.min(1, hi) : hi, 9);
      expect(p.intervals[m]![0], m).toBeLessThan(p.intervals[m]![1]);
    }
    expect(p.intervals.attemptsPerActionMean).toEqual(estimate(ks.map((k) => 1 + k / 4)).ci95);
  });

  it('keeps each seed\'s own summary, in run order', () => {
    expect(p.perSeed.map((s) => s.seed)).toEqual([11, 12, 13]);
    expect(p.perSeed[1]).toEqual({ seed: 12, ...summary(2) });
  });

  it('gives recovered false and recovery time null (with no interval) unless every seed recovered', () => {
    const partly = aggregatePoint(0, {}, [run(1, summary(1)), run(2, summary(2, { recovered: false, recoveryTimeS: null })), run(3, summary(3))]);
    expect(partly.measures.recovered).toBe(false);
    expect(partly.measures.recoveryTimeS).toBeNull();
    expect(partly.recoveredFraction).toBeCloseTo(2 / 3, 12);
    expect(partly.intervals.recoveryTimeS).toBeUndefined();
    expect(partly.intervals.perceivedOutageS).toBeDefined();
    // The first seed is the one that did not recover: the null must still win.
    const first = aggregatePoint(0, {}, [run(1, summary(1, { recovered: false, recoveryTimeS: null })), run(2, summary(2))]);
    expect(first.measures.recoveryTimeS).toBeNull();
    expect(first.recoveredFraction).toBe(0.5);
    const none = aggregatePoint(0, {}, [run(1, summary(1, { recovered: false, recoveryTimeS: null })), run(2, summary(2, { recovered: false, recoveryTimeS: null }))]);
    expect(none.recoveredFraction).toBe(0);
    expect(none.measures.recovered).toBe(false);
  });

  it('gives null for a nullable measure that is null in any seed', () => {
    const q = aggregatePoint(0, {}, [run(1, summary(1)), run(2, summary(2, { successRatio: null, preFaultLoadMultiple: null }))]);
    expect(q.measures.successRatio).toBeNull();
    expect(q.measures.preFaultLoadMultiple).toBeNull();
    expect(q.intervals.successRatio).toBeUndefined();
    expect(q.measures.goodputMean).toBeCloseTo(91.5, 12);
  });

  it('with one seed, gives that seed\'s summary and no intervals', () => {
    const one = aggregatePoint(0, {}, [run(5, summary(2, { recovered: false, recoveryTimeS: null }))]);
    expect(one.measures).toEqual(summary(2, { recovered: false, recoveryTimeS: null }));
    expect(one.intervals).toEqual({});
    expect(one.recoveredFraction).toBe(0);
    expect(one.runs).toBe(1);
  });

  it('with no runs (another shard\'s point, or interrupted), says so: runs 0 and recovered fraction 0', () => {
    const empty = aggregatePoint(2, { x: 1 }, []);
    expect(empty.runs).toBe(0);
    expect(empty.recoveredFraction).toBe(0);
    expect(empty.perSeed).toEqual([]);
    expect(empty.intervals).toEqual({});
  });
});

describe('aggregatePoint: attempts-per-action histogram', () => {
  it('sums the seeds\' histograms element by element (the distribution of all their actions)', () => {
    const a = summary(1, { attemptsPerAction: { mean: 1.5, p99: 3, max: 3, histogram: [0, 10, 4, 1] } });
    const b = summary(2, { attemptsPerAction: { mean: 1.2, p99: 2, max: 2, histogram: [0, 8, 2] } });
    const p = aggregatePoint(0, {}, [run(1, a), run(2, b)]);
    expect(p.measures.attemptsPerAction.histogram).toEqual([0, 18, 6, 1]);
    expect(p.measures.attemptsPerAction.max).toBe(3);
    expect(p.measures.attemptsPerAction.mean).toBeCloseTo(1.35, 12);
  });
});
