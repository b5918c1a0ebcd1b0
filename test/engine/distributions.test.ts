import { describe, it, expect } from 'vitest';
import { stream } from '../../src/engine/rng.js';
import {
  sampler,
  distributionMean,
  lognormalFromMeanP99,
  validateDistribution,
  type DistributionSpec,
} from '../../src/engine/distributions.js';

// ---------------------------------------------------------------------------
// Statistical helpers. Every test draws from a fixed seed, so results are
// deterministic; the tolerances are set from the sampling distributions so
// that a correct sampler passes for almost any seed and a wrong one fails.
// ---------------------------------------------------------------------------

const N = 20_000;
const Z99 = 2.3263478740408408;

function draw(s: () => number, n: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = s();
  return out;
}

function mean(xs: Float64Array): number {
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** Kolmogorov–Smirnov statistic: sup |F_n(x) - F(x)| for the sample against the exact CDF. */
function ksStatistic(samples: Float64Array, cdf: (x: number) => number): number {
  const xs = Float64Array.from(samples).sort();
  const n = xs.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(xs[i]);
    d = Math.max(d, f - i / n, (i + 1) / n - f);
  }
  return d;
}

/** Asymptotic KS critical value: P(sqrt(n) D > c) = alpha with c = sqrt(-ln(alpha/2)/2). */
function ksCritical(n: number, alpha: number): number {
  return Math.sqrt(-Math.log(alpha / 2) / 2) / Math.sqrt(n);
}
const KS_CRIT = ksCritical(N, 0.001); // ≈ 0.0138 for n = 20000

/**
 * erf by its everywhere-convergent series
 *   erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_k (2x^2)^k x / (1*3*...*(2k+1)),
 * whose terms are all positive (no cancellation), so it is accurate to ~1e-15
 * absolute — far better than the 1e-7 the KS checks need. |x| >= 6 rounds to ±1.
 */
function erf(x: number): number {
  if (x >= 6) return 1;
  if (x <= -6) return -1;
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let k = 1; Math.abs(term) > 1e-17 * Math.abs(sum); k++) {
    term *= (2 * x2) / (2 * k + 1);
    sum += term;
  }
  return (2 / Math.sqrt(Math.PI)) * Math.exp(-x2) * sum;
}

const normalCdf = (z: number): number => 0.5 * (1 + erf(z / Math.SQRT2));
const uniformCdf = (min: number, max: number) => (x: number) => (x <= min ? 0 : x >= max ? 1 : (x - min) / (max - min));
const exponentialCdf = (m: number) => (x: number) => (x <= 0 ? 0 : 1 - Math.exp(-x / m));
const lognormalCdf = (mu: number, sigma: number) => (x: number) => (x <= 0 ? 0 : normalCdf((Math.log(x) - mu) / sigma));

/** Exact CDF of the piecewise-linear inverse CDF through (percentile, value) knots. */
function empiricalCdf(knots: [number, number][]): (x: number) => number {
  return (x) => {
    if (x < knots[0][1]) return 0;
    for (let i = 0; i + 1 < knots.length; i++) {
      const [p0, v0] = knots[i];
      const [p1, v1] = knots[i + 1];
      if (x < v1) return (p0 + ((x - v0) / (v1 - v0)) * (p1 - p0)) / 100;
    }
    return 1;
  };
}

/** Sorted-sample quantile (nearest rank). */
function quantile(samples: Float64Array, q: number): number {
  const xs = Float64Array.from(samples).sort();
  return xs[Math.min(xs.length - 1, Math.floor(q * xs.length))];
}

/** Asserts the sample mean is within 4 standard errors of the exact mean. */
function expectMeanNear(samples: Float64Array, exactMean: number, exactSd: number): void {
  const se = exactSd / Math.sqrt(samples.length);
  expect(Math.abs(mean(samples) - exactMean)).toBeLessThan(4 * se);
}

// ---------------------------------------------------------------------------

