/**
 * A mergeable quantile sketch of latencies: fixed log-scaled bins with whole-number counts,
 * so two sketches merge exactly by adding counts, and a merge gives the same bytes whatever
 * the order (shards, populations, seeds). The recorder fills one per population and kind
 * (actions, attempts) for the whole run, and one per kind for the open bucket; the measures
 * merge the populations they read and ask for quantiles and the mean.
 *
 * Precision: bin 0 holds exact zeros; above it the bins are log-linear, as HdrHistogram's:
 * each power of two [2^e, 2^(e+1)) is cut into 128 equal bins, so a bin's upper edge is at
 * most 129/128 of its lower edge. A quantile is reported as its bin's geometric middle,
 * clamped to the smallest and largest value recorded (kept exactly: they are the answer for
 * the first and the last rank). The value reported for the nearest-rank p-quantile (the
 * ceil(p n)-th smallest of n) is therefore within 0.39% (sqrt(129/128) - 1) of it, for
 * latencies from 2^-17 s (7.6 µs) to 2^21 s (24 days); below 7.6 µs it is within 7.6 µs. The
 * top bin has no upper edge: a quantile that falls in it reads the largest latency recorded,
 * an upper bound, rather than a value off by an unknown factor.
 *
 * Why log-linear bins rather than bins of equal ratio: a latency's bin is read from the bits
 * of its double (exponent and top mantissa bits), a shift and a subtraction, where equal
 * ratios need a logarithm; on the recorder's hot path that was a measurable part of a storm's
 * instructions.
 *
 * The mean comes from an exact sum, not from the bins: each latency is added in whole
 * microseconds (rounded to the nearest), so the sum is an integer and adding sums is exact
 * and order-free (below 2^53 µs, about 285 years of summed latency; a mean is then off by at
 * most half a microsecond). Why not the sum of the seconds as doubles: floating-point
 * addition is not associative, and a merge's result would depend on the order of the parts.
 *
 * Why our own and not `hdr-histogram-js` (docs/DESIGN.md, "Latency sketches"): recording is
 * on the simulation's hot path (every answered attempt, every ended action), where this is a
 * shift and a few writes into one typed array; the package's record is a chain of method
 * calls on a larger object, takes integers only (a unit to choose and scale to), and would
 * bring its WebAssembly build and two dependencies into the worker's bundle. test/model/latency-histogram.test.ts checks these quantiles against the package's
 * on the same samples.
 */

/** Bins per power of two (2^SUB_BITS), cut linearly. */
const SUB_BITS = 7;
const SUB = 1 << SUB_BITS;
/** Lowest and highest power of two with bins of their own: 2^-17 s (7.6 µs) to 2^21 s (24 days). */
const E_MIN = -17;
const E_MAX = 20;
/** Bin 0 (exact zeros), then SUB bins per power of two. */
const BINS = 1 + (E_MAX - E_MIN + 1) * SUB;
/** Relative precision of a reported quantile (half the widest bin, geometrically). */
export const LATENCY_PRECISION = Math.sqrt((SUB + 1) / SUB) - 1;

/** A double's bits, read through a shared buffer: its high word holds the exponent and the top of the mantissa. */
const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0; // little-endian: the high word is the second
/** (biased exponent << SUB_BITS | top mantissa bits) of 2^E_MIN, less 1: subtracted, it makes 2^E_MIN's bin 1. */
const OFFSET = ((1023 + E_MIN) << SUB_BITS) - 1;

/** The bin a latency (s) is counted in. */
export function latencyBin(latencyS: number): number {
  if (!(latencyS > 0)) return 0;
  F64[0] = latencyS;
  const bin = (U32[HIGH] >>> (20 - SUB_BITS)) - OFFSET;
  return bin < 1 ? 1 : bin >= BINS ? BINS - 1 : bin;
}

/** The value a quantile falling in bin `i` reads, before the clamp to [min, max]: its geometric middle. */
function binValue(i: number): number {
  if (i === 0) return 0;
  const k = (i - 1) & (SUB - 1);
  const base = Math.pow(2, E_MIN + ((i - 1) >> SUB_BITS));
  return base * Math.sqrt((1 + k / SUB) * (1 + (k + 1) / SUB));
}

/** The sparse JSON form: [bin, count] pairs of the nonzero bins in ascending order, and the exact parts. */
export interface LatencyHistogramJson {
  bins: Array<[number, number]>;
  sumUs: number;
  min: number | null;
  max: number | null;
}

/** 1.5 x 2^52: a double in [2^52, 2^53) has no fraction, so x + ROUNDER - ROUNDER is x rounded to a whole number (ties to even). */
const ROUNDER = 6755399441055744;

/** Where the exact parts sit, after the bins, in one typed array (see LatencyHistogram.cells). */
const N = BINS, SUM = BINS + 1, MIN = BINS + 2, MAX = BINS + 3;

