import { describe, expect, it } from 'vitest';
import { welch } from '../../src/results/diff/welch.js';
import { measureChange } from '../../src/results/diff/results-diff.js';
import type { PointResult } from '../../src/results/results.js';

describe("Welch's t test", () => {
  it('matches R: t.test(4:6, 1:3) gives t = 3.6742, df = 4, p = 0.02131, 95% CI 0.733042 to 5.266958', () => {
    const r = welch([1, 2, 3], [4, 5, 6])!;
    expect(r.delta).toBe(3);
    expect(r.df).toBeCloseTo(4, 10);
    expect(r.p).toBeCloseTo(0.02131, 5);
    expect(r.lo).toBeCloseTo(0.733042, 5);
    expect(r.hi).toBeCloseTo(5.266958, 5);
  });

  it('uses the Welch–Satterthwaite degrees of freedom with unequal variances and sizes (worked by hand)', () => {
    // base: mean 15, variance 18 (n 4); head: mean 22, variance 24.5 (n 5). se² = 4.5 + 4.9 = 9.4,
    // t = 7 / √9.4 = 2.2832, df = 9.4² / (4.5²/3 + 4.9²/4) = 6.929: p between the two-sided
    // 5% points of t at df 6 (2.447) and the 10% point (1.943), i.e. 0.05 < p < 0.10.
    const r = welch([20, 11, 17, 12], [19, 22, 16, 29, 24])!;
    expect(r.delta).toBe(7);
    expect(r.df).toBeCloseTo(6.929, 3);
    expect(r.p).toBeGreaterThan(0.05);
    expect(r.p).toBeLessThan(0.1);
  });

  it('keeps the p value of a large t as a tail (it read 0, "every seed agrees", though the seeds vary)', () => {
    // t = 200 / 0.5292 = 378, df = 8: p = I(8 / (8 + t^2); 4, 1/2), about 1e-17.
    const r = welch([100, 101, 102, 100, 101], [300, 301, 302, 300, 301])!;
    expect(r.p).toBeGreaterThan(0);
    expect(r.p).toBeLessThan(1e-12);
    expect(r.df).toBeCloseTo(8, 6);
    // Other seeds on the head's side: nothing pairs up, and Welch's test decides.
    const c = measureChange(recovery, point([100, 101, 102, 100, 101]), point([300, 301, 302, 300, 301], 'recoveryTimeS', 11));
    expect(c.why).toBe('Welch p < 0.001');
    // The same seeds, each 200 s later: the change has no noise at all.
    expect(measureChange(recovery, point([100, 101, 102, 100, 101]), point([300, 301, 302, 300, 301])).why).toBe('every seed moved by the same amount');
  });

  it('says nothing about noise with one seed on a side', () => {
    expect(welch([1], [2, 3])).toBeNull();
  });

  it('calls a difference with no spread on either side certain, and no difference no change', () => {
    expect(welch([1, 1, 1], [2, 2, 2])).toMatchObject({ delta: 1, p: 0 });
    expect(welch([1, 1], [1, 1, 1])).toMatchObject({ delta: 0, p: 1 });
  });
});

/** A point with these per-seed values, seeds `firstSeed`, `firstSeed + 1`, … (two points with the same first seed pair up). */
const point = (seeds: Array<number | null>, key = 'recoveryTimeS', firstSeed = 1): PointResult => ({
  point: 0, values: {}, runs: seeds.length, measures: { [key]: { value: seeds.includes(null) ? null : seeds.reduce((a, b) => a! + b!, 0)! / seeds.length, lo: null, hi: null } },
  attemptsHistogram: [], populations: [], routes: [], quotas: [], faults: [],
  perSeed: seeds.map((v, i) => ({ seed: firstSeed + i, measures: { [key]: v }, actions: [] })),
});
const recovery = { key: 'recoveryTimeS', label: 'recovery time', unit: 'duration' as const, better: 'lower' as const };

