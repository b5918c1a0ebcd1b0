/**
 * The latency sketch (src/model/latency-histogram.ts): its quantiles against the exact
 * nearest-rank quantiles of the same samples and against hdr-histogram-js's, its exact mean,
 * and merges that give the same bytes in any order and grouping (what keeps shards, seeds and
 * populations merging exactly).
 */
import { describe, expect, it } from 'vitest';
import seedrandom from 'seedrandom';
import * as hdr from 'hdr-histogram-js';
import { LATENCY_PRECISION, LatencyHistogram } from '../../src/model/latency-histogram.js';

const PS = [0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1];

/**
 * Latencies over five decades, as a storm gives them: a lognormal body around 20 ms, a tail of
 * queue waits around 2 s and timeouts at exactly 10 s, a few instant refusals (exact zeros).
 */
function samples(n: number, seed: string): number[] {
  const rng = seedrandom.alea(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = rng();
    if (u < 0.02) out.push(0);
    else if (u < 0.05) out.push(10);
    else if (u < 0.2) out.push(2 * Math.exp(0.8 * normal()));
    else out.push(0.02 * Math.exp(0.6 * normal()));
  }
  return out;
}

/** The nearest-rank p-quantile: the ceil(p n)-th smallest. */
function exactQuantile(sorted: number[], p: number): number {
  return sorted[Math.max(1, Math.ceil(p * sorted.length - 1e-9)) - 1];
}

function sketchOf(xs: number[]): LatencyHistogram {
  const h = new LatencyHistogram();
  for (const x of xs) h.record(x);
  return h;
}

describe('LatencyHistogram: quantiles', () => {
  const xs = samples(200_000, 'quantiles');
  const sorted = [...xs].sort((a, b) => a - b);
  const h = sketchOf(xs);

  it('reads every nearest-rank quantile within its stated precision (0.39%); exact zeros as 0', () => {
    expect(LATENCY_PRECISION).toBeCloseTo(0.003899, 6);
    for (const p of PS) {
      const exact = exactQuantile(sorted, p);
      const got = h.quantile(p);
      if (exact === 0) expect(got).toBe(0);
      else expect(Math.abs(got / exact - 1), `p${p * 100}: ${got} vs ${exact}`).toBeLessThanOrEqual(LATENCY_PRECISION + 1e-12);
    }
    // The ends are the exact smallest and largest latencies (the clamp).
    expect(h.quantile(1)).toBe(sorted[sorted.length - 1]);
    expect(h.quantile(1e-9)).toBe(0);
  });

  it("agrees with hdr-histogram-js's quantiles on the same samples, within the two precisions", () => {
    // HdrHistogram takes integers: nanoseconds, 3 significant digits (its values are within
    // 0.1% of the sample, reported at the top of their bucket).
    const ref = hdr.build({ bitBucketSize: 'packed', numberOfSignificantValueDigits: 3, autoResize: true });
    for (const x of xs) ref.recordValue(Math.round(x * 1e9));
    expect(ref.totalCount).toBe(h.count);
    for (const p of PS.filter((q) => q < 1)) {
      const theirs = ref.getValueAtPercentile(p * 100) / 1e9;
      const ours = h.quantile(p);
      if (theirs < 1e-6) { expect(ours).toBe(0); continue; }
      expect(Math.abs(ours / theirs - 1), `p${p * 100}: ours ${ours}, hdr ${theirs}`).toBeLessThanOrEqual(LATENCY_PRECISION + 0.001);
    }
    ref.destroy();
  });

  it('puts a latency in the bin whose edges hold it, powers of two and their neighbours included', () => {
    for (const x of [7.7e-6, 1e-4, 0.001, 0.0125, 0.5, 1, 1 - 1e-12, 2, 3, 10, 59.99, 3600, 1e6, 2e6]) {
      // The median of three: its bin's own value (the first and last ranks are read exactly,
      // and x / 2 and 2 x are too far off to clamp it).
      const h = sketchOf([x / 2, x, 2 * x]);
      expect(Math.abs(h.quantile(0.5) / x - 1), String(x)).toBeLessThanOrEqual(LATENCY_PRECISION + 1e-12);
    }
  });

  it('holds at small counts: one latency, and ranks that a rounded product p n would push up', () => {
    const one = sketchOf([0.123]);
    for (const p of PS) expect(one.quantile(p)).toBe(0.123);
    // 0.07 x 100 is 7.000000000000001 in floating point: the 7th of 100, not the 8th.
    const hundred = sketchOf(Array.from({ length: 100 }, (_, i) => (i + 1) / 10));
    expect(Math.abs(hundred.quantile(0.07) / 0.7 - 1)).toBeLessThanOrEqual(LATENCY_PRECISION);
    expect(hundred.quantile(0.5)).toBeCloseTo(5, 1);
  });

  it('keeps the mean exact to the microsecond, and reads NaN when empty', () => {
    const sum = xs.reduce((a, x) => a + x, 0);
    expect(Math.abs(h.mean() - sum / xs.length)).toBeLessThan(1e-6);
    const empty = new LatencyHistogram();
    expect(empty.quantile(0.5)).toBeNaN();
    expect(empty.mean()).toBeNaN();
  });

  it('reads a quantile past the top bin as the exact maximum, and one below 7.6 µs within 7.6 µs', () => {
    const h2 = sketchOf([3e6, 5e6, 2e-6]);
    expect(h2.quantile(1)).toBe(5e6);
    expect(h2.quantile(0.5)).toBe(5e6); // past the scale: the largest recorded, an upper bound, not a value off by an unknown factor
    expect(Math.abs(h2.quantile(0.1) - 2e-6)).toBeLessThan(7.7e-6); // bin 1's middle, 7.66 µs
    expect(h2.quantile(0.1)).toBeGreaterThanOrEqual(2e-6);
  });
});

