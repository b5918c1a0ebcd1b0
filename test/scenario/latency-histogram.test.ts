// Service times from observed latency (docs/traces.md): a histogram round trip. 200,000 values
// drawn from a known distribution are bucketed as Prometheus would (its default bounds),
// written as a CSV and as the JSON of a range query, and read back; the distribution read is
// the buckets interpolated uniformly within each bucket, and a sample drawn from it by inverse
// CDF matches that distribution: its mean, chosen quantiles, the count of each bucket and of
// each half-bucket (uniform within a bucket) by chi-square. Then a tiny hand histogram, read
// exactly, and samples and quantiles CSVs.
import { describe, expect, it } from 'vitest';
import { stream } from '../../src/engine/rng.js';
import { distributionMean, sampler } from '../../src/engine/distributions.js';
import { readLatencyCsv } from '../../src/scenario/trace/latency-csv.js';
import { readPrometheusHistogram } from '../../src/scenario/trace/latency-prometheus.js';
import type { Knots } from '../../src/scenario/trace/latency-data.js';
import type { LatencyOptions } from '../../src/scenario/trace/latency-options.js';

const N = 200_000;
/** Prometheus' default buckets (client_golang DefBuckets). */
const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const csvBuckets: LatencyOptions = { file: 'h.csv', format: 'csv', shape: 'buckets', columns: { le: 'le', count: 'count' }, unit: 's' };
const prometheus: LatencyOptions = { file: 'h.json', format: 'prometheus', columns: {}, unit: 's' };

function knotsOf(x: Knots | { message: string }): Knots {
  if ('message' in x) throw new Error(x.message);
  return x;
}

const spec = (k: Knots) => ({ kind: 'inverse-cdf' as const, probs: Float64Array.from(k.probs), values: Float64Array.from(k.values) });

/** The CDF of a piecewise-linear inverse CDF at x. */
function cdf(k: Knots, x: number): number {
  const { probs, values } = k;
  if (x < values[0]) return 0;
  for (let i = values.length - 2; i >= 0; i--) {
    if (x >= values[i]) {
      if (x >= values[i + 1]) return probs[i + 1];
      return probs[i] + ((probs[i + 1] - probs[i]) * (x - values[i])) / (values[i + 1] - values[i]);
    }
  }
  return 0;
}

/** The upper 0.1% point of chi-square with df degrees of freedom (Wilson-Hilferty). */
function chiSquare999(df: number): number {
  const z = 3.0902;
  return df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
}

/** Pearson's statistic of observed counts against expected probabilities (cells expecting fewer than 5 pooled away). */
function pearson(observed: number[], probs: number[], n: number): { stat: number; df: number } {
  let stat = 0, df = -1;
  for (let i = 0; i < observed.length; i++) {
    const e = probs[i] * n;
    if (e < 5) continue;
    stat += (observed[i] - e) ** 2 / e;
    df++;
  }
  return { stat, df };
}

describe('a latency histogram round trip', () => {
  // The truth: lognormal with mean 200 ms and p99 1 s.
  const truth = sampler({ kind: 'lognormal', mean: 0.2, p99: 1 }, stream(7, 'truth'));
  const cumulative = BOUNDS.map(() => 0);
  let inf = 0;
  for (let i = 0; i < N; i++) {
    const x = truth();
    inf++;
    for (let b = BOUNDS.length - 1; b >= 0 && x <= BOUNDS[b]; b--) cumulative[b]++;
  }
  const csv = ['le,count', ...BOUNDS.map((le, i) => `${le},${cumulative[i]}`), `+Inf,${inf}`].join('\n') + '\n';
  // A range query of the raw counters over an hour: each bucket's count is last minus first.
  const start = 1_765_100_000;
  const bucketSeries = [...BOUNDS.map(String), '+Inf'].map((le, i) => {
    const total = i < BOUNDS.length ? cumulative[i] : inf;
    const before = 1000 + 7 * i; // counters do not start at 0: the process was up before the range
    return { metric: { __name__: 'http_request_duration_seconds_bucket', le }, values: [[start, String(before)], [start + 1800, String(before + Math.floor(total / 2))], [start + 3600, String(before + total)]] };
  });
  // Prometheus orders series by their labels as strings: "0.005" … "10" before "2.5".
  bucketSeries.sort((a, b) => (a.metric.le < b.metric.le ? -1 : 1));
  const json = JSON.stringify({ status: 'success', data: { resultType: 'matrix', result: bucketSeries } });

  const fromCsv = knotsOf(readLatencyCsv(csv, csvBuckets));
  const fromJson = knotsOf(readPrometheusHistogram(json, prometheus));

  it('reads the buckets as their cumulative share at each bound, from a CSV and from Prometheus alike', () => {
    expect(fromCsv.observations).toBe(N);
    expect(Array.from(fromJson.probs)).toEqual(Array.from(fromCsv.probs));
    expect(Array.from(fromJson.values)).toEqual(Array.from(fromCsv.values));
    // (0, 0), then each bound that holds something, at its count / N.
    const last = cumulative.findIndex((c) => c === N);
    expect(Array.from(fromCsv.values)).toEqual([0, ...BOUNDS.slice(0, last + 1)]);
    expect(Array.from(fromCsv.probs)).toEqual([0, ...cumulative.slice(0, last + 1).map((c) => (c === N ? 1 : c / N))]);
  });

  const drawn = new Float64Array(N);
  const s = sampler(spec(fromCsv), stream(11, 'round-trip'));
  for (let i = 0; i < N; i++) drawn[i] = s();
  const sorted = drawn.slice().sort();

  it('draws with the interpolated distribution\'s mean', () => {
    const m = drawn.reduce((a, b) => a + b, 0) / N;
    const sd = Math.sqrt(drawn.reduce((a, b) => a + (b - m) ** 2, 0) / (N - 1));
    const want = distributionMean(spec(fromCsv));
    expect(Math.abs(m - want)).toBeLessThan(4 * sd / Math.sqrt(N));
    // The buckets lose the shape within them: spread evenly, the observations of a bucket where
    // the density falls (the lognormal's tail) sit higher than they were. With Prometheus'
    // default bounds the mean reads 10% above the truth's 200 ms (docs/traces.md).
    expect(want).toBeGreaterThan(0.2);
    expect(want / 0.2 - 1).toBeLessThan(0.15);
  });

  it('draws with its quantiles: p50, p90, p99, p99.9', () => {
    for (const q of [0.5, 0.9, 0.99, 0.999]) {
      const x = sorted[Math.floor(q * N)];
      // The distribution's CDF at the sample quantile is q within 4 standard errors.
      expect(Math.abs(cdf(fromCsv, x) - q)).toBeLessThan(4 * Math.sqrt((q * (1 - q)) / N));
    }
  });

  it('fills each bucket and each half-bucket as the histogram says (chi-square, p > 0.001)', () => {
    const { probs, values } = fromCsv;
    // Cells: each half of each bucket (uniform within a bucket: half its share in each half).
    const edges: number[] = [];
    const cellProbs: number[] = [];
    for (let i = 0; i + 1 < values.length; i++) {
      const mid = (values[i] + values[i + 1]) / 2;
      const share = probs[i + 1] - probs[i];
      edges.push(mid, values[i + 1]);
      cellProbs.push(share / 2, share / 2);
    }
    const observed = edges.map(() => 0);
    for (const x of drawn) {
      let c = 0;
      while (c < edges.length - 1 && x > edges[c]) c++;
      observed[c]++;
    }
    const halves = pearson(observed, cellProbs, N);
    expect(halves.df).toBeGreaterThan(10);
    expect(halves.stat).toBeLessThan(chiSquare999(halves.df));
    // Whole buckets against the recorded counts.
    const perBucket = observed.reduce<number[]>((acc, o, i) => (i % 2 === 0 ? [...acc, o] : (acc[acc.length - 1] += o, acc)), []);
    const buckets = pearson(perBucket, cellProbs.filter((_, i) => i % 2 === 0).map((p) => 2 * p), N);
    expect(buckets.stat).toBeLessThan(chiSquare999(buckets.df));
  });
});