describe('a measure change', () => {
  it('compares the same seeds seed by seed: 16 s slower on every seed is beyond noise though the seeds spread over minutes', () => {
    // Seed by seed +15, +15, +18 s; across seeds the values spread from 100 to 318 s.
    const base = [100, 200, 300], head = [115, 215, 318];
    const paired = measureChange(recovery, point(base), point(head));
    expect(paired).toMatchObject({ beyondNoise: true, direction: 'worse' });
    expect(paired.why).toMatch(/^paired t p = 0\.0\d\d$/);
    expect(paired.delta).toBeCloseTo(16, 9);
    // The same values from other seeds: Welch's test sees only the spread, and calls it noise.
    const unpaired = measureChange(recovery, point(base), point(head, 'recoveryTimeS', 11));
    expect(unpaired).toMatchObject({ beyondNoise: false, direction: 'same' });
    expect(unpaired.why).toMatch(/^within seed noise \(Welch p = 0\.\d+\)$/);
  });

  it('is worse beyond noise when recovery takes clearly longer', () => {
    const c = measureChange(recovery, point([150, 155, 160]), point([540, 560, 580]));
    expect(c).toMatchObject({ beyondNoise: true, direction: 'worse', delta: 405 });
    expect(c.lo!).toBeGreaterThan(300);
  });

  it('is within noise when the seeds overlap', () => {
    const c = measureChange(recovery, point([100, 200, 300]), point([150, 250, 320]));
    expect(c).toMatchObject({ beyondNoise: false, direction: 'same' });
    expect(c.why).toMatch(/within seed noise/);
  });

  it('is not flagged inside the tie tolerance (10 s or 5% for recovery time) however small the noise', () => {
    const c = measureChange(recovery, point([150, 150.1, 150.2]), point([155, 155.1, 155.2]));
    expect(c.p!).toBeLessThan(0.05);
    expect(c).toMatchObject({ beyondNoise: false, direction: 'same' });
    expect(c.why).toMatch(/tie tolerance/);
  });

  it('gives every measure a tolerance: one that declares none has its unit\'s, and a change within it is not beyond noise', () => {
    // The flagship diff that flagged "queue wait 2ms -> 2ms (better, beyond seed noise) -0ms"
    // and "retry share 21.3% -> 22.2% +0.92 pp": real to Welch, negligible to a reviewer.
    const queueWait = { key: 'meanQueueWaitS', label: 'queue wait', unit: 'duration' as const, better: 'lower' as const };
    const q = measureChange(queueWait, point([0.00200, 0.00201, 0.00202], 'meanQueueWaitS'), point([0.00190, 0.00191, 0.00192], 'meanQueueWaitS'));
    expect(q.p!).toBeLessThan(0.05);
    expect(q).toMatchObject({ beyondNoise: false, direction: 'same' });
    expect(q.why).toBe('within the tie tolerance (10ms or 5%), paired t p < 0.001');
    const retryShare = { key: 'retryShare', label: 'retry share', unit: 'share' as const, better: 'lower' as const };
    const small = measureChange(retryShare, point([0.212, 0.213, 0.214], 'retryShare'), point([0.221, 0.222, 0.223], 'retryShare'));
    expect(small.p!).toBeLessThan(0.05);
    expect(small).toMatchObject({ beyondNoise: false, direction: 'same' });
    expect(small.why).toMatch(/^within the tie tolerance \(1 point\)/);
    // Three points is beyond it.
    const large = measureChange(retryShare, point([0.212, 0.213, 0.214], 'retryShare'), point([0.242, 0.243, 0.244], 'retryShare'));
    expect(large).toMatchObject({ beyondNoise: true, direction: 'worse' });
    // A measure this build does not know (an older summary.json's) gets its unit's default: 5% for a count.
    const unknown = { key: 'someOldCount', label: 'old count', unit: 'count' as const, better: 'lower' as const };
    expect(measureChange(unknown, point([100, 101, 102], 'someOldCount'), point([103, 104, 105], 'someOldCount'))).toMatchObject({ beyondNoise: false, why: expect.stringMatching(/^within the tie tolerance \(5%\)/) });
    expect(measureChange(unknown, point([100, 101, 102], 'someOldCount'), point([120, 121, 122], 'someOldCount'))).toMatchObject({ beyondNoise: true, direction: 'worse' });
  });

  it('flags a drop in the fraction of seeds that recovered beyond noise (it has no tolerance: a seed is never negligible)', () => {
    const recovered = { key: 'recovered', label: 'recovered', unit: 'share' as const, better: 'higher' as const };
    const seeds = (ones: number, n: number) => Array.from({ length: n }, (_, i) => (i < ones ? 1 : 0));
    const c = measureChange(recovered, point(seeds(20, 20), 'recovered'), point(seeds(14, 20), 'recovered'));
    expect(c).toMatchObject({ beyondNoise: true, direction: 'worse' });
    expect(c.p!).toBeLessThan(0.05);
  });

  it('calls seeds that stop recovering worse (null recovery time means never)', () => {
    const c = measureChange(recovery, point([150, 155, 160]), point([null, null, null]));
    expect(c).toMatchObject({ beyondNoise: true, direction: 'worse', delta: null });
    const back = measureChange(recovery, point([null, null, null]), point([150, 155, 160]));
    expect(back.direction).toBe('better');
    const one = measureChange(recovery, point([150, 155, 160]), point([150, null, 160]));
    expect(one).toMatchObject({ beyondNoise: false, direction: 'same' });
  });

  it('still compares the seeds that recovered when one more seed did not (within noise): one failure must not hide a 5x slowdown', () => {
    // Base: 10 seeds recover in about 100 s. Head: one seed never recovers, the other nine take about 500 s.
    const base = point([98, 99, 100, 101, 102, 98, 99, 100, 101, 102]);
    const c = measureChange(recovery, base, point([null, 498, 499, 500, 501, 502, 498, 499, 500, 501]));
    expect(c).toMatchObject({ beyondNoise: true, direction: 'worse' });
    expect(c.delta).toBeCloseTo(400, 0);
    expect(c.why).toMatch(/^seeds without a value: 0 of 10 -> 1 of 10, within seed noise \(Welch p = 0\.\d+\); the seeds with a value: /);
    // And the seeds that recovered, no slower: the same, the count's note kept.
    const same = measureChange(recovery, base, point([null, 98, 99, 100, 101, 102, 98, 99, 100, 101]));
    expect(same).toMatchObject({ beyondNoise: false, direction: 'same' });
    expect(same.why).toMatch(/^seeds without a value: 0 of 10 -> 1 of 10, within seed noise/);
  });
});