describe('erf (test helper)', () => {
  it('matches high-precision reference values to 1e-12', () => {
    // Reference values from mpmath at 25 digits.
    const ref: [number, number][] = [
      [0.1, 0.1124629160182848922],
      [0.5, 0.52049987781304653768],
      [1, 0.84270079294971486934],
      [-1.3, -0.9340079449406524366],
      [2, 0.99532226501895273416],
      [3.5, 0.99999925690162765859],
      [5, 0.99999999999846254021],
    ];
    for (const [x, v] of ref) expect(Math.abs(erf(x) - v)).toBeLessThan(1e-12);
  });
});

describe('sampler', () => {
  it('constant: always returns the value', () => {
    const s = sampler({ kind: 'constant', value: 0.25 }, stream(1, 'c'));
    for (let i = 0; i < 1000; i++) expect(s()).toBe(0.25);
  });

  it('uniform: mean and KS match U(min, max), values stay in [min, max)', () => {
    const min = 0.05;
    const max = 0.25;
    const xs = draw(sampler({ kind: 'uniform', min, max }, stream(11, 'u')), N);
    for (const x of xs) {
      expect(x).toBeGreaterThanOrEqual(min);
      expect(x).toBeLessThan(max);
    }
    expectMeanNear(xs, (min + max) / 2, (max - min) / Math.sqrt(12));
    expect(ksStatistic(xs, uniformCdf(min, max))).toBeLessThan(KS_CRIT);
  });

  it('exponential: mean and KS match Exp with the given mean (not rate)', () => {
    const m = 0.1;
    const xs = draw(sampler({ kind: 'exponential', mean: m }, stream(12, 'e')), N);
    for (const x of xs) expect(x).toBeGreaterThanOrEqual(0);
    expectMeanNear(xs, m, m); // sd of an exponential equals its mean
    expect(ksStatistic(xs, exponentialCdf(m))).toBeLessThan(KS_CRIT);
  });

  it('lognormal (mu, sigma): mean and KS match exp(N(mu, sigma^2))', () => {
    const mu = -2;
    const sigma = 0.8;
    const xs = draw(sampler({ kind: 'lognormal', mu, sigma }, stream(13, 'ln')), N);
    const m = Math.exp(mu + (sigma * sigma) / 2);
    expectMeanNear(xs, m, m * Math.sqrt(Math.exp(sigma * sigma) - 1));
    expect(ksStatistic(xs, lognormalCdf(mu, sigma))).toBeLessThan(KS_CRIT);
    // The median is exp(mu): a direct check on mu independent of sigma.
    expect(Math.abs(quantile(xs, 0.5) / Math.exp(mu) - 1)).toBeLessThan(0.03);
  });

  it('lognormal: maps a draw u to exp(inverse normal CDF of u), tails included', () => {
    // KS at n = 20000 barely sees the outer 2.5% on each side, where the normal
    // generator switches formula, so check the mapping itself with a stub stream.
    // Reference quantiles from mpmath: sqrt(2) * erfinv(2u - 1).
    const ref: [number, number][] = [
      [1e-9, -5.9978070150076869], [1e-6, -4.7534243088228989], [0.001, -3.0902323061678135],
      [0.02, -2.0537489106318231], [0.0243, -1.9720841590292885], [0.1, -1.2815515655446005],
      [0.5, 0], [0.7, 0.52440051270804078], [0.9, 1.2815515655446005], [0.975, 1.9599639845400542],
      [0.98, 2.0537489106318231], [0.999, 3.0902323061678135], [0.999999, 4.7534243088228989],
    ];
    for (const [u, z] of ref) {
      const x = sampler({ kind: 'lognormal', mu: 0, sigma: 1 }, () => u)();
      expect(Math.abs(Math.log(x) - z), `u = ${u}`).toBeLessThan(3e-9 * Math.max(1, Math.abs(z)));
    }
  });

  it('lognormal (mean, p99): KS against the hand-solved CDF', () => {
    // mean 0.1, p99 0.8 → sigma ≈ 1.2070, mu ≈ -3.0310 (see lognormalFromMeanP99 test).
    const xs = draw(sampler({ kind: 'lognormal', mean: 0.1, p99: 0.8 }, stream(14, 'ln')), N);
    expect(ksStatistic(xs, lognormalCdf(-3.0309709450907708, 1.2069679797713982))).toBeLessThan(KS_CRIT);
  });

  it('lognormal (mean, p99): sample p99 within 3% and mean within 4 SE', () => {
    // The sample p99 has relative SE ≈ sigma*sqrt(0.0099/n)/phi(z99) ≈ 0.71% at
    // n = 400k (3.2% at 20k, too loose to trust), so 3% is about 4 SE.
    const n = 400_000;
    const sigma = 1.2069679797713982;
    const xs = draw(sampler({ kind: 'lognormal', mean: 0.1, p99: 0.8 }, stream(15, 'ln')), n);
    expect(Math.abs(quantile(xs, 0.99) / 0.8 - 1)).toBeLessThan(0.03);
    expectMeanNear(xs, 0.1, 0.1 * Math.sqrt(Math.exp(sigma * sigma) - 1));
  });

  const EMPIRICAL: Record<string, number> = { p0: 0.01, p50: 0.05, p90: 0.2, p99: 0.8, 'p99.9': 2, p100: 5 };
  const EMPIRICAL_KNOTS: [number, number][] = [
    [0, 0.01], [50, 0.05], [90, 0.2], [99, 0.8], [99.9, 2], [100, 5],
  ];

  it('empirical: mean and KS match the piecewise-linear inverse CDF', () => {
    const xs = draw(sampler({ kind: 'empirical', percentiles: EMPIRICAL }, stream(16, 'emp')), N);
    for (const x of xs) {
      expect(x).toBeGreaterThanOrEqual(0.01);
      expect(x).toBeLessThanOrEqual(5);
    }
    // Each segment is uniform on [a, b] with weight w: E[X^2] = sum w (a^2 + ab + b^2) / 3.
    let ex2 = 0;
    for (let i = 0; i + 1 < EMPIRICAL_KNOTS.length; i++) {
      const w = (EMPIRICAL_KNOTS[i + 1][0] - EMPIRICAL_KNOTS[i][0]) / 100;
      const a = EMPIRICAL_KNOTS[i][1];
      const b = EMPIRICAL_KNOTS[i + 1][1];
      ex2 += (w * (a * a + a * b + b * b)) / 3;
    }
    const m = 0.1261; // trapezoids, computed below in the distributionMean test
    expectMeanNear(xs, m, Math.sqrt(ex2 - m * m));
    expect(ksStatistic(xs, empiricalCdf(EMPIRICAL_KNOTS))).toBeLessThan(KS_CRIT);
    expect(Math.abs(quantile(xs, 0.5) - 0.05)).toBeLessThan(0.002);
  });

  it('empirical: sorts percentiles numerically, whatever the key order', () => {
    // As strings, 'p100' < 'p50' < 'p99.9'; insertion order is scrambled too.
    const scrambled = { 'p99.9': 2, p100: 5, p50: 0.05, p0: 0.01, p99: 0.8, p90: 0.2 };
    const a = draw(sampler({ kind: 'empirical', percentiles: scrambled }, stream(17, 'emp')), 1000);
    const b = draw(sampler({ kind: 'empirical', percentiles: EMPIRICAL }, stream(17, 'emp')), 1000);
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('empirical: p0 and p100 alone give a uniform distribution', () => {
    const xs = draw(sampler({ kind: 'empirical', percentiles: { p0: 1, p100: 3 } }, stream(18, 'emp')), N);
    expect(ksStatistic(xs, uniformCdf(1, 3))).toBeLessThan(KS_CRIT);
  });

  it('uses exactly one draw per call (constant: none), so stream alignment is predictable', () => {
    const specs: [DistributionSpec, number][] = [
      [{ kind: 'constant', value: 1 }, 0],
      [{ kind: 'uniform', min: 0, max: 1 }, 1],
      [{ kind: 'exponential', mean: 1 }, 1],
      [{ kind: 'lognormal', mu: 0, sigma: 1 }, 1],
      [{ kind: 'lognormal', mean: 1, p99: 5 }, 1],
      [{ kind: 'empirical', percentiles: EMPIRICAL }, 1],
    ];
    for (const [spec, perCall] of specs) {
      const base = stream(19, 'count');
      let calls = 0;
      const s = sampler(spec, () => {
        calls++;
        return base();
      });
      for (let i = 0; i < 1000; i++) s();
      expect(calls).toBe(1000 * perCall);
    }
  });

  it('never returns a non-finite value, even when the stream returns exactly 0', () => {
    const zero = () => 0;
    const specs: DistributionSpec[] = [
      { kind: 'uniform', min: 0, max: 1 },
      { kind: 'exponential', mean: 1 },
      { kind: 'lognormal', mu: 0, sigma: 1 },
      { kind: 'empirical', percentiles: EMPIRICAL },
    ];
    for (const spec of specs) {
      const x = sampler(spec, zero)();
      expect(Number.isFinite(x)).toBe(true);
      expect(x).toBeGreaterThanOrEqual(0);
    }
  });

  it('throws RangeError on an impossible spec', () => {
    expect(() => sampler({ kind: 'uniform', min: 2, max: 1 }, stream(1, 'x'))).toThrow(RangeError);
    expect(() => sampler({ kind: 'lognormal', mean: 0.1, p99: 5 }, stream(1, 'x'))).toThrow(/at most 14\.97x/);
  });
});

describe('the statistical checks can fail', () => {
  it('KS rejects an exponential with twice the mean (or mean/rate confusion)', () => {
    const xs = draw(sampler({ kind: 'exponential', mean: 0.2 }, stream(20, 'e')), N);
    // sup |e^{-x/0.2} - e^{-x/0.1}| = 0.25 at x = 0.2 ln 2: ~18x the critical value.
    expect(ksStatistic(xs, exponentialCdf(0.1))).toBeGreaterThan(10 * KS_CRIT);
    // The mean check fails too.
    expect(Math.abs(mean(xs) - 0.1)).toBeGreaterThan(4 * (0.1 / Math.sqrt(N)));
    const rateMistake = draw(sampler({ kind: 'exponential', mean: 1 / 0.1 }, stream(20, 'e')), N);
    expect(ksStatistic(rateMistake, exponentialCdf(0.1))).toBeGreaterThan(0.5);
  });

  it('KS rejects a lognormal whose sigma is off by 10%', () => {
    const mu = -3.0309709450907708;
    const sigma = 1.2069679797713982;
    const xs = draw(sampler({ kind: 'lognormal', mu, sigma: sigma * 1.1 }, stream(21, 'ln')), N);
    // The exact sup distance is ≈ 0.022 (about 1.6x the critical value).
    expect(ksStatistic(xs, lognormalCdf(mu, sigma))).toBeGreaterThan(KS_CRIT);
  });

  it('KS rejects a lognormal built from the larger root of the mean/p99 equation', () => {
    const z = Z99;
    const bigSigma = z + Math.sqrt(z * z - 2 * Math.log(8));
    const bigMu = Math.log(0.1) - (bigSigma * bigSigma) / 2;
    const xs = draw(sampler({ kind: 'lognormal', mu: bigMu, sigma: bigSigma }, stream(22, 'ln')), N);
    expect(ksStatistic(xs, lognormalCdf(-3.0309709450907708, 1.2069679797713982))).toBeGreaterThan(10 * KS_CRIT);
  });

  it('KS rejects a uniform shifted by 5% of its width', () => {
    const xs = draw(sampler({ kind: 'uniform', min: 0.06, max: 0.26 }, stream(23, 'u')), N);
    expect(ksStatistic(xs, uniformCdf(0.05, 0.25))).toBeGreaterThan(2 * KS_CRIT);
  });
});

describe('lognormalFromMeanP99', () => {
  it('solves mean 0.1s, p99 0.8s', () => {
    // By hand: ln(p99/mean) = ln 8 = 2.0794415; z^2 = 5.4118944;
    // sigma = z - sqrt(z^2 - 2 ln 8) = 2.3263479 - sqrt(1.2530113) = 1.2069680;
    // mu = ln 0.1 - sigma^2/2 = -2.3025851 - 0.7283858 = -3.0309709.
    // (30-digit values from mpmath: sigma 1.206967979771398169, mu -3.030970945090770794.)
    const { mu, sigma } = lognormalFromMeanP99(0.1, 0.8);
    expect(sigma).toBeCloseTo(1.206967979771398169, 12);
    expect(mu).toBeCloseTo(-3.030970945090770794, 12);
    // The defining equations hold, and it is the smaller root.
    expect(Math.exp(mu + (sigma * sigma) / 2)).toBeCloseTo(0.1, 14);
    expect(Math.exp(mu + Z99 * sigma)).toBeCloseTo(0.8, 13);
    expect(sigma).toBeLessThan(Z99);
  });

  it('works up to the largest possible ratio, exp(z^2/2) ≈ 14.97', () => {
    const maxRatio = Math.exp((Z99 * Z99) / 2);
    const { sigma } = lognormalFromMeanP99(1, maxRatio * (1 - 1e-12));
    expect(sigma).toBeCloseTo(Z99, 4);
    expect(() => lognormalFromMeanP99(1, maxRatio * (1 + 1e-9))).toThrow(RangeError);
  });

  it('throws RangeError for impossible inputs', () => {
    expect(() => lognormalFromMeanP99(0.1, 5)).toThrow(
      new RangeError('lognormal: p99 must be above the mean and at most 14.97x it (got mean 0.1s, p99 5s)'),
    );
    expect(() => lognormalFromMeanP99(0.1, 0.1)).toThrow(RangeError); // p99 == mean
    expect(() => lognormalFromMeanP99(0.1, 0.05)).toThrow(RangeError); // p99 < mean
    expect(() => lognormalFromMeanP99(0, 0.5)).toThrow(RangeError);
    expect(() => lognormalFromMeanP99(-1, 0.5)).toThrow(RangeError);
    expect(() => lognormalFromMeanP99(Number.NaN, 0.5)).toThrow(RangeError);
  });
});

describe('distributionMean', () => {
  it('gives the exact mean of each kind', () => {
    expect(distributionMean({ kind: 'constant', value: 0.3 })).toBe(0.3);
    expect(distributionMean({ kind: 'uniform', min: 0.05, max: 0.25 })).toBeCloseTo(0.15, 15);
    expect(distributionMean({ kind: 'exponential', mean: 0.1 })).toBe(0.1);
    expect(distributionMean({ kind: 'lognormal', mu: -2, sigma: 0.8 })).toBeCloseTo(Math.exp(-2 + 0.32), 15);
    expect(distributionMean({ kind: 'lognormal', mean: 0.1, p99: 0.8 })).toBeCloseTo(0.1, 15);
    // Trapezoids: 0.5*(0.01+0.05)/2 + 0.4*(0.05+0.2)/2 + 0.09*(0.2+0.8)/2
    //           + 0.009*(0.8+2)/2 + 0.001*(2+5)/2
    //           = 0.015 + 0.05 + 0.045 + 0.0126 + 0.0035 = 0.1261
    expect(
      distributionMean({ kind: 'empirical', percentiles: { p0: 0.01, p50: 0.05, p90: 0.2, p99: 0.8, 'p99.9': 2, p100: 5 } }),
    ).toBeCloseTo(0.1261, 14);
  });

  it('throws RangeError on an impossible spec', () => {
    expect(() => distributionMean({ kind: 'exponential', mean: -1 })).toThrow(RangeError);
  });
});

describe('validateDistribution', () => {
  it('returns null for valid specs', () => {
    const ok: DistributionSpec[] = [
      { kind: 'constant', value: 0 },
      { kind: 'uniform', min: 0.1, max: 0.1 },
      { kind: 'exponential', mean: 0.1 },
      { kind: 'lognormal', mean: 0.1, p99: 0.8 },
      { kind: 'lognormal', mu: -2, sigma: 0.5 },
      { kind: 'empirical', percentiles: { p0: 0.01, p50: 0.05, 'p99.9': 2, p100: 5 } },
      { kind: 'empirical', percentiles: { p0: 0.01, p50: 0.05, p90: 0.05, p100: 1 } }, // a flat step is allowed
    ];
    for (const spec of ok) expect(validateDistribution(spec)).toBeNull();
  });

  it('explains what is wrong and what would be right', () => {
    const cases: [DistributionSpec, string | RegExp][] = [
      [{ kind: 'constant', value: -1 }, 'constant: value must be finite and >= 0 (got -1s)'],
      [{ kind: 'uniform', min: 2, max: 1 }, 'uniform: min must be at most max (got min 2s, max 1s)'],
      [{ kind: 'uniform', min: -1, max: 1 }, /uniform: min and max must be finite and >= 0/],
      [{ kind: 'exponential', mean: 0 }, /exponential: mean must be finite and > 0 \(got 0s\)/],
      [{ kind: 'lognormal', mean: 0.1, p99: 5 }, 'lognormal: p99 must be above the mean and at most 14.97x it (got mean 0.1s, p99 5s)'],
      [{ kind: 'lognormal', mean: 0.1, p99: 0.1 }, /p99 must be above the mean/],
      [{ kind: 'lognormal', mean: -0.1, p99: 0.1 }, /lognormal: mean must be finite and > 0/],
      [{ kind: 'lognormal', mu: 0, sigma: 0 }, 'lognormal: sigma must be finite and > 0 (got 0)'],
      [{ kind: 'lognormal', mu: 0, sigma: -1 }, /sigma must be finite and > 0/],
      [{ kind: 'empirical', percentiles: { p0: 0.01, p50: 0.05 } }, /p0 and p100 are required.*missing p100/],
      [{ kind: 'empirical', percentiles: { p50: 0.05, p100: 1 } }, /missing p0/],
      [
        { kind: 'empirical', percentiles: { p0: 0.01, p90: 0.2, p99: 0.1, p100: 1 } },
        'empirical: values must not decrease as the percentile rises (p90 is 0.2s but p99 is 0.1s)',
      ],
      [{ kind: 'empirical', percentiles: { p0: 0, median: 1, p100: 2 } }, /keys look like p50 or p99\.9 \(got 'median'\)/],
      [{ kind: 'empirical', percentiles: { p0: 0, p101: 1, p100: 2 } }, /from p0 to p100 \(got 'p101'\)/],
      [{ kind: 'empirical', percentiles: { p0: 0, p50: 1, 'p50.0': 1, p100: 2 } }, /same percentile is given twice/],
      [{ kind: 'empirical', percentiles: { p0: -1, p100: 2 } }, /values must be finite and >= 0 \(p0 is -1s\)/],
      [{ kind: 'weibull' } as unknown as DistributionSpec, /unknown distribution kind 'weibull'/],
    ];
    for (const [spec, expected] of cases) {
      const msg = validateDistribution(spec);
      expect(msg, JSON.stringify(spec)).not.toBeNull();
      if (typeof expected === 'string') expect(msg).toBe(expected);
      else expect(msg).toMatch(expected);
    }
  });
});