export class LatencyHistogram {
  /**
   * The bins' counts, then the count, the sum in whole microseconds, the smallest and the
   * largest latency, in one Float64Array: recording then writes numbers into one typed array
   * and no object field (whole numbers stay exact up to 2^53).
   */
  private readonly cells = new Float64Array(BINS + 4);
  /** Count per bin: a view of the cells' bins. */
  readonly counts = this.cells.subarray(0, BINS);

  constructor() {
    this.cells[MIN] = Infinity;
    this.cells[MAX] = -Infinity;
  }

  /** Latencies recorded. */
  get count(): number {
    return this.cells[N];
  }

  /** Their sum in whole microseconds (see the header). */
  get sumUs(): number {
    return this.cells[SUM];
  }

  /** Smallest and largest latency recorded (s); +Infinity and -Infinity while empty (or only counted: countIn). */
  get min(): number {
    return this.cells[MIN];
  }

  get max(): number {
    return this.cells[MAX];
  }

  /** Counts one latency (s). */
  record(latencyS: number): void {
    this.recordIn(latencyBin(latencyS), latencyS);
  }

  /** Counts one latency (s) whose bin the caller has computed (latencyBin), when it counts it in two sketches. */
  recordIn(bin: number, latencyS: number): void {
    const c = this.cells;
    c[bin]++;
    c[N]++;
    // To the nearest whole microsecond: adding and taking off 1.5 x 2^52 leaves no fraction
    // (for anything below 2^51 µs, 71 years), two additions where Math.round cost the storm 0.6%.
    c[SUM] += latencyS * 1e6 + ROUNDER - ROUNDER;
    if (latencyS < c[MIN]) c[MIN] = latencyS;
    if (latencyS > c[MAX]) c[MAX] = latencyS;
  }

  /**
   * Counts a latency by its bin only: no sum, smallest or largest. The recorder's per-bucket
   * sketches, read for their p50 and p99 and nothing else, are filled so, which keeps an
   * answer's cost on the hot path to two increments. Quantiles of such a sketch are its bins'
   * middles (within LATENCY_PRECISION all the same), and it has no mean.
   */
  countIn(bin: number): void {
    const c = this.cells;
    c[bin]++;
    c[N]++;
  }

  /** Adds another sketch's counts into this one: exact, and the result is the same in any order. */
  merge(other: LatencyHistogram): this {
    if (other.count === 0) return this;
    const c = this.cells, o = other.cells;
    for (let i = 0; i <= SUM; i++) c[i] += o[i];
    if (o[MIN] < c[MIN]) c[MIN] = o[MIN];
    if (o[MAX] > c[MAX]) c[MAX] = o[MAX];
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
    // The smallest and the largest are known exactly (unless only counted: countIn).
    const exact = this.max >= this.min;
    if (exact && rank >= n) return this.max;
    if (exact && rank === 1) return this.min;
    let cum = 0;
    for (let i = 0; i < BINS; i++) {
      cum += this.counts[i];
      if (cum < rank) continue;
      if (!exact) return binValue(i);
      // The top bin has no upper edge: all it knows is the largest latency.
      return i === BINS - 1 ? this.max : Math.min(this.max, Math.max(this.min, binValue(i)));
    }
    return NaN; // unreachable: the counts add up to n
  }

  /** The exact mean (to the microsecond); NaN when nothing was recorded (or only counted: countIn). */
  mean(): number {
    return this.count > 0 && this.max >= this.min ? this.sumUs / this.count / 1e6 : NaN;
  }

  /** Empties the sketch (the recorder reuses its per-bucket sketches). */
  reset(): void {
    if (this.count === 0) return;
    this.cells.fill(0);
    this.cells[MIN] = Infinity;
    this.cells[MAX] = -Infinity;
  }

  /** The sparse form (only nonzero bins): what JSON.stringify writes. */
  toJSON(): LatencyHistogramJson {
    const bins: Array<[number, number]> = [];
    for (let i = 0; i < BINS; i++) if (this.counts[i] !== 0) bins.push([i, this.counts[i]]);
    return { bins, sumUs: this.sumUs, min: this.count > 0 ? this.min : null, max: this.count > 0 ? this.max : null };
  }

  /** The sketch a sparse form describes (toJSON's inverse); throws on a bin outside the scale or a count that is not whole. */
  static fromJSON(json: LatencyHistogramJson): LatencyHistogram {
    const h = new LatencyHistogram();
    for (const [bin, n] of json.bins) {
      if (!(Number.isInteger(bin) && bin >= 0 && bin < BINS)) throw new RangeError(`latency sketch: bin ${bin} is not one of 0..${BINS - 1}`);
      if (!(Number.isInteger(n) && n > 0)) throw new RangeError(`latency sketch: bin ${bin} has count ${n}, not a whole number above 0`);
      h.cells[bin] += n;
      h.cells[N] += n;
    }
    h.cells[SUM] = json.sumUs;
    if (h.count > 0) {
      h.cells[MIN] = json.min ?? Infinity;
      h.cells[MAX] = json.max ?? -Infinity;
    }
    return h;
  }
}