describe('a tiny histogram, read exactly', () => {
  it('interpolates within buckets from 0, and drops a +Inf bucket that adds nothing', () => {
    const k = knotsOf(readLatencyCsv('le,count\n0.1,10\n0.2,30\n0.5,40\n+Inf,40\n', csvBuckets));
    expect(Array.from(k.probs)).toEqual([0, 0.25, 0.75, 1]);
    expect(Array.from(k.values)).toEqual([0, 0.1, 0.2, 0.5]);
    expect(distributionMean(spec(k))).toBeCloseTo(0.175, 12);
  });

  it('spreads the +Inf bucket to max, and skips empty buckets at either end', () => {
    const k = knotsOf(readLatencyCsv('le,count\n0.05,0\n0.1,0\n0.2,10\n0.5,10\n1,15\n2,15\n+Inf,20\n', { ...csvBuckets, max: 4 }));
    // Nothing at or below 100 ms: the first bucket with observations starts there.
    expect(Array.from(k.values)).toEqual([0.1, 0.2, 0.5, 1, 2, 4]);
    expect(Array.from(k.probs)).toEqual([0, 0.5, 0.5, 0.75, 0.75, 1]);
    expect(distributionMean(spec(k))).toBeCloseTo(0.5 * 0.15 + 0.25 * 0.75 + 0.25 * 3, 12);
  });

  it('reads bounds in milliseconds with unit: ms', () => {
    const k = knotsOf(readLatencyCsv('le,count\n100,10\n200,30\n500,40\n', { ...csvBuckets, unit: 'ms' }));
    expect(Array.from(k.values)).toEqual([0, 0.1, 0.2, 0.5]);
  });

  it('reads an instant query\'s vector as the counts themselves', () => {
    const vector = (le: string, v: string) => ({ metric: { le }, value: [1_765_100_000, v] });
    const json = JSON.stringify({ status: 'success', data: { resultType: 'vector', result: [vector('+Inf', '40'), vector('0.1', '10'), vector('0.5', '40'), vector('0.2', '30')] } });
    const k = knotsOf(readPrometheusHistogram(json, prometheus));
    expect(Array.from(k.probs)).toEqual([0, 0.25, 0.75, 1]);
    expect(Array.from(k.values)).toEqual([0, 0.1, 0.2, 0.5]);
  });
});

describe('samples and quantiles', () => {
  it('samples: the sorted samples at probabilities i / (n - 1)', () => {
    const k = knotsOf(readLatencyCsv('latency_ms\n40\n10\n30\n20\n50\n', { file: 's.csv', format: 'csv', shape: 'samples', columns: { sample: 'latency_ms' }, unit: 'ms' }));
    expect(Array.from(k.values)).toEqual([0.01, 0.02, 0.03, 0.04, 0.05]);
    expect(Array.from(k.probs)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(k.observations).toBe(5);
  });

  it('quantiles: the table as written', () => {
    const k = knotsOf(readLatencyCsv('q,v\n0,0.005\n0.5,0.04\n0.99,0.9\n1,3\n', { file: 'q.csv', format: 'csv', shape: 'quantiles', columns: { quantile: 'q', value: 'v' }, unit: 's' }));
    expect(Array.from(k.probs)).toEqual([0, 0.5, 0.99, 1]);
    expect(Array.from(k.values)).toEqual([0.005, 0.04, 0.9, 3]);
  });
});
