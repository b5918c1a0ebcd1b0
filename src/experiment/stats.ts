/**
 * The small statistics an experiment needs across seeds, each interval made for the kind of
 * number it bounds, so that none leaves the range its measure can take:
 *
 * - a mean of unbounded values (durations, multiples, counts): Student's t interval, with the
 *   exact t quantile for every number of degrees of freedom, clamped to the measure's range;
 * - a fraction of seeds (k of n recovered): the Wilson score interval;
 * - a mean of per-seed shares (each a ratio in [0, 1]): the Wilson interval at the effective
 *   sample size the seeds' spread implies (Korn and Graubard's design-effect approach for
 *   clustered proportions): the seeds are the clusters, so the interval is as wide as the
 *   seeds disagree, and it stays inside [0, 1] by construction.
 *
 * The quantile functions are written here rather than taken from a package: they are short,
 * and test/experiment/stats.test.ts checks them against published tables.
 */

export interface Interval {
  lo: number;
  hi: number;
}

export interface Estimate {
  mean: number;
  /** 95% interval; [mean, mean] with a single observation. */
  ci95: [number, number];
}

// ── Quantiles ────────────────────────────────────────────────────────────────

/**
 * The standard normal quantile: Acklam's rational approximation (relative error below
 * 1.2e-9), refined by one step of Halley's method on the exact CDF.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return p === 0 ? -Infinity : p === 1 ? Infinity : NaN;
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const e = 0.5 * erfc(-x / Math.SQRT2) - p;
  const u = e * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}

/** erfc(x) = Q(1/2, x²) for x >= 0: the regularized upper incomplete gamma, to about 1e-15. */
function erfc(x: number): number {
  if (x < 0) return 2 - erfc(-x);
  return x === 0 ? 1 : upperGamma(0.5, x * x);
}

