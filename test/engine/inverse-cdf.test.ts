// The inverse-CDF sampler (kind inverse-cdf, src/engine/distributions.ts): the distribution a
// latency file becomes (a histogram, samples, quantiles; docs/traces.md). Exact values on a
// tiny hand table, with the draws chosen by hand, so the interpolation is checked to the digit.
import { describe, expect, it } from 'vitest';
import { distributionMean, sampler, validateDistribution, type DistributionSpec } from '../../src/engine/distributions.js';

const table = (probs: number[], values: number[]): DistributionSpec => ({ kind: 'inverse-cdf', probs: Float64Array.from(probs), values: Float64Array.from(values) });

/** A "generator" that returns the draws given, in order. */
function fixed(us: number[]) {
  let i = 0;
  return () => us[i++];
}

describe('inverse-cdf sampler', () => {
  // A histogram of 40 observations: 10 at or below 100 ms, 30 at or below 200 ms, 40 at or below 500 ms.
  const hist = table([0, 0.25, 0.75, 1], [0, 0.1, 0.2, 0.5]);

  it('draws on straight lines between the knots (uniform within each bucket)', () => {
    const us = [0, 0.125, 0.25, 0.5, 0.75, 0.875, 0.999];
    const s = sampler(hist, fixed(us));
    const got = us.map(() => s());
    const want = [0, 0.05, 0.1, 0.15, 0.2, 0.35, 0.4988];
    got.forEach((g, i) => expect(g).toBeCloseTo(want[i], 12));
  });

  it('has the exact mean of the buckets\' midpoints, weighted', () => {
    // 0.25 x 50 ms + 0.5 x 150 ms + 0.25 x 350 ms.
    expect(distributionMean(hist)).toBeCloseTo(0.175, 12);
  });

  it('jumps over an empty bucket: two knots at one probability', () => {
    // 10 below 100 ms, none in (100 ms, 300 ms], 10 in (300 ms, 500 ms].
    const jump = table([0, 0.5, 0.5, 1], [0, 0.1, 0.3, 0.5]);
    expect(validateDistribution(jump)).toBeNull();
    const us = [0.4999999, 0.5, 0.75];
    const s = sampler(jump, fixed(us));
    expect(s()).toBeCloseTo(0.1, 6);
    expect(s()).toBeCloseTo(0.3, 12);
    expect(s()).toBeCloseTo(0.4, 12);
    expect(distributionMean(jump)).toBeCloseTo(0.5 * 0.05 + 0.5 * 0.4, 12);
  });

  it('refuses a table that is not an inverse CDF', () => {
    expect(validateDistribution(table([0, 0.5], [0, 1]))).toMatch(/from 0 to 1/);
    expect(validateDistribution(table([0, 0.6, 0.4, 1], [0, 1, 2, 3]))).toMatch(/must not decrease/);
    expect(validateDistribution(table([0, 0.5, 1], [0, 2, 1]))).toMatch(/values must not decrease/);
    expect(validateDistribution(table([0, 1], [-1, 1]))).toMatch(/finite and >= 0/);
  });
});
