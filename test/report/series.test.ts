/**
 * prepareSeries: what the time-series charts draw. Long runs must shrink to at most ~600
 * points per variant, seeds must be averaged, counts must become rates, and the offered
 * load's peak must survive the averaging.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadResults } from '../../src/report/html/results.js';
import { prepareSeries, MAX_POINTS } from '../../src/report/html/series.js';
import { cleanupFixtures, fullShape, oldShape } from './fixtures.js';

describe('prepareSeries', () => {
  afterAll(cleanupFixtures);
  it('keeps short runs as they are and turns counts per bucket into rates', () => {
    const p = prepareSeries(loadResults(oldShape()), 2000)!;
    expect(p.factor).toBe(1);
    const v = p.variants[0].data;
    expect(v.t.length).toBe(1200);
    expect(v.first_tries[0]).toBe(10); // 10 per 1 s bucket
    expect(v.retries[400]).toBe(20);
    expect(p.failureColumns).toEqual(['fail_timeout', 'fail_dependency', 'fail_queue_full']);
  });

  it('merges buckets to at most MAX_POINTS points, averages seeds and keeps the load peak', () => {
    const r = loadResults(fullShape()); // 7200 s in 5 s buckets, 4 seeds
    const p = prepareSeries(r)!;
    expect(p.factor).toBe(3);
    expect(p.widthS).toBe(15);
    const v = p.variants[0];
    expect(v.seeds).toBe(4);
    expect(v.data.t.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(v.data.first_tries[0]).toBe(10); // 50 per 5 s bucket, in every seed
    // load = 3 + 0.5 sin(t/50) + 0.01 seed: the band's top is the highest seed's peak.
    const hi = Math.max(...(v.data.load_hi as number[]));
    expect(hi).toBeCloseTo(3.54, 2);
    expect(Math.max(...(v.data.load_multiple as number[]))).toBeLessThan(hi);
    // The point the ranking reads (compare.at: 5m), not the first one.
    expect(p.point).toEqual({ index: 1, values: { 'faults[0].duration': '5m' } });
    expect(p.failureColumns).toContain('rejected_rate_limit');
    expect(p.extraColumns).toEqual(['dependency_use']);
  });
});