/** Q(a, x), the regularized upper incomplete gamma: its series below a + 1, its continued fraction above (Numerical Recipes 6.2). */
function upperGamma(a: number, x: number): number {
  const lnFront = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a, sum = term;
    for (let n = 1; n < 500 && Math.abs(term) > Math.abs(sum) * 1e-16; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return 1 - sum * Math.exp(lnFront);
  }
  const tiny = 1e-300;
  let b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(lnFront) * h;
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
function logGamma(x: number): number {
  const g = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let a = g[0];
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += g[i] / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The regularized incomplete beta function I_x(a, b), by its continued fraction (modified Lentz). */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const front = Math.exp(a * Math.log(x) + b * Math.log(1 - x) - (logGamma(a) + logGamma(b) - logGamma(a + b))) / a;
  const tiny = 1e-300;
  let f = 1, c = 1, d = 0;
  for (let i = 0; i <= 400; i++) {
    const m = Math.floor(i / 2);
    let numerator: number;
    if (i === 0) numerator = 1;
    else if (i % 2 === 0) numerator = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    else numerator = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + numerator * d;
    if (Math.abs(d) < tiny) d = tiny;
    d = 1 / d;
    c = 1 + numerator / c;
    if (Math.abs(c) < tiny) c = tiny;
    const cd = c * d;
    f *= cd;
    if (Math.abs(1 - cd) < 1e-15) break;
  }
  return front * (f - 1);
}

/** P(T <= t) for Student's t with `df` degrees of freedom (df may be fractional, as Welch's is). */
export function tCdf(t: number, df: number): number {
  if (!Number.isFinite(df)) return 0.5 * erfc(-t / Math.SQRT2);
  const tail = 0.5 * incompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/**
 * P(|T| >= |t|), the two-sided tail, computed as a tail: 2 x (1 - tCdf) loses every digit
 * once tCdf rounds to 1 (a large t), and a real spread would read as p = 0.
 */
export function tTwoSided(t: number, df: number): number {
  if (!Number.isFinite(df)) return erfc(Math.abs(t) / Math.SQRT2);
  return Math.min(1, incompleteBeta(df / (df + t * t), df / 2, 0.5));
}

/**
 * The p-quantile of Student's t with `df` degrees of freedom, exact to about 1e-10: Newton's
 * method on tCdf from the normal quantile, falling back to bisection when a step would leave
 * the bracket (heavy tails at df = 1 or 2). Infinite df is the normal quantile.
 */
export function tQuantile(p: number, df: number): number {
  if (!(df > 0) || !(p > 0 && p < 1)) return NaN;
  if (!Number.isFinite(df)) return normalQuantile(p);
  if (p < 0.5) return -tQuantile(1 - p, df);
  if (p === 0.5) return 0;
  let lo = 0, hi = 1;
  while (tCdf(hi, df) < p) hi *= 2;
  let x = Math.min(Math.max(normalQuantile(p), lo), hi);
  const logNorm = logGamma((df + 1) / 2) - logGamma(df / 2) - 0.5 * Math.log(df * Math.PI);
  for (let i = 0; i < 200; i++) {
    const f = tCdf(x, df) - p;
    if (Math.abs(f) < 1e-14) break;
    if (f > 0) hi = x;
    else lo = x;
    const density = Math.exp(logNorm - ((df + 1) / 2) * Math.log1p((x * x) / df));
    let next = x - f / density;
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (Math.abs(next - x) < 1e-12 * Math.max(1, x)) { x = next; break; }
    x = next;
  }
  return x;
}

/** The two-sided 95% t quantile (0.975) for `df` degrees of freedom. */
export const t975 = (df: number): number => tQuantile(0.975, df);

// ── Intervals ────────────────────────────────────────────────────────────────

const Z975 = normalQuantile(0.975);

/** Mean and sample variance (n - 1 in the denominator; 0 for a single value). */
export function meanAndVariance(xs: readonly number[]): { mean: number; variance: number } {
  const n = xs.length;
  if (n === 0) return { mean: NaN, variance: NaN };
  let mean = 0;
  for (const x of xs) mean += x;
  mean /= n;
  if (n === 1) return { mean, variance: 0 };
  let ss = 0;
  for (const x of xs) ss += (x - mean) * (x - mean);
  return { mean, variance: ss / (n - 1) };
}

/** Mean with its 95% Student's t interval, unclamped (the measure's range is applied by the caller). */
export function estimate(xs: readonly number[]): Estimate {
  const n = xs.length;
  const { mean, variance } = meanAndVariance(xs);
  if (n === 0) return { mean: NaN, ci95: [NaN, NaN] };
  if (n === 1) return { mean, ci95: [mean, mean] };
  const half = t975(n - 1) * Math.sqrt(variance / n);
  return { mean, ci95: [mean - half, mean + half] };
}

/** A t interval for the mean, clamped to [min, max]: a duration is never negative, nor longer than the run. */
export function meanInterval(xs: readonly number[], min = -Infinity, max = Infinity): Interval {
  const [lo, hi] = estimate(xs).ci95;
  return { lo: Math.min(Math.max(lo, min), max), hi: Math.max(Math.min(hi, max), min) };
}

/** Wilson score interval at level z for a proportion p observed over n (n may be an effective, fractional size). */
function wilson(p: number, n: number, z: number): Interval {
  if (n <= 0) return { lo: 0, hi: 1 };
  if (!Number.isFinite(n)) return { lo: p, hi: p };
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}

/**
 * The Wilson score interval for k successes out of n trials at a two-sided confidence level
 * (0.99: each side misses with probability 0.005): the cliff search decides a value's side of
 * its level at a stricter level than 95%, because it looks again after every batch of seeds.
 */
export function wilsonInterval(k: number, n: number, confidence: number): Interval {
  return n > 0 ? wilson(k / n, n, normalQuantile(1 - (1 - confidence) / 2)) : { lo: 0, hi: 1 };
}

/** The Wilson score 95% interval for k successes out of n trials (k of n seeds recovered). */
export function proportionInterval(k: number, n: number): Interval {
  return n > 0 ? wilson(k / n, n, Z975) : { lo: 0, hi: 1 };
}

/**
 * A 95% interval for the mean of per-seed shares (values in [0, 1]). The seeds are clusters:
 * the effective sample size is p(1 - p) / Var(mean), and the Wilson interval at that size,
 * with the t quantile for n - 1 degrees of freedom, is as wide as the seeds disagree (it
 * tends to the t interval when they agree closely) and never leaves [0, 1]. Seeds that all
 * gave the same value give the point itself.
 */
export function shareInterval(xs: readonly number[]): Interval {
  const n = xs.length;
  const { mean, variance } = meanAndVariance(xs);
  if (n === 0) return { lo: NaN, hi: NaN };
  const p = Math.min(1, Math.max(0, mean));
  if (n === 1 || variance === 0) return { lo: p, hi: p };
  const varianceOfMean = variance / n;
  // A share at 0 or 1 with spread among seeds: use the spread's own bound for p(1 - p).
  const pq = Math.max(p * (1 - p), varianceOfMean);
  return wilson(p, pq / varianceOfMean, t975(n - 1));
}
