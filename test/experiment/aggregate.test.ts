/**
 * aggregatePoint folding a point's runs into one line of the comparison: every measure of the
 * registry folded as its descriptor says, with intervals inside each measure's range.
 */
import { describe, expect, it } from 'vitest';
import { estimate, proportionInterval, shareInterval } from '../../src/experiment/stats.js';
import { aggregatePoint, foldMeasure } from '../../src/experiment/aggregate.js';
import { runOne, type RunResult } from '../../src/experiment/run-one.js';
import { MEASURES, type MeasureValues } from '../../src/measures/registry.js';
import type { RunSummary } from '../../src/measures/summarize.js';
import { loadScenario } from '../../src/scenario/load.js';

// One real run's summary, so that every measure of the registry is covered.
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

const HORIZON = 180;

/** Measures whose numbers depend on k, distinct per key and inside each measure's range. */
function measures(k: number, over: Partial<MeasureValues> = {}): MeasureValues {
  const out: Record<string, number | null> = {};
  MEASURES.all.forEach((m, i) => {
    out[m.key] = m.aggregate === 'fraction' ? 1 : m.unit === 'share' ? Math.min(1, 0.1 * k + i / 100) : (i + 1) * k * 0.37;
  });
  return { ...out, ...over } as MeasureValues;
}

