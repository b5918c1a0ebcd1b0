/**
 * prepareSeries: what the time-series charts draw. Long runs must shrink to at most the
 * asked number of points per variant, seeds must be averaged, counts (by their declared
 * unit) must become rates, and the offered load's peak must survive the averaging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareAllSeries, prepareSeries } from '../../src/report/html/series.js';
import { planReport } from '../../src/report/html/plan.js';
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
    // actions_abandoned is zero throughout (nobody gives up in this fixture): no panel for it;
    // nor for lost_attempts (nothing crashes).
    expect(p.extraColumns).toEqual(['dead_lettered']);
    expect(p.columns).not.toContain('actions_abandoned');
    expect(p.perSecond.has('dead_lettered')).toBe(true);
    expect(p.perSecond.has('busy_slots')).toBe(false);
  });

  it('carries every sweep point, merging buckets only as far as a byte budget needs, the same at every point', () => {
    const roomy = prepareAllSeries(f.bundle)!;
    expect(roomy.points.map((p) => p.point!.index)).toEqual([0, 1, 2]);
    expect(roomy.budgetFactor).toBe(1);
    expect(roomy.points.every((p) => p.factor === 1)).toBe(true);
    const roomyBytes = JSON.stringify(roomy.points.map((p) => p.variants)).length;

    const budget = Math.round(roomyBytes / 3.5);
    const tight = prepareAllSeries(f.bundle, budget)!;
    expect(tight.points).toHaveLength(3);
    expect(tight.budgetFactor).toBeGreaterThan(1);
    expect(new Set(tight.points.map((p) => p.factor)).size).toBe(1);
    expect(JSON.stringify(tight.points.map((p) => p.variants)).length).toBeLessThanOrEqual(budget);
    // Merged, not cut: the whole horizon is still drawn, and the load peak survives in the band.
    const v = tight.points[1].variants.find((x) => x.variant === 'retries')!;
    expect((v.data.t[v.data.t.length - 1] as number) + tight.points[1].widthS).toBeGreaterThanOrEqual(f.bundle.results.horizonS);
    const hi = Math.max(...(v.data.load_hi as number[]));
    expect(hi).toBeCloseTo(Math.max(...raw('retries', 1, 1, 'load_multiple'), ...raw('retries', 1, 2, 'load_multiple')), 3);
    // The page says so, and by how much.
    const notes = planReport(f.bundle, budget).notes.join(' ');
    expect(notes).toContain(`Downsampled to keep this page small: the time series of all 3 sweep points are carried, with ${tight.points[0].factor} consecutive 10s buckets averaged into each plotted point`);
    expect(planReport(f.bundle).notes.join(' ')).not.toContain('Downsampled');
  });
});