describe('LatencyHistogram: merging', () => {
  const xs = samples(30_000, 'merge');
  const whole = sketchOf(xs);
  const text = (h: LatencyHistogram) => JSON.stringify(h);

  it('merging shards gives the bytes of one sketch of every sample, in any order and grouping', () => {
    const rng = seedrandom.alea('shards');
    for (let trial = 0; trial < 20; trial++) {
      // Cut the samples into 2-6 shards at random points and merge them in a shuffled order,
      // grouped at random: ((a + b) + c) against (a + (b + c)) and every other association.
      const k = 2 + Math.floor(rng() * 5);
      const cuts = [0, ...Array.from({ length: k - 1 }, () => Math.floor(rng() * xs.length)).sort((a, b) => a - b), xs.length];
      let parts = Array.from({ length: k }, (_, i) => sketchOf(xs.slice(cuts[i], cuts[i + 1])));
      while (parts.length > 1) {
        const i = Math.floor(rng() * parts.length);
        const [a] = parts.splice(i, 1);
        const j = Math.floor(rng() * parts.length);
        parts[j] = rng() < 0.5 ? a.merge(parts[j]) : parts[j].merge(a);
      }
      expect(text(parts[0])).toBe(text(whole));
      expect(parts[0].mean()).toBe(whole.mean());
      for (const p of PS) expect(parts[0].quantile(p)).toBe(whole.quantile(p));
    }
  });

  it('is commutative and associative on three sketches, and an empty sketch changes nothing', () => {
    const [a, b, c] = [xs.slice(0, 7000), xs.slice(7000, 19000), xs.slice(19000)];
    const ab_c = sketchOf(a).merge(sketchOf(b)).merge(sketchOf(c));
    const a_bc = sketchOf(a).merge(sketchOf(b).merge(sketchOf(c)));
    const cba = sketchOf(c).merge(sketchOf(b)).merge(sketchOf(a));
    expect(text(ab_c)).toBe(text(a_bc));
    expect(text(cba)).toBe(text(a_bc));
    expect(text(sketchOf(a).merge(new LatencyHistogram()))).toBe(text(sketchOf(a)));
    expect(text(new LatencyHistogram().merge(sketchOf(a)))).toBe(text(sketchOf(a)));
  });

  it('writes only its nonzero bins, reads back to the same sketch, and empties on reset', () => {
    const json = whole.toJSON();
    expect(json.bins.length).toBeLessThan(2000); // of 4,865
    expect(json.bins.every(([, n]) => n > 0)).toBe(true);
    const back = LatencyHistogram.fromJSON(JSON.parse(JSON.stringify(whole)));
    expect(text(back)).toBe(text(whole));
    for (const p of PS) expect(back.quantile(p)).toBe(whole.quantile(p));
    expect(() => LatencyHistogram.fromJSON({ bins: [[99999, 1]], sumUs: 0, min: 0, max: 0 })).toThrow(/bin 99999/);
    const h = sketchOf(xs.slice(0, 100));
    h.reset();
    expect(text(h)).toBe(text(new LatencyHistogram()));
    expect(h.counts.every((c) => c === 0)).toBe(true);
    h.record(0.5);
    expect(h.quantile(0.5)).toBe(0.5);
  });
});
