/**
 * A mergeable quantile sketch of latencies: fixed log-scaled bins with whole-number counts,
 * so two sketches merge exactly by adding counts, and a merge gives the same bytes whatever
 * the order (shards, populations, seeds). The recorder fills one per population and kind
 * (actions, attempts) for the whole run, and one per kind for the open bucket; the measures
 * merge the populations they read and ask for quantiles and the mean.
 *
 * Precision: bin 0 holds exact zeros; bin i >= 1 holds [L0 * G^(i-1), L0 * G^i) with
 * G = 1.01 (bins 1% wide), and a quantile is reported as its bin's geometric middle, clamped
 * to the smallest and largest value recorded (which are kept exactly, and are the answer for
 * the first and the last rank). The value reported for the nearest-rank
 * p-quantile (the ceil(p n)-th smallest of n) is therefore within 0.5% (sqrt(1.01) - 1) of
 * it, for latencies from 10 µs to about 13 days; below 10 µs it is within 10.05 µs. The top
 * bin has no upper edge: a quantile that falls in it reads the largest latency recorded
 * (kept exactly), an upper bound, rather than a value off by an unknown factor.
 *
 * The mean comes from an exact sum, not from the bins: each latency is added in whole
 * microseconds, so the sum is an integer and adding sums is exact and order-free (below
 * 2^53 µs, about 285 years of summed latency; a mean is then off by at most half a
 * microsecond). Why not the sum of the seconds as doubles: floating-point addition is not
 * associative, and a merge's result would depend on the order of the parts.
 *
 * Why our own and not `hdr-histogram-js` (docs/DESIGN.md, "Latency sketches"): recording is
 * on the simulation's hot path (every answered attempt, every ended action), where this is a
 * logarithm and two array writes that V8 inlines into the recorder; the package's record is
 * a chain of method calls on a larger object, takes integers only (a unit to choose and
 * scale to), and would bring its WebAssembly build and two dependencies into the worker's
 * bundle. test/model/latency-histogram.test.ts checks these quantiles against the package's
 * on the same samples.
 */

/** Lower edge of bin 1 (s): below it a latency is counted in bin 1 (or bin 0 when exactly 0). */
const L0 = 1e-5;
/** Ratio of a bin's upper edge to its lower edge: bins 1% wide. */
const G = 1.01;
const LOG_G = Math.log(G);
/** Up to L0 * G^(BINS - 1), about 1.1e6 s (13 days): beyond any action worth simulating. */
const BINS = 2560;
/** Relative precision of a reported quantile (half a bin, geometrically): sqrt(G) - 1. */
export const LATENCY_PRECISION = Math.sqrt(G) - 1;

/** The bin a latency (s) is counted in. */
export function latencyBin(latencyS: number): number {
  if (!(latencyS > 0)) return 0;
  const bin = 1 + Math.floor(Math.log(latencyS / L0) / LOG_G);
  return bin < 1 ? 1 : bin >= BINS ? BINS - 1 : bin;
}

/** The value a quantile falling in bin `i` reads, before the clamp to [min, max]. */
function binValue(i: number): number {
  return i === 0 ? 0 : L0 * Math.pow(G, i - 0.5);
}

/** The sparse JSON form: [bin, count] pairs of the nonzero bins in ascending order, and the exact parts. */
export interface LatencyHistogramJson {
  bins: Array<[number, number]>;
  sumUs: number;
  min: number | null;
  max: number | null;
}

export class LatencyHistogram {
  /** Count per bin (whole numbers; a Float64Array keeps them exact up to 2^53). */
  readonly counts = new Float64Array(BINS);
  /** Latencies recorded. */
  count = 0;
  /** Their sum in whole microseconds (see the header). */
  sumUs = 0;
  /** Smallest and largest latency recorded (s); +Infinity and -Infinity while empty. */
  min = Infinity;
  max = -Infinity;
  /** Lowest and highest bin that may be nonzero: quantiles and resets read only [lo, hi]. */
  private lo = BINS;
  private hi = -1;

  /** Counts one latency (s). */
  record(latencyS: number): void {
    this.recordIn(latencyBin(latencyS), latencyS);
  }

