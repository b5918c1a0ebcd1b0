/**
 * The quantiles and intervals across seeds, against published tables (NIST/SEMATECH e-Handbook
 * of Statistical Methods, table 1.3.6.7.2 for t; 1.3.6.7.1 for the normal) and intervals worked
 * by hand, and the property the measures rely on: no interval leaves its measure's range.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { estimate, meanInterval, normalQuantile, proportionInterval, shareInterval, t975, tCdf, tQuantile } from '../../src/experiment/stats.js';

describe('tQuantile', () => {
  // Upper-tail critical values, to the table's precision.
  it.each([
    [1, 12.706], [2, 4.303], [3, 3.182], [4, 2.776], [5, 2.571], [7, 2.365], [10, 2.228], [20, 2.086], [30, 2.042],
    [31, 2.040], [40, 2.021], [60, 2.000], [100, 1.984], [120, 1.980],
  ])('0.975 at %i degrees of freedom is %f', (df, table) => {
    expect(t975(df)).toBeCloseTo(table, 3);
  });

  it('is exact beyond the table: more digits at 1, 10, 30 and 40 degrees of freedom', () => {
    // Values from R's qt(0.975, df).
    expect(t975(1)).toBeCloseTo(12.70620474, 7);
    expect(t975(10)).toBeCloseTo(2.228138852, 8);
    expect(t975(30)).toBeCloseTo(2.042272456, 8);
    expect(t975(40)).toBeCloseTo(2.021075390, 8);
  });

  it.each([[0.95, 1, 6.314], [0.95, 10, 1.812], [0.995, 1, 63.657], [0.995, 10, 3.169], [0.995, 30, 2.750], [0.999, 5, 5.893]])(
    'the %f quantile at %i degrees of freedom is %f',
    (p, df, table) => expect(tQuantile(p, df)).toBeCloseTo(table, 3),
  );

  it('does not jump from 31 degrees of freedom on (no switch to 1.96), and tends to the normal quantile', () => {
    for (let df = 1; df < 200; df++) expect(t975(df + 1)).toBeLessThan(t975(df));
    expect(t975(31)).toBeGreaterThan(2.03);
    expect(t975(1e6)).toBeCloseTo(1.959964, 5);
    expect(t975(Infinity)).toBeCloseTo(1.959963985, 9);
  });

  it('inverts the CDF, including at fractional degrees of freedom (Welch)', () => {
    for (const df of [1, 2.5, 7.3, 50]) for (const p of [0.6, 0.9, 0.975, 0.999]) expect(tCdf(tQuantile(p, df), df)).toBeCloseTo(p, 10);
    expect(tQuantile(0.025, 4)).toBeCloseTo(-2.776, 3);
    expect(tQuantile(0.5, 3)).toBe(0);
  });

  it('is NaN outside its domain', () => {
    expect(t975(0)).toBeNaN();
    expect(tQuantile(1.2, 5)).toBeNaN();
  });
});

describe('normalQuantile', () => {
  it.each([[0.975, 1.959963985], [0.995, 2.575829304], [0.9, 1.281551566], [0.001, -3.090232306], [0.5, 0]])('%f -> %f', (p, z) => {
    expect(normalQuantile(p)).toBeCloseTo(z, 8);
  });
});

describe('estimate (Student t)', () => {
  it('gives the mean and the 95% t interval of 1..5, computed by hand', () => {
    // mean 3; sample variance 2.5; standard error sqrt(2.5/5); t(4) = 2.776445105.
    const e = estimate([1, 2, 3, 4, 5]);
    expect(e.mean).toBe(3);
    expect(e.ci95[0]).toBeCloseTo(3 - 2.776445105 * Math.sqrt(0.5), 8);
    expect(e.ci95[1]).toBeCloseTo(3 + 2.776445105 * Math.sqrt(0.5), 8);
  });

  it('gives a zero-width interval for one observation and for identical ones', () => {
    expect(estimate([7.5])).toEqual({ mean: 7.5, ci95: [7.5, 7.5] });
    expect(estimate([4, 4, 4])).toEqual({ mean: 4, ci95: [4, 4] });
  });
});

describe('meanInterval', () => {
  it('clamps to the measure\'s range: attempts per action never below 1, an outage never beyond the run', () => {
    // The case: three seeds of attempts per action whose t interval went to -0.87.
    const apa = meanInterval([1, 1, 7], 1, Infinity);
    expect(apa.lo).toBe(1);
    expect(apa.hi).toBeGreaterThan(7);
    const outage = meanInterval([0, 0, 14_400], 0, 14_400);
    expect(outage).toEqual({ lo: 0, hi: 14_400 });
  });
});

describe('proportionInterval (Wilson)', () => {
  it.each([
    // k, n, lo, hi: Wilson score intervals at 95% (Newcombe 1998, table I, and by hand).
    [3, 3, 0.4385, 1],
    [0, 10, 0, 0.2775],
    [5, 10, 0.2366, 0.7634],
    [81, 263, 0.2553, 0.3662],
  ])('%i of %i -> [%f, %f]', (k, n, lo, hi) => {
    const i = proportionInterval(k, n);
    expect(i.lo).toBeCloseTo(lo, 4);
    expect(i.hi).toBeCloseTo(hi, 4);
  });
});

describe('shareInterval (Wilson at the seeds\' effective sample size)', () => {
  it('stays inside [0, 1] and holds the mean, whatever the seeds gave', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 40 }), (xs) => {
        const i = shareInterval(xs);
        const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
        return i.lo >= 0 && i.hi <= 1 && i.lo <= mean + 1e-12 && mean - 1e-12 <= i.hi;
      }),
    );
  });

  it('is close to the t interval when the seeds agree closely (a success ratio near 0.5)', () => {
    const xs = [0.49, 0.5, 0.51, 0.5, 0.5];
    const t = estimate(xs).ci95;
    const w = shareInterval(xs);
    expect(w.lo).toBeCloseTo(t[0], 3);
    expect(w.hi).toBeCloseTo(t[1], 3);
  });

  it('near 1 stays below 1 and reaches further below the mean than above it, as a proportion\'s interval does', () => {
    // A clamped t interval here is [0.965, 1]: it claims the share could be 1.
    const xs = [0.999, 0.98, 0.9995];
    const mean = xs.reduce((a, b) => a + b, 0) / 3;
    const w = shareInterval(xs);
    expect(w.hi).toBeLessThan(1);
    expect(w.hi).toBeGreaterThan(mean);
    expect(mean - w.lo).toBeGreaterThan(w.hi - mean);
  });

  it('is the point itself when every seed gave the same share', () => {
    expect(shareInterval([1, 1, 1])).toEqual({ lo: 1, hi: 1 });
    expect(shareInterval([0.25])).toEqual({ lo: 0.25, hi: 0.25 });
  });
});