function run(seed: number, m: MeasureValues, histogram = [0, 10]): RunResult {
  const summary: RunSummary = { ...REAL, measures: m, attemptsHistogram: histogram };
  return { variant: 'v', point: 3, seed, bucketS: 10, summary, columns: {}, populations: [], faults: [], actions: [], eventsProcessed: 1, wallS: 0.5 };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const point = (runs: RunResult[]) => aggregatePoint(MEASURES, 3, { x: '1m' }, runs, HORIZON);

describe('aggregatePoint', () => {
  const ks = [1, 2, 4];
  const p = point(ks.map((k, i) => run(11 + i, measures(k))));

  it('keeps the point, its values and the number of runs', () => {
    expect(p.point).toBe(3);
    expect(p.values).toEqual({ x: '1m' });
    expect(p.runs).toBe(3);
  });

  it('folds every measure of the registry, each as its descriptor says', () => {
    expect(Object.keys(p.measures)).toEqual(MEASURES.keys);
    for (const m of MEASURES.all) {
      const xs = ks.map((k) => measures(k)[m.key] as number);
      const a = p.measures[m.key];
      if (m.aggregate === 'max') expect(a.value, m.key).toBe(Math.max(...xs));
      else if (m.aggregate === 'fraction') expect(a.value, m.key).toBe(1);
      else expect(a.value, m.key).toBeCloseTo(mean(xs), 9);
    }
  });

  it('gives each mean a t interval clamped to the measure\'s range, each share a proportion interval, each fraction a Wilson interval', () => {
    for (const m of MEASURES.all) {
      const xs = ks.map((k) => measures(k)[m.key] as number);
      const a = p.measures[m.key];
      if (m.aggregate === 'max') {
        expect([a.lo, a.hi], m.key).toEqual([null, null]);
      } else if (m.aggregate === 'fraction') {
        const w = proportionInterval(3, 3);
        expect([a.lo, a.hi], m.key).toEqual([w.lo, w.hi]);
      } else if (m.aggregate === 'share') {
        const w = shareInterval(xs);
        expect([a.lo, a.hi], m.key).toEqual([w.lo, w.hi]);
      } else {
        const [lo, hi] = estimate(xs).ci95;
        const max = m.range?.max === 'horizon' ? HORIZON : m.range?.max ?? Infinity;
        expect(a.lo!, m.key).toBeCloseTo(Math.max(Math.min(m.range?.min ?? 0, a.value!), lo), 9);
        expect(a.hi!, m.key).toBeCloseTo(Math.min(Math.max(max, a.value!), hi), 9);
      }
    }
  });

  it('keeps every interval inside its measure\'s range: no negative durations, none past the horizon', () => {
    const wild = point([run(1, measures(1, { perceivedOutageS: 0, attemptsPerAction: 1 })), run(2, measures(1, { perceivedOutageS: 0, attemptsPerAction: 1 })), run(3, measures(1, { perceivedOutageS: 170, attemptsPerAction: 7 }))]);
    expect(wild.measures.perceivedOutageS.lo).toBe(0);
    expect(wild.measures.perceivedOutageS.hi).toBe(HORIZON);
    expect(wild.measures.attemptsPerAction.lo).toBe(0);
  });

  it('keeps each seed\'s own measures and actions, in run order', () => {
    expect(p.perSeed.map((s) => s.seed)).toEqual([11, 12, 13]);
    expect(p.perSeed[1]).toEqual({ seed: 12, measures: measures(2), actions: [] });
  });

  it('gives recovery time null (with no interval) unless every seed recovered, and the fraction of seeds that did', () => {
    const partly = point([run(1, measures(1)), run(2, measures(2, { recovered: 0, recoveryTimeS: null })), run(3, measures(3))]);
    expect(partly.measures.recoveryTimeS).toEqual({ value: null, lo: null, hi: null });
    expect(partly.measures.recovered.value).toBeCloseTo(2 / 3, 12);
    const w = proportionInterval(2, 3);
    expect([partly.measures.recovered.lo, partly.measures.recovered.hi]).toEqual([w.lo, w.hi]);
    // The first seed is the one that did not recover: the null must still win.
    const first = point([run(1, measures(1, { recovered: 0, recoveryTimeS: null })), run(2, measures(2))]);
    expect(first.measures.recoveryTimeS.value).toBeNull();
    expect(first.measures.recovered.value).toBe(0.5);
  });

  it('gives a fraction null when no seed had a value (recovery in a run whose verdict has no users)', () => {
    const nobody = point([run(1, measures(1, { recovered: null, recoveryTimeS: null })), run(2, measures(2, { recovered: null, recoveryTimeS: null }))]);
    expect(nobody.measures.recovered).toEqual({ value: null, lo: null, hi: null });
  });

  it('gives null for a nullable measure that is null in any seed', () => {
    const q = point([run(1, measures(1)), run(2, measures(2, { successRatio: null, preFaultLoadMultiple: null }))]);
    expect(q.measures.successRatio.value).toBeNull();
    expect(q.measures.preFaultLoadMultiple.value).toBeNull();
  });

  it('with one seed, gives that seed\'s values and no intervals', () => {
    const one = point([run(5, measures(2, { recovered: 0, recoveryTimeS: null }))]);
    for (const m of MEASURES.all) {
      expect(one.measures[m.key].value, m.key).toBe(measures(2, { recovered: 0, recoveryTimeS: null })[m.key]);
      expect([one.measures[m.key].lo, one.measures[m.key].hi], m.key).toEqual([null, null]);
    }
  });

  it('with no runs (another shard\'s point, or interrupted), says so: runs 0 and no values', () => {
    const empty = aggregatePoint(MEASURES, 2, { x: 1 }, [], HORIZON);
    expect(empty.runs).toBe(0);
    expect(empty.perSeed).toEqual([]);
    expect(empty.measures.recovered.value).toBeNull();
  });

  it('sums the seeds\' histograms element by element (the distribution of all their actions)', () => {
    const q = point([run(1, measures(1), [0, 10, 4, 1]), run(2, measures(2), [0, 8, 2])]);
    expect(q.attemptsHistogram).toEqual([0, 18, 6, 1]);
  });
});

describe('foldMeasure', () => {
  const successRatio = MEASURES.get('successRatio')!;
  it('keeps a share\'s interval within [0, 1] where a t interval would not', () => {
    const a = foldMeasure(successRatio, [1, 1, 0.9], HORIZON);
    expect(a.hi).toBeLessThanOrEqual(1);
    expect(estimate([1, 1, 0.9]).ci95[1]).toBeGreaterThan(1);
  });
});