  /** Counts one latency (s) whose bin the caller has computed (latencyBin), when it counts it in two sketches. */
  recordIn(bin: number, latencyS: number): void {
    this.counts[bin]++;
    this.count++;
    this.sumUs += Math.round(latencyS * 1e6);
    if (latencyS < this.min) this.min = latencyS;
    if (latencyS > this.max) this.max = latencyS;
    if (bin < this.lo) this.lo = bin;
    if (bin > this.hi) this.hi = bin;
  }

  /** Adds another sketch's counts into this one: exact, and the result is the same in any order. */
  merge(other: LatencyHistogram): this {
    if (other.count === 0) return this;
    const c = this.counts, o = other.counts;
    for (let i = other.lo; i <= other.hi; i++) c[i] += o[i];
    this.count += other.count;
    this.sumUs += other.sumUs;
    if (other.min < this.min) this.min = other.min;
    if (other.max > this.max) this.max = other.max;
    if (other.lo < this.lo) this.lo = other.lo;
    if (other.hi > this.hi) this.hi = other.hi;
    return this;
  }

  /**
   * The nearest-rank p-quantile (0 < p <= 1: the ceil(p n)-th smallest latency), within
   * LATENCY_PRECISION of it (see the header); NaN when nothing was recorded.
   */
  quantile(p: number): number {
    const n = this.count;
    if (n === 0) return NaN;
    // The rank is ceil(p n), at least 1. p n is a rounded product (0.07 x 100 gives
    // 7.000000000000001): taking off an ulp or two first keeps a whole rank whole, as
    // HdrHistogram does, and cannot reach a true fraction (a p of a few digits makes p n a
    // multiple of 0.001 at worst, far above an ulp).
    const x = p * n;
    const rank = Math.max(1, Math.ceil(x - x * Number.EPSILON));
    // The smallest and the largest are known exactly.
    if (rank >= n) return this.max;
    if (rank === 1) return this.min;
    let cum = 0;
    for (let i = this.lo; i <= this.hi; i++) {
      cum += this.counts[i];
      // The top bin has no upper edge: all it knows is the largest latency.
      if (cum >= rank) return i === BINS - 1 ? this.max : Math.min(this.max, Math.max(this.min, binValue(i)));
    }
    return this.max;
  }

  /** The exact mean (to the microsecond); NaN when nothing was recorded. */
  mean(): number {
    return this.count > 0 ? this.sumUs / this.count / 1e6 : NaN;
  }

  /** Empties the sketch (the recorder reuses its per-bucket sketches), touching only the bins in use. */
  reset(): void {
    if (this.hi >= this.lo) this.counts.fill(0, this.lo, this.hi + 1);
    this.count = 0;
    this.sumUs = 0;
    this.min = Infinity;
    this.max = -Infinity;
    this.lo = BINS;
    this.hi = -1;
  }

  /** The sparse form (only nonzero bins): what JSON.stringify writes. */
  toJSON(): LatencyHistogramJson {
    const bins: Array<[number, number]> = [];
    for (let i = this.lo; i <= this.hi; i++) if (this.counts[i] !== 0) bins.push([i, this.counts[i]]);
    return { bins, sumUs: this.sumUs, min: this.count > 0 ? this.min : null, max: this.count > 0 ? this.max : null };
  }

  /** The sketch a sparse form describes (toJSON's inverse); throws on a bin outside the scale or a count that is not whole. */
  static fromJSON(json: LatencyHistogramJson): LatencyHistogram {
    const h = new LatencyHistogram();
    for (const [bin, n] of json.bins) {
      if (!(Number.isInteger(bin) && bin >= 0 && bin < BINS)) throw new RangeError(`latency sketch: bin ${bin} is not one of 0..${BINS - 1}`);
      if (!(Number.isInteger(n) && n > 0)) throw new RangeError(`latency sketch: bin ${bin} has count ${n}, not a whole number above 0`);
      h.counts[bin] += n;
      h.count += n;
      if (bin < h.lo) h.lo = bin;
      if (bin > h.hi) h.hi = bin;
    }
    h.sumUs = json.sumUs;
    if (h.count > 0) {
      h.min = json.min ?? Infinity;
      h.max = json.max ?? -Infinity;
    }
    return h;
  }
}
