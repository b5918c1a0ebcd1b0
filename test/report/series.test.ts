/**
 * prepareSeries: what the time-series charts draw. Long runs must shrink to at most the
 * asked number of points per variant, seeds must be averaged, counts (by their declared
 * unit) must become rates, and the offered load's peak must survive the averaging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSeries } from '../../src/report/html/series.js';
import { cleanupFixtures, full, type Fixture } from './fixtures.js';

let f: Fixture;
beforeAll(async () => {
  f = await full();
});
afterAll(cleanupFixtures);

/** The CSV's rows of one variant at one point, one seed. */
function raw(variant: string, point: number, seed: number, column: string): number[] {
  const t = f.bundle.series;
  const out: number[] = [];
  for (let r = 0; r < t.rows; r++) if (t.variant[r] === variant && t.point[r] === point && t.seed[r] === seed) out.push(t.num[column][r]);
  return out;
}

describe('prepareSeries', () => {
  it('keeps short runs as they are, averages the seeds, and turns counts per bucket into rates', () => {
    const p = prepareSeries(f.bundle, 1)!;
    expect(p.factor).toBe(1);
    const v = p.variants.find((x) => x.variant === 'retries')!;
    expect(v.seeds).toBe(2);
    expect(v.data.t.length).toBe(120); // 20 minutes of 10 s buckets
    const [a, b] = [raw('retries', 1, 1, 'first_tries'), raw('retries', 1, 2, 'first_tries')];
    expect(v.data.first_tries[30]).toBeCloseTo((a[30] + b[30]) / 2 / 10, 2); // per second
    const q = [raw('retries', 1, 1, 'queue_len'), raw('retries', 1, 2, 'queue_len')];
    expect(v.data.queue_len[40]).toBeCloseTo((q[0][40] + q[1][40]) / 2, 0); // a level stays a level
  });

  it('merges buckets to at most the asked number of points and keeps the load peak in its band', () => {
    const p = prepareSeries(f.bundle, 1, 50)!;
    expect(p.factor).toBe(3);
    expect(p.widthS).toBe(30);
    const v = p.variants.find((x) => x.variant === 'retries')!;
    expect(v.data.t.length).toBe(40);
    const hi = Math.max(...(v.data.load_hi as number[]));
    const peak = Math.max(...raw('retries', 1, 1, 'load_multiple'), ...raw('retries', 1, 2, 'load_multiple'));
    expect(hi).toBeCloseTo(peak, 3);
    expect(Math.max(...(v.data.load_multiple as number[]))).toBeLessThan(hi);
  });

  it('draws the point it is given, names it, and sorts the columns by what draws them', () => {
    const p = prepareSeries(f.bundle, 2)!;
    expect(p.point).toEqual({ index: 2, values: { 'faults[0].duration': '5m' } });
    expect(p.failureColumns).toContain('fail_timeout');
    expect(p.extraColumns).toEqual(['actions_abandoned', 'dead_lettered', 'lost_attempts']);
    expect(p.perSecond.has('dead_lettered')).toBe(true);
    expect(p.perSecond.has('busy_slots')).toBe(false);
  });
});
